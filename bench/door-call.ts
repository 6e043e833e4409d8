// What one door call costs. Prints figures; not a timed test.
//   npm run bench                    (own throwaway cluster)
//   BENCH_DATABASE_URL=postgres://... npm run bench   (a server of your choice; a database is created)
// Measures, on the same connection pool and concurrency:
//   1. a plain query (the floor: one round trip, no work),
//   2. api.aanroep for `team` in SQL (key, three conditions, RLS, operation, call log),
//   3. the same over HTTP (GET /api/v1/team), with latency percentiles,
//   4. the PostgreSQL transactions per HTTP request (one statement = one transaction).
import crypto from "node:crypto";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { doorUrl, connect } from "../src/db/connection.ts";
import { buildRestDoor } from "../src/rest.ts";
import { createApiKey } from "../src/api-key.ts";
import { startCluster, type Cluster } from "../test/cluster.ts";
import type { AddressInfo } from "node:net";

const DURATION_MS = Number(process.env.BENCH_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function measure(label: string, work: () => Promise<unknown>): Promise<{ perSecond: number; lat: number[] }> {
  const lat: number[] = [];
  const end = Date.now() + DURATION_MS;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      const t = performance.now();
      await work();
      lat.push(performance.now() - t);
    }
  }));
  lat.sort((a, b) => a - b);
  const perSecond = lat.length / (DURATION_MS / 1000);
  const p = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))]!.toFixed(2);
  console.log(`${label.padEnd(34)} ${perSecond.toFixed(0).padStart(7)} /s   p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  p99 ${p(0.99)} ms`);
  return { perSecond, lat };
}

let cluster: Cluster | null = null;
let serverUrl: (db: string) => string;
if (process.env.BENCH_DATABASE_URL) {
  const b = new URL(process.env.BENCH_DATABASE_URL);
  serverUrl = (db) => { const u = new URL(b); u.pathname = `/${db}`; return u.toString(); };
} else {
  console.log("starting a throwaway PostgreSQL cluster (set BENCH_DATABASE_URL to use another server)");
  cluster = await startCluster();
  serverUrl = cluster.url;
}
const dbName = `koers_bench_${crypto.randomBytes(4).toString("hex")}`;
const serverAdmin = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
await serverAdmin.unsafe(`create database ${dbName}`);
const url = serverUrl(dbName);
try {
  await migrate(url);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const [{ r: org }] = await admin`select beheer.org_aanmaken('Bench BV') as r` as unknown as [{ r: { org_id: string } }];
  const [{ r: member }] = await admin`select beheer.lid_aanmaken(${org.org_id}, 'Bea', 'bea@bench.test', 'lid') as r` as unknown as [{ r: { user_id: string } }];
  for (let i = 0; i < 20; i++) await admin`select beheer.lid_aanmaken(${org.org_id}, ${"Lid " + i}, ${`lid${i}@bench.test`}, 'lid')`;
  const k = createApiKey();
  await admin`select beheer.sleutel_aanmaken(${org.org_id}, ${member.user_id}, ${k.hash}, ${k.hint})`;
  await admin`select beheer.koppeling_zetten(${org.org_id}, 'rest', true, false)`;
  await admin`select beheer.secties_zetten(${org.org_id}, array['team'], true)`;

  const doorSql = connect(await doorUrl(url), { now: null, name: "bench", max: CONCURRENCY });
  const params = { org_id: org.org_id };

  console.log(`\n${CONCURRENCY} concurrent callers, ${DURATION_MS / 1000} s each, PostgreSQL ${(await admin`show server_version`)[0]!.server_version}`);
  const floor = await measure("plain query (floor)", () => doorSql`select ${org.org_id}::uuid as id`);
  // What the issue compares against: the caller set by separate statements in a transaction.
  await measure("BEGIN; set_config; select; COMMIT", () => doorSql.begin(async (tx) => {
    await tx`select set_config('koers.org', ${org.org_id}, true)`;
    await tx`select current_setting('koers.org')::uuid as id`;
  }));
  const wieBenIkSql = await measure("api.aanroep wie_ben_ik, in SQL", () =>
    doorSql`select api.aanroep('rest', ${k.hash}, 'wie_ben_ik', '{}'::jsonb, null) as r`);
  const teamSql = await measure("api.aanroep team (21 members), SQL", () =>
    doorSql`select api.aanroep('rest', ${k.hash}, 'team', ${doorSql.json(params)}, null) as r`);
  // Backends report their statistics late (up to 10 s when idle) but always when they exit:
  // count the HTTP phase's transactions on a pool of its own, closed before the second count.
  await doorSql.end();
  const transactionCount = async () => {
    await new Promise((r) => setTimeout(r, 300));
    const [r] = await admin`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`;
    return Number(r!.n);
  };
  const httpDoorSql = connect(await doorUrl(url), { now: null, name: "bench-http", max: CONCURRENCY });
  await httpDoorSql`select 1`;
  const app = buildRestDoor(httpDoorSql, { bodyLimit: 256 * 1024 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const countBefore = await transactionCount();
  const http = await measure("GET /api/v1/team over HTTP", () =>
    fetch(`${baseUrl}/api/v1/team?org_id=${org.org_id}`, { headers: { authorization: `Bearer ${k.key}` } }).then((r) => r.text()));
  await app.close();
  await httpDoorSql.end();
  const countAfter = await transactionCount();

  console.log(`\napi.aanroep wie_ben_ik (key, three conditions, call-log row written and completed) runs at ` +
    `${(100 * wieBenIkSql.perSecond / floor.perSecond).toFixed(0)}% of a plain query; team at ` +
    `${(100 * teamSql.perSecond / floor.perSecond).toFixed(0)}%`);
  console.log(`PostgreSQL transactions per HTTP request: ${((countAfter - countBefore - 1) / http.lat.length).toFixed(3)} ` +
    `(${countAfter - countBefore - 1} for ${http.lat.length} requests, the count's own query excluded)`);
  const log = await admin`select count(*)::int as n from app_private.aanroepen`;
  console.log(`call-log rows written: ${log[0]!.n}`);
  await admin.end();
} finally {
  await serverAdmin.unsafe(`drop database if exists ${dbName} with (force)`);
  await serverAdmin.end();
  await cluster?.stop();
}
