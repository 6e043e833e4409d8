// The MCP door: Streamable HTTP at /mcp, stateless (a fresh server per request, so any
// instance answers any request), for both protocol generations from one server factory: the
// 2025 era (initialize; 2025-06-18 and 2025-11-25) and the 2026-07-28 revision (per-request
// envelope), as the SDK's createMcpHandler serves them.
//
// Every request first passes the Origin check (DNS rebinding) and the access token check
// (401 with a WWW-Authenticate challenge pointing at the protected resource metadata, so an
// assistant signs in or refreshes). A tool call is then one door call, api.aanroep('mcp', ...):
// the same three conditions, two-step rule, call log and fout codes as REST. A refused tool
// call is still logged, as REST logs a refused request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createMcpHandler, Server, type CallToolResult } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { bearerToken } from "../api-key.ts";
import { callDoor, type RequestInfo } from "../rest.ts";
import { checkStorable, tooDeep, MAX_DEPTH } from "../http-input.ts";
import type { ErrorBody } from "../parameters.ts";
import { RETRY_AFTER_SECONDS, UNAVAILABLE, unavailable, type Sql } from "../db/connection.ts";
import { tools, instructions } from "./tools.ts";
import pkg from "../../package.json" with { type: "json" };
import type { PublicAddress, SiteOf } from "../oauth/provider.ts";

export interface McpDoorOptions {
  /** The address a request is answered as, and its token provider. */
  site: SiteOf;
  /** Origins (scheme://host[:port]) whose browser pages may call /mcp, besides Koers's own. */
  allowedOrigins: readonly string[];
}

/** One MCP server per request; the tools are the registry's, every call goes to api.aanroep. */
function buildServer(sql: Sql): Server {
  const server = new Server({ name: "koers", title: "Koers", version: pkg.version }, { capabilities: { tools: {} }, instructions });
  server.setRequestHandler("tools/list", async () => ({ tools: tools as never }));
  server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const credential = ctx.http?.authInfo?.extra?.credential as Buffer | undefined;
    // The HTTP request's id (X-Request-Id) and client address, for the log and the rate limit.
    const http = ctx.http?.authInfo?.extra?.request as RequestInfo | undefined;
    // The same transport checks as the REST door: no NUL or lone surrogate reaches jsonb.
    const args = checkStorable((request.params.arguments ?? {}) as Record<string, unknown>);
    const a = await (args.ok
      ? callDoor(sql, "mcp", credential ?? null, request.params.name, args.value, null, http)
      : callDoor(sql, "mcp", credential ?? null, request.params.name, args.logged, args.error, http)).catch(unavailableResult);
    const body = a.body as Record<string, unknown>;
    return {
      content: [{ type: "text", text: JSON.stringify(body) }],
      structuredContent: body,
      ...(a.status === 200 ? {} : { isError: true }),
    };
  });
  return server;
}

/** The database went away between the token check and the call: the tool's result says so, to be tried again. */
function unavailableResult(e: unknown): { status: number; body: unknown } {
  if (!unavailable(e)) throw e;
  return { status: 503, body: { fout: UNAVAILABLE } };
}

function challenge(address: PublicAddress, error?: { code: string; description: string }): string {
  const quote = (s: string) => `"${s.replace(/["\\]/g, "")}"`;
  return [`Bearer resource_metadata=${quote(`${address.issuer}/.well-known/oauth-protected-resource/mcp`)}`,
    ...(error ? [`error=${quote(error.code)}`, `error_description=${quote(error.description)}`] : [])].join(", ");
}

const UNAUTHORIZED: Record<string, { error: string; description: string; bericht: string }> = {
  geen_sleutel: { error: "invalid_token", description: "Unknown access token",
    bericht: "Meld je aan: koppel Koers in je assistent en log in met je Koers-account." },
  sleutel_ingetrokken: { error: "invalid_token", description: "Access token revoked or expired",
    bericht: "Dit token is verlopen of ingetrokken. Vernieuw het, of meld je opnieuw aan." },
};

