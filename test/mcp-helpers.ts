// Shared by the MCP and OAuth tests: Koers with the AI connection on a loopback port, members
// who can sign in, a browser that fills in the sign-in and consent forms, and an OAuth client
// provider for the MCP SDK's own clients (v1, the 2025 era; v2, the 2026-07-28 revision).
import assert from "node:assert/strict";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { buildRestDoor } from "../src/rest.ts";
import { mountMcp } from "../src/mcp/mount.ts";
import { connect } from "../src/db/connection.ts";
import { ensureDoorRole } from "../src/db/migrate.ts";
import { hashPassword } from "../src/oauth/password.ts";
import type { FetchPolicy } from "../src/oauth/client-metadata.ts";
import { values } from "../src/choices.ts";
import type { World, Member, Role } from "./helpers.ts";

export const PASSWORD = "correct paard batterij niet";

export interface KoersMcp { baseUrl: string; mcpUrl: URL; stop(): Promise<void> }

/** The REST door and the AI connection on 127.0.0.1, as src/server.ts mounts them. */
export async function startKoersMcp(adminUrl: string, options: {
  now?: string; publicUrl?: string; allowedOrigins?: string[]; clientMetadata?: FetchPolicy; bodyLimit?: number;
} = {}): Promise<KoersMcp> {
  const doorSql = connect(await ensureDoorRole(adminUrl), { now: options.now ?? null, name: "koers-test", max: 4 });
  const app = buildRestDoor(doorSql, { bodyLimit: options.bodyLimit ?? 256 * 1024 });
  let listening = "";
  await mountMcp(app, doorSql, { publicUrl: () => options.publicUrl ?? listening, allowedOrigins: options.allowedOrigins ?? [],
    clientMetadata: options.clientMetadata });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  listening = `http://127.0.0.1:${port}`;
  return { baseUrl: listening, mcpUrl: new URL("/mcp", listening), stop: async () => { await app.close(); await doorSql.end(); } };
}

/** Every member of the worlds gets PASSWORD; the AI door is switched on. */
export async function aiDoorOn(sql: postgres.Sql, ...worlds: World[]): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  for (const w of worlds) {
    await sql`update app.accounts set wachtwoord_hash = ${hash} where id in ${sql(Object.values(w.members).map((m) => m.user_id))}`;
    await sql`select beheer.koppeling_zetten(${w.org}, 'mcp', true, false)`;
  }
}

export function email(sql: postgres.Sql, m: Member): Promise<string> {
  return sql`select email from app.accounts where id = ${m.user_id}`.then((r) => r[0]!.email as string);
}

export interface Browser { cookie?: string }

/** The answer of one browser step: status, the page, where it sends the browser. */
export interface Step { status: number; html: string; location: string | null; headers: Headers }

async function step(url: URL | string, browser: Browser, form?: Record<string, string>): Promise<Step> {
  const r = await fetch(url, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    headers: { ...(browser.cookie ? { cookie: browser.cookie } : {}),
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
  });
  const setCookie = r.headers.get("set-cookie");
  if (setCookie) browser.cookie = setCookie.split(";")[0];
  return { status: r.status, html: await r.text(), location: r.headers.get("location"), headers: r.headers };
}

export const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/**
 * Plays the person in a browser: opens the authorization address, signs in, and answers the
 * consent page. Returns the address the browser is sent back to, and the pages on the way.
 */
export async function browserSignIn(authorizationUrl: URL, who: { email: string; password?: string },
  decision: "toestaan" | "weigeren" = "toestaan", browser: Browser = {}) {
  const signIn = await step(authorizationUrl, browser);
  assert.equal(signIn.status, 200, signIn.html);
  const aanvraag = field(signIn.html, "aanvraag")!;
  const base = new URL("/", authorizationUrl);
  const consent = await step(new URL("/oauth/aanmelden", base), browser,
    { aanvraag, email: who.email, wachtwoord: who.password ?? PASSWORD });
  assert.equal(consent.status, 200, consent.html);
  const toestemming = field(consent.html, "toestemming");
  assert.ok(toestemming, consent.html);
  const back = await step(new URL("/oauth/toestemming", base), browser, { aanvraag, toestemming, beslissing: decision });
  assert.equal(back.status, 303, back.html);
  return { redirect: new URL(back.location!), signIn, consent };
}

