// The REST door. Every request costs one SQL statement, api.aanroep, which resolves the key,
// checks the three conditions and the input (against the registry's parameter rules), runs the
// operation under RLS, applies the two-step rule, counts the call against the rate limit and
// writes the call log. This layer only parses HTTP, and sends what the database answered: the
// body as PostgreSQL wrote it, the rate-limit fields, and on every answer X-Request-Id.
//
// Every answer that is not 200 carries a fout, also those Fastify and Node would give in their
// own shape (bad URL, wrong method, unreadable body, malformed HTTP, headers too large), and
// every refusal is logged through api.aanroep where a request could be read at all.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import crypto from "node:crypto";
import type { Socket } from "node:net";
import { restOperations as operations, restPath, httpMethod, type Operation } from "./registry.ts";
import type { ErrorBody } from "./parameters.ts";
import { readInput, displayName, type RawBody } from "./http-input.ts";
import { parseApiKey, bearerToken } from "./api-key.ts";
import { index, openapi } from "./api-docs.ts";
import { docsPage, DOCS_CSP } from "./docs-page.ts";
import { addCors } from "./cors.ts";
import { RETRY_AFTER_SECONDS, UNAVAILABLE, unavailable, type Sql } from "./db/connection.ts";

/** The rate limit a call was counted against (draft-ietf-httpapi-ratelimit-headers-10 terms). */
interface RateState { beleid: string; q: number; w: number; r: number; t: number }
interface DoorResponse { status: number; body: unknown; tempo?: RateState }
/** What the request adds to a call: its id (X-Request-Id) and the client's address. */
export interface RequestInfo { id: string; address: string | undefined }

const INTERNAL: ErrorBody = { code: "interne_fout", bericht: "Er ging iets mis aan onze kant. Probeer het later opnieuw." };
const JSON_TYPE = "application/json; charset=utf-8";

/** One door call: api.aanroep, with an error found before the database (shape, size) if any. */
export async function callDoor(sql: Sql, door: "rest" | "mcp", keyHash: Buffer | null, operation: string,
                               parameters: unknown, earlyError: ErrorBody | null, request?: RequestInfo): Promise<DoorResponse> {
  const [row] = await sql`
    select api.aanroep(${door}, ${keyHash}, ${operation}, ${sql.json(parameters as never)},
                       ${earlyError ? sql.json(earlyError as never) : null}, ${request?.id ?? null}, ${request?.address ?? null}) as r`;
  return row!.r as unknown as DoorResponse;
}

/** An answer of the REST door: the body as the bytes PostgreSQL sent. */
interface TextResponse { status: number; body: Buffer | string; tempo: RateState | null }

/**
 * The same call for the REST door, with the body as the bytes of the text PostgreSQL made of
 * it: sent as they are, not decoded, parsed into objects and serialised again.
 */
async function callDoorText(sql: Sql, keyHash: Buffer | null, operation: string, parameters: unknown,
                            earlyError: ErrorBody | null, request: RequestInfo): Promise<TextResponse> {
  const [row] = await sql`
    select (r ->> 'status') as status, (r -> 'body')::text as body, (r -> 'tempo')::text as tempo
    from api.aanroep('rest', ${keyHash}, ${operation}, ${sql.json(parameters as never)},
                     ${earlyError ? sql.json(earlyError as never) : null}, ${request.id}, ${request.address ?? null}) r`.raw();
  const [status, body, tempo] = row as unknown as [Buffer, Buffer, Buffer | null];
  return { status: Number(status.toString()), body, tempo: tempo ? JSON.parse(tempo.toString()) : null };
}

/** A request id from the client is kept when it is sane: short, printable, and nothing like a key. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:@+=\/-]{0,127}$/;
export function requestId(header: string | string[] | undefined): string {
  return typeof header === "string" && SANE_REQUEST_ID.test(header) && !/koers_|bearer/i.test(header)
    ? header : crypto.randomUUID();
}

/** RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-10), Retry-After with a 429. */
function rateHeaders(status: number, t: RateState | null | undefined): Record<string, string> {
  if (!t) return {};
  const h: Record<string, string> = {
    "ratelimit-policy": `"${t.beleid}";q=${t.q};w=${t.w}`,
    ratelimit: `"${t.beleid}";r=${t.r};t=${t.t}`,
  };
  if (status === 429) h["retry-after"] = String(Math.max(1, t.t));
  return h;
}

