// Cross-origin use of the REST door. The index, the OpenAPI document and the docs page are
// readable from any web page, and API calls with a bearer key are allowed from any origin: a
// key is sent by the script that holds it, never by the browser on its own (no cookies, so no
// Access-Control-Allow-Credentials), so another origin gains nothing it did not already have.
import type { FastifyInstance, FastifyRequest } from "fastify";

/** Request headers a cross-origin call may send. */
export const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id";
/** Answer headers a cross-origin script may read. */
export const EXPOSE_HEADERS = "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Allow";
/** How long a browser may keep a preflight's answer, in seconds. */
const MAX_AGE = "7200";

/**
 * Adds the CORS headers to every answer and answers preflights (OPTIONS with
 * Access-Control-Request-Method) for every known address; `methodsOf` gives an address's
 * methods, or undefined when it does not exist. Any other OPTIONS is what it was before: a
 * method the address does not take (405 with Allow), or an unknown address (404), logged.
 */
export function addCors(app: FastifyInstance, methodsOf: (req: FastifyRequest) => string | undefined): void {
  app.addHook("onRequest", async (_req, reply) => {
    reply.header("access-control-allow-origin", "*");
    reply.header("access-control-expose-headers", EXPOSE_HEADERS);
  });
  app.options("*", async (req, reply) => {
    const methods = methodsOf(req);
    if (!methods || req.headers["access-control-request-method"] === undefined) return reply.callNotFound();
    return reply.code(204).header("access-control-allow-methods", methods)
      .header("access-control-allow-headers", ALLOW_HEADERS).header("access-control-max-age", MAX_AGE).send();
  });
}
