// Sessions of the owner's pages. The cookie holds a random secret; the database keeps only its
// hash (app_private.app_sessies) and answers whether it still counts (beheer.app_sessie: not
// signed out, not expired, the member still active with the same role). Every form carries a
// CSRF token derived from the cookie's secret, so only a page that read the cookie's session
// can post; Origin and Sec-Fetch-Site must say the post came from Koers's own pages.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Sql } from "../db/connection.ts";
import { checkStorable } from "../http-input.ts";
import { PAGE_HEADERS, cookieValue } from "../oauth/provider.ts";
import { randomSecret, sha256 } from "../oauth/tokens.ts";

export interface Session {
  sessie_id: string; org_id: string; org_naam: string; user_id: string; naam: string; email: string; rol: string;
  /** The organisation's time zone, in which the pages show moments. */
  tijdzone: string;
  /** The password was given within 10 minutes: a new secret may be shown without asking again. */
  wachtwoord_vers: boolean;
  csrf: string;
}

export interface AppOptions {
  /** Koers's public address (KOERS_PUBLIC_URL, or where it listens). */
  publicUrl: () => string;
}

/** __Host- when https: the browser then only accepts it Secure, for this host, with Path=/. */
export function cookieName(secure: boolean): string {
  return secure ? "__Host-koers_app" : "koers_app";
}

export function isSecure(options: AppOptions): boolean {
  return new URL(options.publicUrl()).protocol === "https:";
}

export function sessionCookie(value: string, secure: boolean): string {
  return `${cookieName(secure)}=${value}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedCookie(secure: boolean): string {
  return `${cookieName(secure)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** The form token of a session: only whoever holds the cookie can compute it. */
export function csrfToken(cookie: string): string {
  return crypto.createHash("sha256").update(`koers-app-csrf\n${cookie}`).digest("base64url");
}

export function newSessionSecret(): string {
  return randomSecret();
}

/** The session of the request's cookie, or null. */
export async function currentSession(sql: Sql, req: FastifyRequest, options: AppOptions): Promise<Session | null> {
  const cookie = cookieValue(req.headers.cookie, cookieName(isSecure(options)));
  if (!cookie) return null;
  const [row] = await sql`select beheer.app_sessie(${sha256(cookie)}) as r`;
  const s = row?.r as Omit<Session, "csrf"> | null;
  return s ? { ...s, csrf: csrfToken(cookie) } : null;
}

/**
 * Why a post must be refused before it is read further, or null: a post from another site
 * (Origin other than Koers's own, Sec-Fetch-Site cross-site or same-site) or without the
 * session's CSRF token.
 */
export function forgedPost(req: FastifyRequest, session: Session | null, options: AppOptions, body: Record<string, string>): string | null {
  const origin = req.headers.origin;
  // Koers's public address, or the address the browser used with its scheme (localhost for
  // 127.0.0.1 on this machine): never a plain-http page in front of an https Koers.
  const publicUrl = new URL(options.publicUrl());
  const own = new Set([publicUrl.origin, `${publicUrl.protocol}//${req.headers.host}`]);
  if (origin !== undefined && !own.has(origin)) return "herkomst";
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return "herkomst";
  if (session) {
    const given = Buffer.from(body.csrf ?? "");
    const expected = Buffer.from(session.csrf);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "csrf";
  }
  return null;
}

/**
 * The sign-in pages' headers (no caching, no framing, no script), but the referrer kept within
 * Koers: under no-referrer a browser posts forms with "Origin: null", which the origin check
 * must refuse.
 */
export const APP_HEADERS: Record<string, string> = { ...PAGE_HEADERS, "referrer-policy": "same-origin" };

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(APP_HEADERS).send(html);
}

/** A refusal of the database (app_hidden.fout): code, message and parameter; else null. */
export function refusal(e: unknown): { code: string; bericht: string; parameter?: string } | null {
  const err = e as { code?: string; detail?: string; message?: string; hint?: string };
  if (err?.code !== "KOERS") return null;
  return { code: err.detail ?? "ongeldige_parameters", bericht: err.message ?? "", parameter: err.hint || undefined };
}

/**
 * Runs a page action in one transaction. A refusal rolls it back and is then written to the
 * call log on its own (door app), and comes back as { fout }.
 */
export async function act<T>(sql: Sql, s: Session, operatie: string, parameters: Record<string, unknown>,
  run: (tx: Sql) => Promise<T>): Promise<{ ok: T; fout?: undefined } | { ok?: undefined; fout: { code: string; bericht: string; parameter?: string } }> {
  try {
    return { ok: await sql.begin((tx) => run(tx as unknown as Sql)) as T };
  } catch (e) {
    const r = refusal(e);
    if (!r) throw e;
    await logRefusal(sql, s, operatie, parameters, r.code);
    return { fout: r };
  }
}

export async function logRefusal(sql: Sql, s: Pick<Session, "org_id" | "user_id">, operatie: string,
  parameters: Record<string, unknown>, code: string): Promise<void> {
  await sql`select beheer.app_weigering(${s.org_id}, ${s.user_id}, ${operatie}, ${sql.json(parameters as never)}, ${code})`;
}

/** One value of a form field that may be given several times (checkboxes). */
export function many(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type Form = Record<string, string | string[]>;

/**
 * A form body (application/x-www-form-urlencoded); a field given twice (checkboxes) becomes a list.
 * A field PostgreSQL cannot store (a NUL character) is refused here, naming it, as the doors
 * refuse it (src/http-input.ts): 400, before anything reaches the database.
 */
export function parseForm(body: string): Form {
  const out: Form = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const checked = checkStorable(out);
  if (!checked.ok) throw Object.assign(new Error(checked.error.bericht), { statusCode: 400, bericht: checked.error.bericht });
  return out;
}

/** A form field as one text (the first when given twice), at most `max` characters. */
export function text(f: Form, name: string, max = 1000): string {
  const v = f[name];
  return (Array.isArray(v) ? v[0] ?? "" : v ?? "").slice(0, max);
}

/** The `r` column of every row of a query. */
export async function rows(q: PromiseLike<readonly unknown[]>): Promise<any[]> {
  return (await q as unknown as { r: any }[]).map((x) => x.r);
}

/** After a finished action: see the page again (a reload then repeats nothing). */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).headers({ location, "cache-control": "no-store" }).send();
}