/** An OAuth client provider for both SDK lines, in memory; the test plays the browser. */
export class TestClientProvider {
  authorizationUrl?: URL;
  private info?: Record<string, unknown>;
  private stored?: Record<string, unknown>;
  private verifier?: string;
  private discovery?: unknown;
  constructor(readonly name = "Testassistent", readonly redirectUrl = "http://127.0.0.1:8976/callback") {}
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() { return this.info as never; }
  saveClientInformation(info: Record<string, unknown>) { this.info = info; }
  tokens() { return this.stored as never; }
  saveTokens(tokens: Record<string, unknown>) { this.stored = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier!; }
  saveDiscoveryState(s: unknown) { this.discovery = s; }
  discoveryState() { return this.discovery as never; }
  get accessToken() { return this.stored?.access_token as string; }
  get refreshToken() { return this.stored?.refresh_token as string; }
  get clientId() { return this.info?.client_id as string; }
}

export type { World, Member, Role };
export const sections = values("sectie");

// The OAuth flow by hand, for tests that look at one step --------------------------------------

export function pkce() {
  const verifier = crypto.randomBytes(32).toString("base64url");
  return { verifier, challenge: crypto.createHash("sha256").update(verifier).digest("base64url") };
}

export const REDIRECT = "http://127.0.0.1:8976/callback";

export async function registerClient(baseUrl: string, metadata: Record<string, unknown> = {}) {
  const r = await fetch(new URL("/oauth/register", baseUrl), { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Handmatig", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...metadata }) });
  return { status: r.status, body: await r.json() as Record<string, any> };
}

export function authorizeUrl(baseUrl: string, p: Record<string, string | undefined>): URL {
  const u = new URL("/oauth/authorize", baseUrl);
  const all: Record<string, string | undefined> = { response_type: "code", redirect_uri: REDIRECT, code_challenge_method: "S256",
    state: "toestand", resource: new URL("/mcp", baseUrl).href, ...p };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) u.searchParams.set(k, v);
  return u;
}

export async function tokenRequest(baseUrl: string, form: Record<string, string>) {
  const r = await fetch(new URL("/oauth/token", baseUrl), { method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
  return { status: r.status, body: await r.json() as Record<string, any> };
}

export interface HandTokens { access_token: string; refresh_token: string; expires_in: number; client_id: string }

/** Registration, authorization with PKCE, the forms, and the token request: a signed-in assistant. */
export async function signInByHand(baseUrl: string, emailAddress: string): Promise<HandTokens> {
  const client = await registerClient(baseUrl);
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { verifier, challenge } = pkce();
  const { redirect } = await browserSignIn(authorizeUrl(baseUrl, { client_id: client.body.client_id, code_challenge: challenge }),
    { email: emailAddress });
  const t = await tokenRequest(baseUrl, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!,
    code_verifier: verifier, client_id: client.body.client_id, redirect_uri: REDIRECT, resource: new URL("/mcp", baseUrl).href });
  assert.equal(t.status, 200, JSON.stringify(t.body));
  return { ...(t.body as HandTokens), client_id: client.body.client_id };
}

/** One JSON-RPC request to /mcp as a 2025-era client sends it (stateless), answer parsed from JSON or SSE. */
export async function rawMcp(mcpUrl: URL | string, message: Record<string, unknown>,
  options: { token?: string; headers?: Record<string, string>; protocolVersion?: string } = {}) {
  const r = await fetch(mcpUrl, { method: "POST", headers: {
    "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-protocol-version": options.protocolVersion ?? "2025-06-18",
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers,
  }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }) });
  const text = await r.text();
  const json = (r.headers.get("content-type") ?? "").includes("text/event-stream")
    ? JSON.parse(text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).pop() ?? "null")
    : text ? JSON.parse(text) : null;
  return { status: r.status, body: json, headers: r.headers };
}
