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
  bodyLimit: number;
}

function wholeNumber(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
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
    port: wholeNumber("PORT", 3000),
    embeddedPgPort: wholeNumber("KOERS_PG_PORT", 54329),
    now,
    worker: (env.KOERS_WORKER ?? "aan") !== "uit",
    workerConcurrency: wholeNumber("KOERS_WORKER_CONCURRENCY", 2),
    bodyLimit: wholeNumber("KOERS_BODY_LIMIT", 256 * 1024),
  };
}
