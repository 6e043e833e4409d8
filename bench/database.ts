// A database of its own for a benchmark: on BENCH_DATABASE_URL's server when it is set, else on
// a throwaway cluster from the machine's server binaries (as the test suite starts). drop()
// removes it (unless BENCH_KEEP is set) and stops the throwaway cluster.
import crypto from "node:crypto";
import postgres from "postgres";
import { startCluster, type Cluster } from "../test/cluster.ts";

export async function benchDatabase(log: (line: string) => void): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  let cluster: Cluster | null = null;
  let serverUrl: (db: string) => string;
  if (process.env.BENCH_DATABASE_URL) {
    const b = new URL(process.env.BENCH_DATABASE_URL);
    serverUrl = (db) => { const u = new URL(b); u.pathname = `/${db}`; return u.toString(); };
  } else {
    log("starting a throwaway PostgreSQL cluster (set BENCH_DATABASE_URL to use another server)");
    cluster = await startCluster();
    serverUrl = cluster.url;
  }
  const name = `koers_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  return {
    name,
    url: serverUrl(name),
    async drop() {
      if (process.env.BENCH_KEEP) log(`kept database ${name}`);
      else await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      await cluster?.stop();
    },
  };
}
