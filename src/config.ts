// All configuration comes from the environment; every setting has a working default.
import path from "node:path";

export interface Config {
  /** Administrative database URL (migrations, CLI, workers). Null: embedded PostgreSQL. */
  databaseUrl: string | null;
  /** URL the doors use; by default DATABASE_URL with the koers_door role. */
  doorDatabaseUrl: string | null;
  dataDir: string;
  host: string;
  port: number;
  embeddedPgPort: number;
  /** Frozen "now" (ISO time) for every figure: the test clock. */
  now: string | null;
  worker: boolean;
  workerConcurrency: number;
  /** Connections the doors keep to PostgreSQL (per instance). */
  doorConnections: number;
  bodyLimit: number;
  /**
   * Calls per window: per API key, and per client address for calls without a valid key
   * (null: no limit). Counted in the database, so the limit holds across instances.
   */
  rateLimit: RateLimit;
  /** Days the logs are kept before the worker trims them. */
  retention: { logDays: number; anonymousDays: number; auditDays: number };
  /** Koers's public address (an origin): issuer and resource of the AI connection's sign-in. Null: where it listens. */
  publicUrl: string | null;
  /** Browser origins allowed to call /mcp besides Koers's own. */
  allowedOrigins: string[];
}

/** An origin (scheme, host, port) without path, query or fragment, written as the URL parser writes it. */
function origin(name: string, v: string): string {
  let u: URL;
  try { u = new URL(v); } catch { throw new Error(`${name} must be an address such as https://koers.example.com, got "${v}"`); }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.pathname !== "/" || u.search || u.hash || u.username || u.password) {
    throw new Error(`${name} must be an origin such as https://koers.example.com (no path, query or user), got "${v}"`);
  }
  return u.origin;
}

export interface RateLimit { perKey: number | null; perAddress: number | null; windowSeconds: number }

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
}

function atLeastOne(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = wholeNumber(env, name, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const now = env.KOERS_NOW || null;
  if (now !== null && Number.isNaN(Date.parse(now))) {
    throw new Error(`KOERS_NOW must be an ISO time such as 2026-05-14T09:00:00+02:00, got "${now}"`);
  }
  return {
    databaseUrl: env.DATABASE_URL || null,
    doorDatabaseUrl: env.KOERS_DOOR_DATABASE_URL || null,
    dataDir: path.resolve(env.KOERS_DATA_DIR || "data"),
    host: env.HOST || "127.0.0.1",
    port: wholeNumber(env, "PORT", 3000),
    embeddedPgPort: wholeNumber(env, "KOERS_PG_PORT", 54329),
    now,
    worker: (env.KOERS_WORKER ?? "aan") !== "uit",
    workerConcurrency: wholeNumber(env, "KOERS_WORKER_CONCURRENCY", 2),
    doorConnections: atLeastOne(env, "KOERS_DB_CONNECTIONS", 10),
    bodyLimit: wholeNumber(env, "KOERS_BODY_LIMIT", 256 * 1024),
    rateLimit: {
      perKey: wholeNumber(env, "KOERS_RATE_LIMIT", 600) || null,
      perAddress: wholeNumber(env, "KOERS_RATE_LIMIT_ADDRESS", 120) || null,
      windowSeconds: Math.max(1, wholeNumber(env, "KOERS_RATE_WINDOW", 60)),
    },
    retention: {
      logDays: wholeNumber(env, "KOERS_RETENTION_LOG_DAYS", 400),
      anonymousDays: wholeNumber(env, "KOERS_RETENTION_ANONYMOUS_DAYS", 30),
      auditDays: wholeNumber(env, "KOERS_RETENTION_AUDIT_DAYS", 400),
    },
    publicUrl: env.KOERS_PUBLIC_URL ? origin("KOERS_PUBLIC_URL", env.KOERS_PUBLIC_URL) : null,
    allowedOrigins: (env.KOERS_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean)
      .map((o) => origin("KOERS_ALLOWED_ORIGINS", o)),
  };
}