function send(reply: FastifyReply, a: TextResponse) {
  if (a.status === 401) reply.header("www-authenticate", bearerChallenge(a.body));
  // 503 tijdelijk_onbeschikbaar: the call met other transactions' conflicts on every try.
  if (a.status === 503) reply.header("retry-after", "1");
  return reply.code(a.status).headers(rateHeaders(a.status, a.tempo))
    .header("cache-control", "no-store").type(JSON_TYPE).send(a.body);
}

/**
 * A 401's challenge (RFC 6750): a key is asked for; a key that was sent and is revoked, or is
 * no key of Koers, is an invalid token.
 */
function bearerChallenge(body: Buffer | string): string {
  const code = (JSON.parse(body.toString()) as { fout?: ErrorBody }).fout?.code;
  return `Bearer realm="koers"${code === "sleutel_ingetrokken" ? ', error="invalid_token"' : ""}`;
}

/** The database is away (or a call lost a deadlock at commit): 503 tijdelijk_onbeschikbaar, to be tried again. */
function sendUnavailable(reply: FastifyReply) {
  return reply.code(503).header("retry-after", String(RETRY_AFTER_SECONDS)).header("cache-control", "no-store")
    .type(JSON_TYPE).send({ fout: UNAVAILABLE });
}

/** What a refusal written to a socket says when its logging call failed. */
function failedAnswer(e: unknown): DoorResponse {
  return unavailable(e) ? { status: 503, body: { fout: UNAVAILABLE } } : { status: 500, body: { fout: INTERNAL } };
}

const requestOf = (req: FastifyRequest): RequestInfo => ({ id: req.id, address: req.ip });

/** The address the client used (for the docs page's examples), when its Host header is a plain host[:port]. */
function ownOrigin(req: FastifyRequest): string | undefined {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/.test(host) ? `${req.protocol}://${host}` : undefined;
}

/** The path of a raw URL, %-decoded where it can be (shown through displayName: it may hold a NUL). */
function pathOf(url: string): string {
  const raw = url.split("?")[0]!;
  try { return decodeURIComponent(raw); } catch { return raw; }
}

/** A refusal written straight to a socket, for errors where Node has no request to answer. */
function rawAnswer(socket: Socket, a: DoorResponse, id: string) {
  if (!socket.writable) return socket.destroy();
  const body = JSON.stringify(a.body);
  const reason = a.status === 431 ? "Request Header Fields Too Large" : a.status === 429 ? "Too Many Requests"
    : a.status === 500 ? "Internal Server Error" : a.status === 503 ? "Service Unavailable" : "Bad Request";
  const extra = Object.entries({ ...rateHeaders(a.status, a.tempo), ...(a.status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : {}) })
    .map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(`HTTP/1.1 ${a.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Request-Id: ${id}\r\n${extra}` +
    `Connection: close\r\n\r\n${body}`);
}