/** A page action on one thing its form names by a uuid (see actOnId). */
export interface IdAction {
  roles: readonly string[];
  operatie: string;
  /** The form field that names the thing (default id). */
  param?: string;
  /** The refusal of a value that is no uuid ('Onbekende sleutel.'). */
  onbekend: string;
  /** More of the form, logged with a refusal beside the id. */
  extra?: Record<string, unknown>;
}

/**
 * The one path of a page action on one thing: the gate (role, origin, CSRF), then in one
 * transaction (act) the refusal of a value that is no uuid, then `run`. Null when the gate
 * already answered; else the session and form, with the refusal when there was one.
 */
export async function actOnId(gate: Gate, sql: Sql, req: FastifyRequest, reply: FastifyReply, a: IdAction,
  run: (tx: Sql, s: Session, id: string, f: Form) => Promise<unknown>): Promise<{ s: Session; f: Form; fout?: { code: string; bericht: string; parameter?: string } } | null> {
  const g = await gate.post(req, reply, a.roles, a.operatie);
  if (!g) return null;
  const { s, f } = g;
  const param = a.param ?? "id";
  const id = text(f, param, 100);
  const r = await act(sql, s, a.operatie, { [param]: id, ...a.extra }, async (tx) => {
    if (!UUID.test(id)) await tx`select app_hidden.ongeldig(${param}, ${a.onbekend})`;
    await run(tx, s, id, f);
  });
  return { s, f, fout: r.fout };
}

/** What a handler of a signed-in page gets. */
export interface Gate {
  /** The session when the person may see the page; otherwise the answer is already sent. */
  get(req: FastifyRequest, reply: FastifyReply, roles: readonly string[], operatie: string): Promise<Session | null>;
  /** The same for a post, after the origin and CSRF checks. */
  post(req: FastifyRequest, reply: FastifyReply, roles: readonly string[], operatie: string): Promise<{ s: Session; f: Form } | null>;
}
