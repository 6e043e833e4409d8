// Connections. The administrative connection migrates and serves the CLI and the workers; the
// doors log in as a role of their own database that is a member of koers_door (neither
// superuser nor owner, no BYPASSRLS), so policies written for koers_door apply to it.
import crypto from "node:crypto";
import postgres from "postgres";

export type Sql = postgres.Sql<Record<string, never>>;

/** The rate limits a door's connection counts calls against (api.aanroep reads them). */
export interface SessionRateLimit { perKey: number | null; perAddress: number | null; windowSeconds: number }

/**
 * Startup parameters every connection sends: the test clock, when set, and for a door's
 * connection its rate limits (a limit not set is not counted).
 */
export function sessionSettings(now: string | null, rateLimit?: SessionRateLimit, publicUrl?: string | null): Record<string, string> {
  return {
    // No JIT compilation: Koers's statements are short, and one planned against a large
    // organisation can cost past jit_above_cost and then spend seconds compiling (a search's
    // rendering of its hits, 1,077 functions, 6.5 s) for a run of milliseconds. The warehouse's
    // logins have it off as well (db/930_warehouse.sql).
    jit: "off",
    ...(now ? { "koers.nu": now } : {}),
    // Where refusals send people (app_hidden.app_adres): {KOERS_PUBLIC_URL}/app/integraties.
    ...(publicUrl ? { "koers.publieke_url": publicUrl } : {}),
    ...(rateLimit?.perKey ? { "koers.limiet": String(rateLimit.perKey) } : {}),
    ...(rateLimit?.perAddress ? { "koers.limiet_adres": String(rateLimit.perAddress) } : {}),
    ...(rateLimit ? { "koers.limiet_venster": String(rateLimit.windowSeconds) } : {}),
  };
}

/**
 * The door's login role of one database. Roles are cluster-wide, so each Koers database on a
 * server gets its own, and starting one never changes another's password.
 */
export function doorRoleName(database: string): string {
  return `koers_door_${crypto.createHash("sha256").update(database).digest("hex").slice(0, 12)}`;
}

/**
 * The login role's password: derived from a random secret stored in the database itself, so
 * every instance computes the same one whatever administrative URL it was given.
 */
export function doorPassword(secret: string, role: string): string {
  return crypto.createHmac("sha256", secret).update(role).digest("base64url");
}

/** Where the secret lives: app_private.instellingen, which the doors cannot read. */
export const doorSecretKey = "deur_geheim";