export async function registerMcpDoor(app: FastifyInstance, sql: Sql, options: McpDoorOptions): Promise<void> {
  const handler = createMcpHandler(() => buildServer(sql), { legacy: "stateless" });
  const node = toNodeHandler(handler);

  function originAllowed(req: FastifyRequest): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true; // not a browser page
    return origin === new URL(options.site(req.headers.host).address.issuer).origin || options.allowedOrigins.includes(origin);
  }

  function corsHeaders(req: FastifyRequest): Record<string, string> {
    const origin = req.headers.origin;
    return origin && originAllowed(req)
      ? { "access-control-allow-origin": origin, vary: "Origin",
          "access-control-expose-headers": "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version" }
      : {};
  }

  /** A refusal before the MCP layer: fout in the body; a tool call is logged as REST logs it. */
  async function refuse(req: FastifyRequest, reply: FastifyReply, status: number, fout: ErrorBody,
                        wwwAuthenticate: string | null, credential: Buffer | null) {
    const body = req.body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
    let answer = fout;
    if (status === 401 && body?.method === "tools/call" && typeof body.params?.name === "string") {
      // The database decides the code (and logs it); the message is the AI door's.
      const logged = await callDoor(sql, "mcp", credential, body.params.name, body.params.arguments ?? {}, null,
        { id: req.id, address: req.ip });
      const code = (logged.body as { fout?: ErrorBody }).fout?.code;
      if (logged.status === 401 && code && UNAUTHORIZED[code]) answer = { code, bericht: UNAUTHORIZED[code].bericht };
    }
    reply.code(status).headers({ ...corsHeaders(req), "cache-control": "no-store" });
    if (wwwAuthenticate) reply.header("www-authenticate", wwwAuthenticate);
    return reply.send({ fout: answer });
  }

  await app.register(async (scope) => {
    // JSON-RPC bodies are parsed here (the REST door keeps raw bodies for its own checks), after
    // the same depth check, so no body can exhaust a stack.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
      const fail = (message: string) => done(Object.assign(new Error(message), { statusCode: 400 }), undefined);
      if (tooDeep(text as string)) return fail(`nested deeper than ${MAX_DEPTH}`);
      try {
        done(null, JSON.parse(text as string));
      } catch {
        fail("not JSON");
      }
    });
    // Errors of this route are answered here, not by the REST door's handler (which logs as REST).
    scope.setErrorHandler(async (err: Error & { statusCode?: number }, req, reply) => {
      if (unavailable(err)) {
        return reply.code(503).headers({ ...corsHeaders(req), "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" })
          .send({ fout: UNAVAILABLE });
      }
      const status = err.statusCode === 413 ? 413 : (err.statusCode ?? 500) < 500 ? 400 : 500;
      if (status === 500) req.log.error(err);
      const fout: ErrorBody = status === 413 ? { code: "te_groot", bericht: "De body is te groot." }
        : status === 400 ? { code: "ongeldige_parameters", bericht: "De body is geen geldig JSON-bericht." }
        : { code: "interne_fout", bericht: "Er ging iets mis aan onze kant. Probeer het later opnieuw." };
      return reply.code(status).headers(corsHeaders(req)).send({ fout });
    });

    scope.options("/mcp", async (req, reply) => {
      if (!originAllowed(req)) return refuse(req, reply, 403, originRefusal(req), null, null);
      return reply.code(204).headers({
        ...corsHeaders(req),
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name",
        "access-control-max-age": "600",
      }).send();
    });

    scope.route({
      method: ["GET", "POST", "DELETE"],
      url: "/mcp",
      handler: async (req, reply) => {
        if (!originAllowed(req)) return refuse(req, reply, 403, originRefusal(req), null, null);
        const { address, provider } = options.site(req.headers.host);
        // OAuth 2.1 (and RFC 9700): a token in a URL ends up in logs and histories; never accepted.
        if (/[?&]access_token=/.test(req.url)) {
          return refuse(req, reply, 401, { code: "geen_sleutel",
            bericht: "Een token hoort in de header Authorization: Bearer <token>, nooit in het adres." },
            challenge(address, { code: "invalid_request", description: "Access tokens are refused in the query string" }), null);
        }
        const token = bearerToken(req.headers.authorization);
        const checked = await provider.checkAccessToken(token);
        if (checked.status !== "geldig") {
          const why = UNAUTHORIZED[checked.status]!;
          return refuse(req, reply, 401, { code: checked.status, bericht: why.bericht },
            challenge(address, token === undefined ? undefined : { code: why.error, description: why.description }),
            checked.credential ?? null);
        }
        for (const [k, v] of Object.entries(corsHeaders(req))) reply.raw.setHeader(k, v);
        reply.hijack();
        const auth = { ...checked.auth!, extra: { ...checked.auth!.extra, request: { id: req.id, address: req.ip } satisfies RequestInfo } };
        await node(Object.assign(req.raw, { auth }), reply.raw, req.body);
      },
    });
  });
}

function originRefusal(req: FastifyRequest): ErrorBody {
  return { code: "herkomst_geweigerd",
    bericht: `Verzoeken vanaf ${String(req.headers.origin).slice(0, 200)} worden geweigerd (KOERS_ALLOWED_ORIGINS).` };
}
