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

export function vindBinMap(): string {
  const kandidaten: string[] = [];
  try {
    kandidaten.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch { /* no pg_config */ }
  if (fs.existsSync("/usr/lib/postgresql")) {
    for (const v of fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))) {
      kandidaten.push(`/usr/lib/postgresql/${v}/bin`);
    }
  }
  const map = kandidaten.find((k) => fs.existsSync(path.join(k, "postgres")) && fs.existsSync(path.join(k, "initdb")));
  if (!map) {
    throw new Error("No PostgreSQL server binaries found (initdb, postgres). Install them, e.g. " +
      "`apt-get install postgresql-15 postgresql-15-pgtap`, or set TEST_DATABASE_URL to a server.");
  }
  return map;
}

export async function vrijePoort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const poort = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(poort));
    }).on("error", reject);
  });
}

export async function startCluster(): Promise<Cluster> {
  const binDir = vindBinMap();
  const bin = { initdb: path.join(binDir, "initdb"), postgres: path.join(binDir, "postgres") };
  const map = fs.mkdtempSync(path.join(os.tmpdir(), "koers-test-"));
  fs.chmodSync(map, 0o755);
  const wachtwoord = crypto.randomBytes(18).toString("base64url");
  initCluster(bin, path.join(map, "data"), wachtwoord);
  const server = await startServer(bin, path.join(map, "data"),
    { port: await vrijePoort(), password: wachtwoord, logPath: path.join(map, "postgres.log"), fast: true });
  return {
    binDir,
    url: server.url,
    stop: async () => {
      await server.stop();
      fs.rmSync(map, { recursive: true, force: true });
    },
  };
}