/** The URL the doors use for the database of `adminUrl`; its role is made by ensureDoorRole. */
export async function doorUrl(adminUrl: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select current_database() as db,
      (select waarde from app_private.instellingen where sleutel = ${doorSecretKey}) as secret`;
    if (!row?.secret) throw new Error("the database has no door role yet; run `koers migrate`");
    const role = doorRoleName(row.db);
    const u = new URL(adminUrl);
    u.username = role;
    u.password = doorPassword(row.secret, role);
    return u.toString();
  } finally {
    await sql.end();
  }
}

/** A URL fit to print: the password left out. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return "(not a valid URL)";
  }
}

/** Why a connection failed, in a few words a person can act on. */
function connectionProblem(e: unknown): string {
  const err = e as { code?: string; message?: string };
  switch (err.code) {
    case "ECONNREFUSED": return "connection refused";
    case "ENOTFOUND": case "EAI_AGAIN": return "unknown host";
    case "ETIMEDOUT": case "CONNECT_TIMEOUT": return "no answer";
    case "ECONNRESET": return "connection reset";
    case "28P01": case "28000": return "the server refused the user name or password";
    case "3D000": return "the database does not exist";
    case "ERR_INVALID_URL": return "not a valid URL";
  }
  return (err.message ?? String(e)).split("\n")[0]!;
}

/**
 * Connects once, so a wrong setting ends the start with one line that names it and shows the
 * URL without its password.
 */
export async function checkConnection(url: string, setting: string): Promise<void> {
  let sql: postgres.Sql | null = null;
  try {
    new URL(url);
    sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => {} });
    await sql`select 1`;
  } catch (e) {
    throw new Error(`cannot connect to ${setting} (${withoutPassword(url)}): ${connectionProblem(e)}`);
  } finally {
    await sql?.end({ timeout: 1 });
  }
}

/**
 * While PostgreSQL is away, a request waits at most this long for a connection (seconds):
 * refused at once when the server is down, CONNECT_TIMEOUT when its host does not answer.
 */
export const CONNECT_TIMEOUT_SECONDS = 2;

/**
 * The pause before a connection is tried again after a failed one, in seconds. postgres.js's
 * default grows with every failure in the pool to 10-20 s, so after a ten-second outage calls
 * waited that long for the database that was back; this stays below half a second.
 */
export function reconnectDelay(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 0.5);
}

/** What a client is told to wait when the database is away (Retry-After, seconds). */
export const RETRY_AFTER_SECONDS = 2;

/** The answer while the database cannot be reached (503, Retry-After). */
export const UNAVAILABLE = {
  code: "tijdelijk_onbeschikbaar",
  bericht: "Koers kan de database even niet bereiken. Probeer het over een paar seconden opnieuw; er is niets half geschreven.",
} as const;

/** Errors of a connection, not of the statement: the database is away, restarting or full. */
const CONNECTION_ERRORS = new Set(["CONNECT_TIMEOUT", "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED",
  "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/**
 * SQLSTATEs that say "try again": a lost deadlock or serialization failure (40P01, 40001), the
 * server shutting down or starting (57P01-57P03), too many connections (53300), and every
 * connection exception (class 08).
 */
const RETRYABLE_STATES = new Set(["40001", "40P01", "53300", "57P01", "57P02", "57P03"]);

/** Whether an error means "the database is away for now": answered 503 tijdelijk_onbeschikbaar, never 500. */
export function unavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  const cause = (e as { cause?: unknown } | null)?.cause;
  if (typeof code !== "string" && cause) return unavailable(cause);
  if (typeof code !== "string") {
    // node-postgres (the worker) has no code for a connection that ended.
    return /Connection terminated|connection (?:error|ended|timeout)/i.test((e as Error | null)?.message ?? "");
  }
  return CONNECTION_ERRORS.has(code) || RETRYABLE_STATES.has(code) || code.startsWith("08");
}

/**
 * A pool. Statements are prepared once per connection (postgres.js names them), so a door call
 * is parsed and planned by PostgreSQL once per connection, not per request.
 */
export function connect(url: string, options: { now: string | null; max?: number; name: string; rateLimit?: SessionRateLimit;
  publicUrl?: string | null }): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    prepare: true,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    backoff: reconnectDelay,
    connection: { application_name: options.name, ...sessionSettings(options.now, options.rateLimit, options.publicUrl) },
    onnotice: () => {},
  }) as unknown as Sql;
}

/** Where the service is reached, as it records it at start: what the CLI prints in URLs (koers demo). */
const ADDRESS_KEY = "dienst_adres";

export async function rememberServiceAddress(adminUrl: string, address: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into app_private.instellingen (sleutel, waarde) values (${ADDRESS_KEY}, ${address})
              on conflict (sleutel) do update set waarde = excluded.waarde`;
  } finally {
    await sql.end();
  }
}

/** The address the service last started on; else where HOST and PORT say it would listen. */
export async function serviceAddress(sql: postgres.Sql, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const [row] = await sql`select waarde from app_private.instellingen where sleutel = ${ADDRESS_KEY}`;
  if (row?.waarde) return row.waarde as string;
  const host = env.HOST && env.HOST !== "0.0.0.0" && env.HOST !== "::" ? env.HOST : "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${env.PORT || 3000}`;
}
