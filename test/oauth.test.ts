// Koers as the AI connection's authorization server, step by step over real HTTP: the metadata,
// the 401 challenge, and every refusal the sign-in has to make (expired, revoked and
// foreign-audience tokens, a reused refresh token or code, a missing or plain PKCE challenge, a
// redirect mismatch, a token in the query string, forms from another browser, origins).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { makeWorld, testDatabase, type TestDb, type World } from "./helpers.ts";
import { readConfig } from "../src/config.ts";
import {
  aiDoorOn, authorizeUrl, browserSignIn, email, field, pkce, rawMcp, registerClient, REDIRECT, signInByHand, startKoersMcp,
  tokenRequest, type KoersMcp,
} from "./mcp-helpers.ts";

const NOW = "2026-05-14T08:00:00Z";
const plusMinutes = (m: number) => new Date(Date.parse(NOW) + m * 60_000).toISOString();

let db: TestDb;
let koers: KoersMcp;
let w: World;
let owner: string;
before(async () => {
  db = await testDatabase();
  koers = await startKoersMcp(db.url, { now: NOW });
  w = await makeWorld(db.sql);
  await aiDoorOn(db.sql, w);
  owner = await email(db.sql, w.members.eigenaar);
});
after(async () => {
  await koers.stop();
  await db.drop();
});

const tools = (token: string, k: KoersMcp = koers) => rawMcp(k.mcpUrl, { method: "tools/list" }, { token });

