// The REST door. Every request costs one SQL statement, api.aanroep, which resolves the key,
// checks the three conditions and the input (against the registry's parameter rules), runs the
// operation under RLS, applies the two-step rule and writes the call log. This layer only
// parses HTTP.
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { restOperations as operations, restPath, httpMethod, type Operation } from "./registry.ts";
import type { ErrorBody } from "./parameters.ts";
import { parseApiKey, bearerToken } from "./api-key.ts";
import { index, openapi } from "./api-docs.ts";
import type { Sql } from "./db/connection.ts";

interface DoorResponse { status: number; body: unknown }

/** One door call: api.aanroep, with an error found before the database (shape, size) if any. */
export async function callDoor(sql: Sql, door: "rest" | "mcp", keyHash: Buffer | null, operation: string,
                               parameters: unknown, earlyError: ErrorBody | null): Promise<DoorResponse> {
  const [row] = await sql`
    select api.aanroep(${door}, ${keyHash}, ${operation}, ${sql.json(parameters as never)},
                       ${earlyError ? sql.json(earlyError as never) : null}) as r`;
  return row!.r as unknown as DoorResponse;
}

function send(reply: FastifyReply, a: DoorResponse) {
  return reply.code(a.status).header("cache-control", "no-store").send(a.body);
}

export function buildRestDoor(sql: Sql, options: { bodyLimit: number; logger?: boolean }): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: options.bodyLimit });

  // The doors must not answer with Fastify's own error shapes: every non-200 carries a fout,
  // and the call is logged (a too-large or unreadable body is a refused call too).
  app.setErrorHandler(async (err: Error & { statusCode?: number }, req, reply) => {
    const tooLarge = err.statusCode === 413;
    const error: ErrorBody = tooLarge
      ? { code: "te_groot", bericht: `De body is te groot (hoogstens ${options.bodyLimit} bytes).` }
      : (err.statusCode ?? 500) < 500
        ? { code: "ongeldige_parameters", bericht: "De body is geen geldig JSON-object." }
        : { code: "interne_fout", bericht: "Er ging iets mis aan onze kant. Probeer het later opnieuw." };
    if (error.code === "interne_fout") req.log.error(err);
    const op = operations.find((o) => restPath(o) === req.routeOptions.url);
    try {
      return send(reply, await callDoor(sql, "rest", parseApiKey(bearerToken(req.headers.authorization)),
        op?.name ?? req.url.split("?")[0]!, {}, error));
    } catch (e) {
      req.log.error(e);
      return reply.code(500).send({ fout: { code: "interne_fout", bericht: "Er ging iets mis aan onze kant." } });
    }
  });

  app.get("/api/v1", async () => index());
  app.get("/api/v1/", async () => index());
  app.get("/api/v1/openapi.json", async () => openapi());

  for (const o of operations) {
    app.route({
      method: httpMethod(o),
      url: restPath(o),
      handler: async (req, reply) => {
        const input = o.writes ? (req.body ?? {}) : req.query;
        return send(reply, await runOperation(sql, o, req.headers.authorization, input));
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const keyHash = parseApiKey(bearerToken(req.headers.authorization));
    return send(reply, await callDoor(sql, "rest", keyHash, `${req.method} ${req.url.split("?")[0]}`, {},
      { code: "onbekend_endpoint", bericht: "Dit adres bestaat niet." }));
  });

  return app;
}

export async function runOperation(sql: Sql, o: Operation, authorization: string | undefined, input: unknown) {
  return callDoor(sql, "rest", parseApiKey(bearerToken(authorization)), o.name, input ?? {}, null);
}
