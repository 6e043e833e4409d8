// The authorization server's HTTP side on Koers's Fastify server:
// - metadata: protected resource metadata (RFC 9728, path form and root form) and authorization
//   server metadata (RFC 8414), naming Koers's public address;
// - the MCP SDK's own handlers for /oauth/authorize, /oauth/token, /oauth/register (RFC 7591)
//   and /oauth/revoke (RFC 7009), express routers handed the raw request;
// - the sign-in and consent forms (/oauth/aanmelden, /oauth/toestemming).
// The forms are bound to the browser that started the request (a cookie whose hash the request
// holds) and the consent form to the sign-in (a one-time token), so neither can be posted from
// another site or another browser.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import express from "express";
import { authorizationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/authorize.js";
import { tokenHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/token.js";
import { clientRegistrationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/register.js";
import { revocationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/revoke.js";
import { RETRY_AFTER_SECONDS, unavailable, type Sql } from "../db/connection.ts";
import { BROWSER_COOKIE, PAGE_HEADERS, cookieValue, type PublicAddress, type Site, type SiteOf } from "./provider.ts";
import { consentPage, messagePage, signInPage, type ConsentRequest } from "./pages.ts";
import { verifyPassword } from "./password.ts";
import { randomSecret, sha256 } from "./tokens.ts";

export function authorizationServerMetadata(a: PublicAddress) {
  return {
    issuer: a.issuer,
    authorization_endpoint: `${a.issuer}/oauth/authorize`,
    token_endpoint: `${a.issuer}/oauth/token`,
    registration_endpoint: `${a.issuer}/oauth/register`,
    revocation_endpoint: `${a.issuer}/oauth/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

export function protectedResourceMetadata(a: PublicAddress) {
  return { resource: a.resource, authorization_servers: [a.issuer], bearer_methods_supported: ["header"], resource_name: "Koers" };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXPIRED = "Deze aanmelding is verlopen of al afgerond. Begin opnieuw vanuit je assistent.";

/** The SDK's handlers for one site's provider, as an express app. */
function sdkHandlers({ provider }: Site): express.Express {
  const ex = express();
  ex.disable("x-powered-by");
  ex.set("etag", false);
  // The SDK answers an OAuth error 400; temporarily_unavailable (the database is away) is a 503
  // with Retry-After, so a client waits and tries again.
  ex.use((_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: { error?: unknown }) => {
      if (body?.error === "temporarily_unavailable") res.status(503).set("retry-after", String(RETRY_AFTER_SECONDS));
      return json(body);
    };
    next();
  });
  // Rate limiting is off: the SDK's limiter counts per instance and per client address, which
  // behind a proxy is one address for everyone (Koers has no rate limit yet; docs/decisions.md).
  ex.use("/oauth/authorize", authorizationHandler({ provider, rateLimit: false }));
  ex.use("/oauth/token", tokenHandler({ provider, rateLimit: false }));
  ex.use("/oauth/register", clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit: false,
    clientSecretExpirySeconds: 0 }));
  ex.use("/oauth/revoke", revocationHandler({ provider, rateLimit: false }));
  return ex;
}

export async function registerOAuthRoutes(app: FastifyInstance, sql: Sql, site: SiteOf): Promise<void> {
  const address = (req: FastifyRequest): PublicAddress => site(req.headers.host).address;
  // Metadata: public documents, readable from any page.
  await app.register(async (scope) => {
    const send = (reply: FastifyReply, doc: unknown) =>
      reply.headers({ "access-control-allow-origin": "*", "cache-control": "max-age=300" }).send(doc);
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      scope.get(path, async (req, reply) => send(reply, protectedResourceMetadata(address(req))));
    }
    scope.get("/.well-known/oauth-authorization-server", async (req, reply) => send(reply, authorizationServerMetadata(address(req))));
  });

  // The SDK's handlers, given the untouched request stream (they parse their own bodies).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    const handlers = new Map<string, express.Express>();
    for (const path of ["/oauth/authorize", "/oauth/token", "/oauth/register", "/oauth/revoke"]) {
      scope.all(path, (req, reply) => {
        const s = site(req.headers.host);
        let ex = handlers.get(s.address.issuer);
        if (!ex) handlers.set(s.address.issuer, ex = sdkHandlers(s));
        reply.hijack();
        ex(req.raw as never, reply.raw as never);
      });
    }
  });

  // The sign-in and consent forms.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 16 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
    scope.setErrorHandler(async (err: Error & { statusCode?: number }, req, reply) => {
      if (unavailable(err)) {
        return reply.code(503).headers({ ...PAGE_HEADERS, "retry-after": String(RETRY_AFTER_SECONDS) }).send(messagePage(
          "Even geduld", "Koers kan de database even niet bereiken. Probeer het over een paar seconden opnieuw."));
      }
      if ((err.statusCode ?? 500) >= 500) req.log.error(err);
      const status = (err.statusCode ?? 500) < 500 ? err.statusCode! : 500;
      return reply.code(status).headers(PAGE_HEADERS).send(messagePage("Aanmelden lukt niet",
        status < 500 ? "Dit formulier is niet goed verstuurd. Begin opnieuw vanuit je assistent." : "Er ging iets mis aan onze kant. Probeer het later opnieuw."));
    });
    const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(PAGE_HEADERS).send(html);
    const form = (body: unknown): Record<string, string> => (body && typeof body === "object" ? body : {}) as Record<string, string>;

    scope.post("/oauth/aanmelden", async (req, reply) => {
      const f = form(req.body);
      const browser = cookieValue(req.headers.cookie, BROWSER_COOKIE);
      const id = f.aanvraag ?? "";
      if (!browser || !UUID.test(id)) return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
      const email = (f.email ?? "").slice(0, 320);
      const attempt = (await sql`select app_hidden.mcp_aanmelden(${id}, ${sha256(browser)}, ${email}) as r`)[0]!.r as
        { user_id?: string; wachtwoord_hash?: string | null } | null;
      if (!attempt) return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
      const request = async () => (await sql`select app_hidden.mcp_aanvraag(${id}, ${sha256(browser)}) as r`)[0]!.r as ConsentRequest | null;
      if (!(await verifyPassword((f.wachtwoord ?? "").slice(0, 1000), attempt.wachtwoord_hash))) {
        const r = await request();
        if (!r) return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
        return page(reply, 200, signInPage(r, { email, error: "Dit e-mailadres en wachtwoord horen niet bij elkaar." }));
      }
      const consent = randomSecret();
      const ok = (await sql`select app_hidden.mcp_aangemeld(${id}, ${sha256(browser)}, ${attempt.user_id!}, ${sha256(consent)}) as r`)[0]!.r;
      if (!ok) {
        return page(reply, 403, messagePage("Geen toegang",
          "Je bent in geen enkele organisatie actief lid van Koers, dus een assistent koppelen kan niet."));
      }
      const r = await request();
      if (!r) return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
      return page(reply, 200, consentPage(r, consent, `${address(req).issuer}/app/integraties`));
    });

    scope.post("/oauth/toestemming", async (req, reply) => {
      const f = form(req.body);
      const browser = cookieValue(req.headers.cookie, BROWSER_COOKIE);
      const id = f.aanvraag ?? "";
      if (f.beslissing !== "toestaan" && f.beslissing !== "weigeren") {
        return page(reply, 400, messagePage("Geen keuze", "Kies Toegang geven of Weigeren."));
      }
      if (!browser || !UUID.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(f.toestemming ?? "")) {
        return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
      }
      const allow = f.beslissing === "toestaan";
      const code = randomSecret();
      const r = (await sql`select app_hidden.mcp_beslissen(${id}, ${sha256(browser)}, ${sha256(f.toestemming!)},
        ${allow}, ${sha256(code)}) as r`)[0]!.r as { redirect_uri: string; state: string | null } | null;
      if (!r) return page(reply, 400, messagePage("Aanmelding verlopen", EXPIRED));
      const target = new URL(r.redirect_uri);
      if (allow) {
        target.searchParams.set("code", code);
      } else {
        target.searchParams.set("error", "access_denied");
        target.searchParams.set("error_description", "The user refused access");
      }
      if (r.state !== null) target.searchParams.set("state", r.state);
      target.searchParams.set("iss", address(req).issuer);
      return reply.code(303).headers({ location: target.href, "cache-control": "no-store", "referrer-policy": "no-referrer" }).send();
    });
  });
}
