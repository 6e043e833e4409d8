// The bare route: its own process, Fastify and postgres.js, the same data query as the door's
// operation, on the same database, as the superuser: no key, no conditions, no input check, no
// RLS, no call log. What a request costs with nothing but HTTP and the query.
//   BARE_DATABASE_URL=postgres://... BARE_PORT=0 node --import tsx bench/bare.ts
import Fastify from "fastify";
import postgres from "postgres";
import * as q from "./bare-queries.ts";

const sql = postgres(process.env.BARE_DATABASE_URL!, { max: Number(process.env.BARE_POOL ?? 10), onnotice: () => {} });
const app = Fastify({ logger: false });
type Query = Record<string, string>;
const send = (body: string) => body;

app.get("/wie-ben-ik", async (req, reply) => {
  const p = req.query as Query;
  const [r] = await sql.unsafe(q.wieBenIk, [p.org_id!, p.user_id!, p.key_id!], { prepare: true });
  return reply.type("application/json; charset=utf-8").send(send(r!.body));
});
app.get("/team", async (req, reply) => {
  const [r] = await sql.unsafe(q.team, [(req.query as Query).org_id!], { prepare: true });
  return reply.type("application/json; charset=utf-8").send(r!.body);
});
app.get("/taken", async (req, reply) => {
  const p = req.query as Query;
  const [r] = p.nummer
    ? await sql.unsafe(q.takenNummer, [p.org_id!, p.nummer], { prepare: true })
    : p.eigenaar_user_id
      ? await sql.unsafe(q.takenEigenaar, [p.org_id!, p.eigenaar_user_id], { prepare: true })
      : await sql.unsafe(q.takenLijst, [p.org_id!], { prepare: true });
  return reply.type("application/json; charset=utf-8").send(r!.body);
});
app.get("/prioriteiten", async (req, reply) => {
  const p = req.query as Query;
  const [r] = await sql.unsafe(q.prioriteiten, [p.org_id!, p.kwartaal!], { prepare: true });
  return reply.type("application/json; charset=utf-8").send(r!.body);
});
app.get("/kpi-scorebord", async (req, reply) => {
  const p = req.query as Query;
  const [r] = await sql.unsafe(q.kpiScorebord, [p.org_id!, p.kwartaal!], { prepare: true });
  return reply.type("application/json; charset=utf-8").send(r!.body);
});

const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.BARE_PORT ?? 0) });
console.log(`bare: serving on ${address}`);
const stop = async () => { await app.close(); await sql.end({ timeout: 2 }); process.exit(0); };
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