export function buildRestDoor(sql: Sql, options: { bodyLimit: number; logger?: boolean }): FastifyInstance {
  const keyOf = (req: FastifyRequest) => parseApiKey(bearerToken(req.headers.authorization));
  const refuse = async (req: FastifyRequest, reply: FastifyReply, operation: string, error: ErrorBody) => {
    try {
      return send(reply.header("x-request-id", req.id), await callDoorText(sql, keyOf(req), operation, {}, error, requestOf(req)));
    } catch (e) {
      if (unavailable(e)) return sendUnavailable(reply);
      req.log.error(e);
      return reply.code(500).send({ fout: INTERNAL });
    }
  };

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit,
    // X-Request-Id: the client's when sane, else a new one; on every answer, in the call log.
    genReqId: (req) => requestId(req.headers["x-request-id"]),
    // A malformed URL or %-escape in the path.
    frameworkErrors: (err, req, reply) => void refuse(req, reply, `${req.method} ${req.url.split("?")[0]!.slice(0, 200)}`,
      { code: "ongeldig_verzoek", bericht: err.code === "FST_ERR_BAD_URL"
        ? "Het adres is geen geldige URL (een % moet gevolgd worden door twee hexadecimale cijfers)."
        : "Het adres is niet te lezen." }),
    // Malformed HTTP, an unknown method, headers too large: Node has no request to answer, so
    // the answer goes straight to the socket, after the refusal is logged (without organisation).
    clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => {
      if (err.code === "ECONNRESET" || socket.destroyed) return;
      if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return void socket.destroy();
      const error: ErrorBody = err.code === "HPE_HEADER_OVERFLOW"
        ? { code: "headers_te_groot", bericht: "De headers van het verzoek zijn te groot." }
        : { code: "ongeldig_verzoek", bericht: "Dit is geen geldig HTTP-verzoek (of de methode bestaat niet)." };
      const id = crypto.randomUUID();
      callDoor(sql, "rest", null, "HTTP", {}, error, { id, address: socket.remoteAddress })
        .then((a) => rawAnswer(socket, a, id), (e) => rawAnswer(socket, failedAnswer(e), id));
    },
  });

  // Node hands CONNECT (a proxy request) to this event, and closes the socket when nobody listens.
  app.server.on("connect", (req: { url?: string; headers: Record<string, string | string[] | undefined> }, socket: Socket) => {
    const key = parseApiKey(bearerToken(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined));
    const id = requestId(req.headers["x-request-id"]);
    callDoor(sql, "rest", key, `CONNECT ${displayName(req.url ?? "")}`, {},
      { code: "ongeldig_verzoek", bericht: "Koers is geen proxy: CONNECT kan niet." }, { id, address: socket.remoteAddress })
      .then((a) => rawAnswer(socket, a, id), (e) => rawAnswer(socket, failedAnswer(e), id));
  });

  app.addHook("onRequest", (req, reply, done) => { reply.header("x-request-id", req.id); done(); });

  // Bodies are read as bytes and interpreted by http-input.ts for every content type, so the
  // door, not a parser, decides what is accepted (JSON and form bodies) and how it is refused.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (req, bytes, done) =>
    done(null, { contentType: req.headers["content-type"] ?? "", bytes: bytes as Buffer } satisfies RawBody));

  // What Fastify refuses itself (a body too large, an unreadable Content-Type) gets a fout and a log row too.
  app.setErrorHandler(async (err: Error & { statusCode?: number }, req, reply) => {
    if (unavailable(err)) return sendUnavailable(reply);
    const status = err.statusCode ?? 500;
    const error: ErrorBody = status === 413
      ? { code: "te_groot", bericht: `De body is te groot (hoogstens ${options.bodyLimit} bytes).` }
      : status === 415
        ? { code: "niet_ondersteund", bericht: "Het formaat van de body (Content-Type) is niet te lezen. " +
            "Stuur de parameters als application/json of application/x-www-form-urlencoded (UTF-8)." }
        : status < 500
          ? { code: "ongeldig_verzoek", bericht: "Het verzoek is niet te lezen." }
          : INTERNAL;
    if (error.code === "interne_fout") req.log.error(err);
    const op = operations.find((o) => restPath(o) === req.routeOptions.url);
    return refuse(req, reply, op?.name ?? `${req.method} ${displayName(pathOf(req.url))}`, error);
  });

  // The methods each known address takes, for 405 with Allow.
  const allowed = new Map<string, string>([["/api/v1", "GET, HEAD"], ["/api/v1/", "GET, HEAD"], ["/api/v1/openapi.json", "GET, HEAD"],
    ["/api/v1/docs", "GET, HEAD"]]);
  addCors(app, (req) => allowed.get(pathOf(req.url)));
  app.get("/api/v1", async () => index());
  app.get("/api/v1/", async () => index());
  app.get("/api/v1/openapi.json", async () => openapi());
  app.get("/api/v1/docs", async (req, reply) => reply.type("text/html; charset=utf-8")
    .header("content-security-policy", DOCS_CSP).header("x-content-type-options", "nosniff").send(docsPage(ownOrigin(req))));

  for (const o of operations) {
    allowed.set(restPath(o), httpMethod(o) === "GET" ? "GET, HEAD" : "POST");
    app.route({
      method: httpMethod(o),
      url: restPath(o),
      handler: async (req, reply) => {
        const input = readInput(o.writes, req.url, req.body as RawBody | undefined);
        return send(reply, await callDoorText(sql, keyOf(req), o.name, input.ok ? input.value : input.logged,
                                              input.ok ? null : input.error, requestOf(req)));
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = pathOf(req.url);
    const methods = allowed.get(path);
    if (methods) reply.header("allow", methods);
    return refuse(req, reply, `${req.method} ${displayName(path)}`, methods
      ? { code: "methode_niet_toegestaan", bericht: `${displayName(path)} kent alleen ${methods.replace(", HEAD", "")}.` }
      : { code: "onbekend_endpoint", bericht: "Dit adres bestaat niet." });
  });

  return app;
}

export async function runOperation(sql: Sql, o: Operation, authorization: string | undefined, input: unknown) {
  return callDoor(sql, "rest", parseApiKey(bearerToken(authorization)), o.name, input ?? {}, null);
}