describe("discovery", () => {
  it("serves protected resource metadata (path and root form) and authorization server metadata", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const r = await fetch(new URL(path, koers.baseUrl));
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), { resource: `${koers.baseUrl}/mcp`, authorization_servers: [koers.baseUrl],
        bearer_methods_supported: ["header"], resource_name: "Koers" });
    }
    const as = await (await fetch(new URL("/.well-known/oauth-authorization-server", koers.baseUrl))).json() as Record<string, unknown>;
    assert.equal(as.issuer, koers.baseUrl);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(as.grant_types_supported, ["authorization_code", "refresh_token"]);
    assert.equal(as.registration_endpoint, `${koers.baseUrl}/oauth/register`);
    assert.equal(as.client_id_metadata_document_supported, true);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
  });

  it("answers /mcp without a token with 401, a fout and a challenge naming the metadata", async () => {
    const r = await rawMcp(koers.mcpUrl, { method: "initialize", params: {} });
    assert.equal(r.status, 401);
    assert.equal(r.body.fout.code, "geen_sleutel");
    assert.equal(r.headers.get("www-authenticate"),
      `Bearer resource_metadata="${koers.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  it("names its public address (KOERS_PUBLIC_URL), not where it listens, so it works behind a proxy", async () => {
    const proxied = await startKoersMcp(db.url, { publicUrl: "https://koers.example.com" });
    try {
      const prm = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", proxied.baseUrl))).json() as Record<string, unknown>;
      assert.deepEqual([prm.resource, prm.authorization_servers], ["https://koers.example.com/mcp", ["https://koers.example.com"]]);
      const as = await (await fetch(new URL("/.well-known/oauth-authorization-server", proxied.baseUrl))).json() as Record<string, unknown>;
      assert.equal(as.token_endpoint, "https://koers.example.com/oauth/token");
      const r = await rawMcp(proxied.mcpUrl, { method: "tools/list" });
      assert.match(r.headers.get("www-authenticate")!, /resource_metadata="https:\/\/koers\.example\.com\/\.well-known\/oauth-protected-resource\/mcp"/);
      // The sign-in cookie is Secure behind https.
      const client = await registerClient(proxied.baseUrl);
      const page = await fetch(authorizeUrl(proxied.baseUrl, { client_id: client.body.client_id, code_challenge: pkce().challenge,
        resource: "https://koers.example.com/mcp" }));
      assert.match(page.headers.get("set-cookie")!, /HttpOnly; SameSite=Strict; Max-Age=3600; Secure$/);
    } finally {
      await proxied.stop();
    }
  });
});

describe("access tokens", () => {
  it("work for 30 minutes, then are refused as expired (401 sleutel_ingetrokken)", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    assert.equal(t.expires_in, 1800);
    // Instances share nothing but the database: any of them checks the token.
    const almost = await startKoersMcp(db.url, { now: plusMinutes(29), publicUrl: koers.baseUrl });
    const later = await startKoersMcp(db.url, { now: plusMinutes(31), publicUrl: koers.baseUrl });
    try {
      assert.equal((await tools(t.access_token, almost)).status, 200);
      const r = await tools(t.access_token, later);
      assert.deepEqual([r.status, r.body.fout.code], [401, "sleutel_ingetrokken"]);
      assert.match(r.headers.get("www-authenticate")!, /error="invalid_token"/);
    } finally {
      await almost.stop();
      await later.stop();
    }
  });

  it("are refused once revoked through the revocation endpoint (RFC 7009), with the refresh token", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    assert.equal((await tools(t.access_token)).status, 200);
    const r = await fetch(new URL("/oauth/revoke", koers.baseUrl), { method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: t.refresh_token, client_id: t.client_id }) });
    assert.equal(r.status, 200);
    assert.deepEqual([(await tools(t.access_token)).status, (await tools(t.access_token)).body.fout.code], [401, "sleutel_ingetrokken"]);
    const refresh = await tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.client_id });
    assert.deepEqual([refresh.status, refresh.body.error], [400, "invalid_grant"]);
  });

  it("are bound to their resource: a token of another Koers address is unknown here", async () => {
    const elsewhere = await startKoersMcp(db.url, { now: NOW, publicUrl: "https://ander.example" });
    try {
      const t = await signInByHand(koers.baseUrl, owner);
      assert.equal((await tools(t.access_token)).status, 200);
      const r = await tools(t.access_token, elsewhere);
      assert.deepEqual([r.status, r.body.fout.code], [401, "geen_sleutel"]);
      assert.match(r.headers.get("www-authenticate")!, /resource_metadata="https:\/\/ander\.example\//);
    } finally {
      await elsewhere.stop();
    }
  });

  it("are not issued for another resource", async () => {
    const client = await registerClient(koers.baseUrl);
    const { challenge, verifier } = pkce();
    // At the authorization endpoint: back to the assistant with invalid_target, no sign-in page.
    const r = await fetch(authorizeUrl(koers.baseUrl, { client_id: client.body.client_id, code_challenge: challenge,
      resource: "https://elders.example/mcp" }), { redirect: "manual" });
    assert.equal(r.status, 302);
    assert.equal(new URL(r.headers.get("location")!).searchParams.get("error"), "invalid_target");
    // At the token endpoint.
    const { redirect } = await browserSignIn(authorizeUrl(koers.baseUrl, { client_id: client.body.client_id, code_challenge: challenge }),
      { email: owner });
    const t = await tokenRequest(koers.baseUrl, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!,
      code_verifier: verifier, client_id: client.body.client_id, redirect_uri: REDIRECT, resource: "https://elders.example/mcp" });
    assert.deepEqual([t.status, t.body.error], [400, "invalid_target"]);
  });

  it("are refused in the query string, even when valid", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    for (const headers of [{}, { authorization: `Bearer ${t.access_token}` }] as Record<string, string>[]) {
      const r = await rawMcp(new URL(`/mcp?access_token=${t.access_token}`, koers.baseUrl), { method: "tools/list" }, { headers });
      assert.deepEqual([r.status, r.body.fout.code], [401, "geen_sleutel"]);
      assert.match(r.headers.get("www-authenticate")!, /error="invalid_request"/);
    }
  });

  it("a malformed token or an API key is refused before any look-up", async () => {
    for (const token of ["koers_at_nietgoed", w.members.eigenaar.apiKey, "x".repeat(5000)]) {
      const r = await tools(token);
      assert.deepEqual([r.status, r.body.fout.code], [401, "geen_sleutel"]);
    }
  });
});

describe("refresh tokens", () => {
  it("rotate, and a reused one revokes the whole family", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const first = await tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.client_id });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.notEqual(first.body.refresh_token, t.refresh_token);
    assert.equal((await tools(first.body.access_token)).status, 200);
    const reused = await tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.client_id });
    assert.deepEqual([reused.status, reused.body.error], [400, "invalid_grant"]);
    const r = await tools(first.body.access_token);
    assert.deepEqual([r.status, r.body.fout.code], [401, "sleutel_ingetrokken"], "the newest access token is revoked too");
    const next = await tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: t.client_id });
    assert.deepEqual([next.status, next.body.error], [400, "invalid_grant"], "as is the newest refresh token");
    const [v] = await db.sql`select reden_intrekking from app_private.mcp_verbindingen v join app_private.mcp_tokens k on k.verbinding_id = v.id
      where k.hash = sha256(convert_to(${t.refresh_token}, 'UTF8'))`;
    assert.equal(v!.reden_intrekking, "hergebruik");
  });

  it("two refreshes with one token at once: one pair is issued, the reuse ends the family, nothing fails", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const both = await Promise.all([1, 2].map(() =>
      tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.client_id })));
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 400]);
    const issued = both.find((r) => r.status === 200)!;
    assert.equal((await tools(issued.body.access_token)).status, 401);
  });

  it("belong to their client", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const stranger = await registerClient(koers.baseUrl);
    const r = await tokenRequest(koers.baseUrl, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: stranger.body.client_id });
    assert.deepEqual([r.status, r.body.error], [400, "invalid_grant"]);
  });
});

describe("authorization requests", () => {
  let clientId: string;
  before(async () => { clientId = (await registerClient(koers.baseUrl)).body.client_id; });

  const back = async (u: URL) => {
    const r = await fetch(u, { redirect: "manual" });
    return { status: r.status, location: r.headers.get("location") ? new URL(r.headers.get("location")!) : null, text: await r.text() };
  };

  it("without a PKCE challenge: back to the assistant with invalid_request, no sign-in page", async () => {
    const r = await back(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: undefined }));
    assert.equal(r.status, 302);
    assert.equal(r.location!.origin + r.location!.pathname, REDIRECT);
    assert.equal(r.location!.searchParams.get("error"), "invalid_request");
    assert.match(r.location!.searchParams.get("error_description")!, /code_challenge/);
  });

  it("with a plain challenge: refused the same way (S256 only)", async () => {
    const { verifier } = pkce();
    const r = await back(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: verifier, code_challenge_method: "plain" }));
    assert.equal(r.status, 302);
    assert.equal(r.location!.searchParams.get("error"), "invalid_request");
    const none = await back(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: pkce().challenge, code_challenge_method: undefined }));
    assert.equal(none.location!.searchParams.get("error"), "invalid_request", "no method is not S256 either");
  });

  it("with a redirect address the client did not register: refused here, never sent there", async () => {
    const r = await back(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: pkce().challenge,
      redirect_uri: "https://aanvaller.example/callback" }));
    assert.equal(r.status, 400);
    assert.equal(r.location, null);
    assert.equal(JSON.parse(r.text).error, "invalid_request");
  });

  it("for an unknown client: refused here", async () => {
    const r = await back(authorizeUrl(koers.baseUrl, { client_id: "onbekend", code_challenge: pkce().challenge }));
    assert.deepEqual([r.status, JSON.parse(r.text).error], [400, "invalid_client"]);
  });

  it("a code needs its PKCE verifier, the registered redirect, and works once (a replay revokes its tokens)", async () => {
    const { verifier, challenge } = pkce();
    const { redirect } = await browserSignIn(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: challenge }), { email: owner });
    const code = redirect.searchParams.get("code")!;
    const base = { grant_type: "authorization_code", code, client_id: clientId, redirect_uri: REDIRECT };
    const wrong = await tokenRequest(koers.baseUrl, { ...base, code_verifier: pkce().verifier });
    assert.deepEqual([wrong.status, wrong.body.error], [400, "invalid_grant"]);
    const elsewhere = await tokenRequest(koers.baseUrl, { ...base, code_verifier: verifier, redirect_uri: "http://127.0.0.1:8976/anders" });
    assert.deepEqual([elsewhere.status, elsewhere.body.error], [400, "invalid_grant"]);
    const ok = await tokenRequest(koers.baseUrl, { ...base, code_verifier: verifier });
    assert.equal(ok.status, 200);
    const again = await tokenRequest(koers.baseUrl, { ...base, code_verifier: verifier });
    assert.deepEqual([again.status, again.body.error], [400, "invalid_grant"]);
    assert.equal((await tools(ok.body.access_token)).status, 401, "the tokens of a replayed code are revoked");
  });

  it("two exchanges of one code at once: one gets tokens, the other nothing, and the replay revokes them", async () => {
    const { verifier, challenge } = pkce();
    const { redirect } = await browserSignIn(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: challenge }), { email: owner });
    const form = { grant_type: "authorization_code", code: redirect.searchParams.get("code")!, code_verifier: verifier,
      client_id: clientId, redirect_uri: REDIRECT };
    const both = await Promise.all([tokenRequest(koers.baseUrl, form), tokenRequest(koers.baseUrl, form)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 400]);
    assert.equal((await tools(both.find((r) => r.status === 200)!.body.access_token)).status, 401);
  });

  it("a code expires after 5 minutes", async () => {
    const { verifier, challenge } = pkce();
    const { redirect } = await browserSignIn(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: challenge }), { email: owner });
    const later = await startKoersMcp(db.url, { now: plusMinutes(6), publicUrl: koers.baseUrl });
    try {
      const r = await tokenRequest(later.baseUrl, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!,
        code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
      assert.deepEqual([r.status, r.body.error], [400, "invalid_grant"]);
    } finally {
      await later.stop();
    }
  });
});

describe("the sign-in and consent forms", () => {
  let clientId: string;
  before(async () => { clientId = (await registerClient(koers.baseUrl, { client_name: "<script>alert('x')</script> Assistent" })).body.client_id; });
  const start = async () => {
    const r = await fetch(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: pkce().challenge }));
    const html = await r.text();
    return { cookie: r.headers.get("set-cookie")!.split(";")[0]!, aanvraag: field(html, "aanvraag")!, html, headers: r.headers };
  };
  const post = (path: string, cookie: string | null, form: Record<string, string>) => fetch(new URL(path, koers.baseUrl), {
    method: "POST", redirect: "manual", body: new URLSearchParams(form),
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) } });

  it("are plain HTML without script, not framable, not cached, and escape what the assistant registered", async () => {
    const s = await start();
    assert.doesNotMatch(s.html, /<script/i);
    assert.match(s.html, /&lt;script&gt;alert\(&#39;x&#39;\)&lt;\/script&gt; Assistent/);
    assert.match(s.headers.get("content-security-policy")!, /default-src 'none'.*frame-ancestors 'none'/);
    assert.equal(s.headers.get("x-frame-options"), "DENY");
    assert.equal(s.headers.get("cache-control"), "no-store");
    assert.match(s.headers.get("set-cookie")!, /^koers_browser=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Strict/);
  });

  it("refuse a sign-in from another browser (no cookie, or another one)", async () => {
    const s = await start();
    const other = await start();
    for (const cookie of [null, other.cookie]) {
      const r = await post("/oauth/aanmelden", cookie, { aanvraag: s.aanvraag, email: owner, wachtwoord: "correct paard batterij niet" });
      assert.equal(r.status, 400);
      assert.match(await r.text(), /verlopen/);
    }
  });

  it("refuse a wrong password without saying whether the address exists, five times at most", async () => {
    const s = await start();
    for (const address of [owner, "niemand@nergens.nl", owner, owner, owner]) {
      const r = await post("/oauth/aanmelden", s.cookie, { aanvraag: s.aanvraag, email: address, wachtwoord: "fout" });
      assert.equal(r.status, 200);
      const html = await r.text();
      assert.match(html, /Dit e-mailadres en wachtwoord horen niet bij elkaar/);
      assert.equal(field(html, "toestemming"), undefined);
    }
    const r = await post("/oauth/aanmelden", s.cookie, { aanvraag: s.aanvraag, email: owner, wachtwoord: "correct paard batterij niet" });
    assert.equal(r.status, 400, "the sixth attempt finds the request used up");
  });

  it("accept consent only with the one-time token of the consent page, from the same browser, once", async () => {
    const s = await start();
    const signedIn = await post("/oauth/aanmelden", s.cookie, { aanvraag: s.aanvraag, email: owner, wachtwoord: "correct paard batterij niet" });
    const toestemming = field(await signedIn.text(), "toestemming")!;
    const forged = await post("/oauth/toestemming", s.cookie, { aanvraag: s.aanvraag, toestemming: "x".repeat(43), beslissing: "toestaan" });
    assert.equal(forged.status, 400);
    const otherBrowser = await post("/oauth/toestemming", (await start()).cookie, { aanvraag: s.aanvraag, toestemming, beslissing: "toestaan" });
    assert.equal(otherBrowser.status, 400);
    const noChoice = await post("/oauth/toestemming", s.cookie, { aanvraag: s.aanvraag, toestemming, beslissing: "misschien" });
    assert.equal(noChoice.status, 400);
    const ok = await post("/oauth/toestemming", s.cookie, { aanvraag: s.aanvraag, toestemming, beslissing: "toestaan" });
    assert.equal(ok.status, 303);
    assert.ok(new URL(ok.headers.get("location")!).searchParams.get("code"));
    const twice = await post("/oauth/toestemming", s.cookie, { aanvraag: s.aanvraag, toestemming, beslissing: "toestaan" });
    assert.equal(twice.status, 400);
  });

  it("refuse a person who is an active member nowhere", async () => {
    await db.sql`update app.lidmaatschappen set actief = false where user_id = ${w.members.coach.user_id}`;
    try {
      const s = await start();
      const r = await post("/oauth/aanmelden", s.cookie, { aanvraag: s.aanvraag, email: await email(db.sql, w.members.coach),
        wachtwoord: "correct paard batterij niet" });
      assert.equal(r.status, 403);
      assert.match(await r.text(), /geen enkele organisatie actief lid/);
    } finally {
      await db.sql`update app.lidmaatschappen set actief = true where user_id = ${w.members.coach.user_id}`;
    }
  });
});

describe("client registration", () => {
  it("registers public clients only: no secret is issued", async () => {
    const r = await registerClient(koers.baseUrl, { token_endpoint_auth_method: "client_secret_post" });
    assert.equal(r.status, 201);
    assert.equal(r.body.client_secret, undefined);
    assert.equal(r.body.token_endpoint_auth_method, "none");
  });

  it("refuses redirect addresses over plain http other than loopback, and script addresses", async () => {
    for (const uri of ["http://assistent.example/cb", "javascript:alert(1)", "https://assistent.example/cb#frag"]) {
      const r = await registerClient(koers.baseUrl, { redirect_uris: [uri] });
      assert.deepEqual([r.status, r.body.error], [400, "invalid_client_metadata"], uri);
    }
    assert.equal((await registerClient(koers.baseUrl, { redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] })).status, 201);
    assert.equal((await registerClient(koers.baseUrl, { redirect_uris: ["vscode://koers/callback"] })).status, 201);
  });
});

describe("client ID metadata documents", () => {
  let server: http.Server;
  let base: string;
  let doc: (url: string) => Record<string, unknown>;
  before(async () => {
    server = http.createServer((req, res) => {
      const url = `${base}${req.url}`;
      if (req.url === "/redirect") { res.writeHead(302, { location: "/client.json" }).end(); return; }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc(url)));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("signs in an assistant known by the address of its metadata document", async () => {
    const local = await startKoersMcp(db.url, { now: NOW, clientMetadata: { allowPrivate: true } });
    try {
      doc = (url) => ({ client_id: url, client_name: "Documentassistent", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
      const clientId = `${base}/client.json`;
      const { verifier, challenge } = pkce();
      const { redirect, signIn } = await browserSignIn(authorizeUrl(local.baseUrl, { client_id: clientId, code_challenge: challenge }), { email: owner });
      assert.match(signIn.html, /Documentassistent/);
      const t = await tokenRequest(local.baseUrl, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!,
        code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
      assert.equal(t.status, 200, JSON.stringify(t.body));
      assert.equal((await tools(t.body.access_token, local)).status, 200);

      // A document that names another client_id, or redirects, is refused.
      doc = () => ({ client_id: "https://iemand-anders.example/client.json", client_name: "X", redirect_uris: [REDIRECT] });
      const mismatch = await fetch(authorizeUrl(local.baseUrl, { client_id: `${base}/ander.json`, code_challenge: challenge }));
      assert.deepEqual([mismatch.status, ((await mismatch.json()) as { error: string }).error], [400, "invalid_client"]);
      const redirected = await fetch(authorizeUrl(local.baseUrl, { client_id: `${base}/redirect`, code_challenge: challenge }));
      assert.equal(redirected.status, 400);
    } finally {
      await local.stop();
    }
  });

  it("never fetches from a private network or over plain http in a deployment", async () => {
    for (const clientId of [`${base}/nooit-opgehaald.json`, "https://127.0.0.1/client.json", "https://localhost/client.json", "https://[::1]/client.json"]) {
      const r = await fetch(authorizeUrl(koers.baseUrl, { client_id: clientId, code_challenge: pkce().challenge }));
      const body = await r.json() as { error: string; error_description: string };
      assert.deepEqual([r.status, body.error], [400, "invalid_client"], `${clientId}: ${body.error_description}`);
    }
  });
});

describe("origins (DNS rebinding)", () => {
  it("refuses a browser page of another origin, allows Koers's own and configured ones", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const evil = await rawMcp(koers.mcpUrl, { method: "tools/list" }, { token: t.access_token, headers: { origin: "https://evil.example" } });
    assert.deepEqual([evil.status, evil.body.fout.code], [403, "herkomst_geweigerd"]);
    const own = await rawMcp(koers.mcpUrl, { method: "tools/list" }, { token: t.access_token, headers: { origin: koers.baseUrl } });
    assert.equal(own.status, 200);
    const allowing = await startKoersMcp(db.url, { now: NOW, publicUrl: koers.baseUrl, allowedOrigins: ["https://app.example"] });
    try {
      const r = await rawMcp(allowing.mcpUrl, { method: "tools/list" }, { token: t.access_token, headers: { origin: "https://app.example" } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("access-control-allow-origin"), "https://app.example");
      const preflight = await fetch(allowing.mcpUrl, { method: "OPTIONS", headers: { origin: "https://app.example",
        "access-control-request-method": "POST" } });
      assert.equal(preflight.status, 204);
      assert.match(preflight.headers.get("access-control-allow-headers")!, /Authorization/);
    } finally {
      await allowing.stop();
    }
  });
});

describe("the transport", () => {
  it("answers a body that is too large or not JSON with a fout, before the MCP layer", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const small = await startKoersMcp(db.url, { now: NOW, publicUrl: koers.baseUrl, bodyLimit: 1024 });
    try {
      const big = await rawMcp(small.mcpUrl, { method: "tools/call", params: { name: "team", arguments: { x: "y".repeat(2000) } } },
        { token: t.access_token });
      assert.deepEqual([big.status, big.body.fout.code], [413, "te_groot"]);
      const broken = await fetch(small.mcpUrl, { method: "POST", body: "{niet json",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.access_token}` } });
      assert.deepEqual([broken.status, ((await broken.json()) as { fout: { code: string } }).fout.code], [400, "ongeldige_parameters"]);
    } finally {
      await small.stop();
    }
  });

  it("answers an unknown tool with onbekend_endpoint, logged", async () => {
    const t = await signInByHand(koers.baseUrl, owner);
    const r = await rawMcp(koers.mcpUrl, { method: "tools/call", params: { name: "bestaat_niet", arguments: { org_id: w.org } } },
      { token: t.access_token });
    assert.equal(r.body.result.isError, true);
    assert.equal(r.body.result.structuredContent.fout.code, "onbekend_endpoint");
    const [log] = await db.sql`select status, fout_code from app_private.aanroepen where org_id = ${w.org} and door = 'mcp'
      and operatie = 'bestaat_niet'`;
    assert.deepEqual([log!.status, log!.fout_code], [404, "onbekend_endpoint"]);
  });

  it("takes its public address and allowed origins as origins only", () => {
    assert.equal(readConfig({ KOERS_PUBLIC_URL: "https://koers.example.com/" }).publicUrl, "https://koers.example.com");
    assert.deepEqual(readConfig({ KOERS_ALLOWED_ORIGINS: "https://a.example, http://localhost:5173" }).allowedOrigins,
      ["https://a.example", "http://localhost:5173"]);
    for (const bad of ["https://koers.example.com/koers", "koers.example.com", "ftp://koers.example.com", "https://u:p@koers.example.com"]) {
      assert.throws(() => readConfig({ KOERS_PUBLIC_URL: bad }), /KOERS_PUBLIC_URL must be/);
    }
  });
});

