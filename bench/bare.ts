// The bare route: its own process, Fastify and postgres.js, the same data query as the door's
// operation, on the same database, as the superuser: no key, no conditions, no input check, no
// RLS, no call log. What a request costs with nothing but HTTP and the query.
//   BARE_DATABASE_URL=postgres://... BARE_PORT=0 node --import tsx bench/bare.ts
//
// Every route takes pause_ms: the query then also waits that long in PostgreSQL (pg_sleep), so
// the route answers at a lower rate while its work per request stays the same. The benchmark
// uses it to measure the bare route's Node process at the door's rate (a process's CPU per
// request depends on how many requests it serves per second).
import Fastify from "fastify";
import postgres from "postgres";
import * as q from "./bare-queries.ts";

const sql = postgres(process.env.BARE_DATABASE_URL!, { max: Number(process.env.BARE_POOL ?? 10), onnotice: () => {} });
const app = Fastify({ logger: false });
type Query = Record<string, string>;

/** The body of a query's one row, the query paced by pause_ms when given (its last parameter). */
async function body(query: string, parameters: string[], pauseMs: string | undefined): Promise<string> {
  const [r] = pauseMs === undefined
    ? await sql.unsafe(query, parameters, { prepare: true })
    : await sql.unsafe(`select q.body from (${query}) q, pg_sleep($${parameters.length + 1}::float8 / 1000)`,
                       [...parameters, pauseMs], { prepare: true });
  return r!.body as string;
}

const json = "application/json; charset=utf-8";
app.get("/wie-ben-ik", async (req, reply) => {
  const p = req.query as Query;
  return reply.type(json).send(await body(q.wieBenIk, [p.org_id!, p.user_id!, p.key_id!], p.pause_ms));
});
app.get("/team", async (req, reply) => {
  const p = req.query as Query;
  return reply.type(json).send(await body(q.team, [p.org_id!], p.pause_ms));
});
app.get("/taken", async (req, reply) => {
  const p = req.query as Query;
  return reply.type(json).send(p.nummer
    ? await body(q.takenNummer, [p.org_id!, p.nummer], p.pause_ms)
    : p.eigenaar_user_id
      ? await body(q.takenEigenaar, [p.org_id!, p.eigenaar_user_id], p.pause_ms)
      : await body(q.takenLijst, [p.org_id!], p.pause_ms));
});
app.get("/prioriteiten", async (req, reply) => {
  const p = req.query as Query;
  return reply.type(json).send(await body(q.prioriteiten, [p.org_id!, p.kwartaal!], p.pause_ms));
});
app.get("/kpi-scorebord", async (req, reply) => {
  const p = req.query as Query;
  return reply.type(json).send(await body(q.kpiScorebord, [p.org_id!, p.kwartaal!], p.pause_ms));
});

const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.BARE_PORT ?? 0) });
console.log(`bare: serving on ${address}`);
const stop = async () => { await app.close(); await sql.end({ timeout: 2 }); process.exit(0); };
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
