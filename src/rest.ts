// The REST door. Every request costs one SQL statement, api.aanroep, which resolves the key,
// checks the three conditions, runs the operation under RLS, applies the two-step rule and
// writes the call log. This layer only parses HTTP and validates shapes.
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { operaties, pad, methode, type Operatie } from "./registry.ts";
import { valideer, type Fout } from "./parameters.ts";
import { leesSleutel, uitHeader } from "./api-key.ts";
import { index, openapi } from "./api-docs.ts";
import type { Sql } from "./db/connection.ts";

interface Antwoord { status: number; body: unknown }

export async function aanroep(sql: Sql, door: "rest" | "mcp", sleutel: Buffer | null, operatie: string,
                              parameters: unknown, voorfout: Fout | null): Promise<Antwoord> {
  const [rij] = await sql`
    select api.aanroep(${door}, ${sleutel}, ${operatie}, ${sql.json(parameters as never)},
                       ${voorfout ? sql.json(voorfout as never) : null}) as r`;
  return rij!.r as unknown as Antwoord;
}

function stuur(reply: FastifyReply, a: Antwoord) {
  return reply.code(a.status).header("cache-control", "no-store").send(a.body);
}

export function bouwRest(sql: Sql, opties: { bodyLimit: number; logger?: boolean }): FastifyInstance {
  const app = Fastify({ logger: opties.logger ?? false, bodyLimit: opties.bodyLimit });

  // The doors must not answer with Fastify's own error shapes: every non-200 carries a fout,
  // and the call is logged (a too-large or unreadable body is a refused call too).
  app.setErrorHandler(async (err: Error & { statusCode?: number }, req, reply) => {
    const te_groot = err.statusCode === 413;
    const fout: Fout = te_groot
      ? { code: "te_groot", bericht: `De body is te groot (hoogstens ${opties.bodyLimit} bytes).` }
      : (err.statusCode ?? 500) < 500
        ? { code: "ongeldige_parameters", bericht: "De body is geen geldig JSON-object." }
        : { code: "interne_fout", bericht: "Er ging iets mis aan onze kant. Probeer het later opnieuw." };
    if (fout.code === "interne_fout") req.log.error(err);
    const op = operaties.find((o) => pad(o) === req.routeOptions.url);
    try {
      return stuur(reply, await aanroep(sql, "rest", leesSleutel(uitHeader(req.headers.authorization)),
        op?.naam ?? req.url.split("?")[0]!, {}, fout));
    } catch (e) {
      req.log.error(e);
      return reply.code(500).send({ fout: { code: "interne_fout", bericht: "Er ging iets mis aan onze kant." } });
    }
  });

  app.get("/api/v1", async () => index());
  app.get("/api/v1/", async () => index());
  app.get("/api/v1/openapi.json", async () => openapi());

  for (const o of operaties) {
    app.route({
      method: methode(o),
      url: pad(o),
      handler: async (req, reply) => {
        const invoer = o.schrijft ? (req.body ?? {}) : req.query;
        return stuur(reply, await voerUit(sql, o, req.headers.authorization, invoer));
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const sleutel = leesSleutel(uitHeader(req.headers.authorization));
    return stuur(reply, await aanroep(sql, "rest", sleutel, `${req.method} ${req.url.split("?")[0]}`, {},
      { code: "onbekend_endpoint", bericht: "Dit adres bestaat niet." }));
  });

  return app;
}

export async function voerUit(sql: Sql, o: Operatie, authorization: string | undefined, invoer: unknown) {
  const sleutel = leesSleutel(uitHeader(authorization));
  const v = valideer(o.parameters, invoer);
  // A shape error is reported only after the key and the three conditions passed; the
  // database decides the order, and logs the call either way.
  return v.ok
    ? aanroep(sql, "rest", sleutel, o.naam, v.waarde, null)
    : aanroep(sql, "rest", sleutel, o.naam, invoer ?? {}, v.fout);
}
