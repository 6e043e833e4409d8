// A throwaway PostgreSQL cluster for the test suite, from the machine's PostgreSQL server
// binaries (Debian: postgresql-15), in a temporary folder on a free port.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { initCluster, startServer, type Server } from "../src/db/cluster.ts";

export interface Cluster extends Server { binDir: string }

export function findBinDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch { /* no pg_config */ }
  if (fs.existsSync("/usr/lib/postgresql")) {
    for (const v of fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))) {
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
    }
  }
  const dir = candidates.find((c) => fs.existsSync(path.join(c, "postgres")) && fs.existsSync(path.join(c, "initdb")));
  if (!dir) {
    throw new Error("No PostgreSQL server binaries found (initdb, postgres). Install them, e.g. " +
      "`apt-get install postgresql-15 postgresql-15-pgtap`, or set TEST_DATABASE_URL to a server.");
  }
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    }).on("error", reject);
  });
}

export async function startCluster(): Promise<Cluster> {
  const binDir = findBinDir();
  const bin = { initdb: path.join(binDir, "initdb"), postgres: path.join(binDir, "postgres") };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-test-"));
  fs.chmodSync(dir, 0o755);
  const password = crypto.randomBytes(18).toString("base64url");
  initCluster(bin, path.join(dir, "data"), password);
  const server = await startServer(bin, path.join(dir, "data"),
    { port: await freePort(), password, logPath: path.join(dir, "postgres.log"), fast: true });
  return {
    binDir,
    url: server.url,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
