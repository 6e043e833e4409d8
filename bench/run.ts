// `npm run bench`: what a door call costs, side by side with a bare route, on a generated data
// set; every figure printed next to its target. See bench/README.md.
//
//   npm run bench                                   persistent cluster in bench/.data (BENCH_DATA_DIR)
//   BENCH_DATABASE_URL=postgres://... npm run bench  a server of your choice (database koers_bench)
//   BENCH_DATABASE=koers_x ...                      another database on that server (a clone, say)
//   BENCH_ROUNDS=7 BENCH_ROUND_MS=3000 BENCH_SOAK_MS=60000 npm run bench
//   BENCH_ONLY=door,cpu,rls,write,def,warehouse,soak npm run bench  some parts only
//   BENCH_READS=wie_ben_ik,team npm run bench       some door/bare pairs only (parts door and cpu)
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { createApiKey } from "../src/api-key.ts";
import { initCluster, startServer, type Server } from "../src/db/cluster.ts";
import { findBinDir, freePort } from "../test/cluster.ts";
import { cpuUs, parentPid, postgresCpuUs } from "./cpu.ts";
import { serviceNodeArgs } from "../test/processes.ts";
import { ensureDataset, BIG_ORG, ORGS, PEOPLE, BIG_TASKS } from "./dataset.ts";
import { run, percentile, Connection, type RunResult } from "./load.ts";

const root = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3000);
const SOAK_MS = Number(process.env.BENCH_SOAK_MS ?? 60_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const PACED_ROUNDS = Math.min(3, ROUNDS);  // rounds of the bare route paced to the door's rate (part 1)
const SOAK_CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 50);
const POOL = Number(process.env.BENCH_POOL ?? 10);  // connections of the service's doors and of the bare route alike (the service's default)
const ONLY = new Set((process.env.BENCH_ONLY ?? "door,cpu,rls,write,def,warehouse,soak").split(","));
const DATABASE = process.env.BENCH_DATABASE ?? "koers_bench";
const READS = process.env.BENCH_READS ? new Set(process.env.BENCH_READS.split(",")) : null;
const chosen = (name: string) => !READS || READS.has(name.split(" ")[0]!) || READS.has(name);

const log = (line: string) => console.log(line);
const loadAverage = () => os.loadavg()[0]!.toFixed(2);
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figure { name: string; value: string; target: string; ok: boolean; note?: string }
const figures: Figure[] = [];
function figure(f: Figure) {
  figures.push(f);
  log(`  ${f.ok ? "ok  " : "MISS"} ${f.name.padEnd(58)} ${f.value.padStart(14)}   target ${f.target}${f.note ? `   (${f.note})` : ""}`);
}

// The database server --------------------------------------------------------------------
async function server(): Promise<{ url: (db: string) => string; stop(): Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL) {
    const base = new URL(process.env.BENCH_DATABASE_URL);
    return { url: (db) => { const u = new URL(base); u.pathname = `/${db}`; return u.toString(); }, stop: async () => {} };
  }
  const dir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(root, "bench/.data"));
  const binDir = findBinDir();
  const bin = { initdb: path.join(binDir, "initdb"), postgres: path.join(binDir, "postgres") };
  const passwordFile = path.join(dir, "password");
  if (!fs.existsSync(path.join(dir, "data/PG_VERSION"))) {
    log(`creating a PostgreSQL cluster in ${dir} (kept for the next run)`);
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(passwordFile, crypto.randomBytes(18).toString("base64url"), { mode: 0o600 });
    initCluster(bin, path.join(dir, "data"), fs.readFileSync(passwordFile, "utf8"));
  }
  const s: Server = await startServer(bin, path.join(dir, "data"),
    { port: await freePort(), password: fs.readFileSync(passwordFile, "utf8"), logPath: path.join(dir, "postgres.log") });
  return s;
}

// Processes ----------------------------------------------------------------------------------
// Both run with the node arguments of `npm start` (its V8 flags and tsx), the bare route with its
// own script in place of src/main.ts.
async function spawnService(label: string, script: string, env: NodeJS.ProcessEnv, readyLine: RegExp): Promise<{ proc: ChildProcess; address: string }> {
  // BENCH_PROFILE=<dir>: V8 CPU profiles of both processes, written there when they stop.
  const profile = process.env.BENCH_PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`, `--cpu-prof-name=${label}.cpuprofile`] : [];
  const proc = spawn(process.execPath, [...profile, ...serviceNodeArgs.map((a) => a === "src/main.ts" ? script : a)],
                     { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const address = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = readyLine.exec(output);
      if (m) resolve(m[1]!);
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", (d) => { output += d; });
    proc.once("exit", (code) => reject(new Error(`${label} exited (${code}): ${output.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`${label} did not start: ${output.slice(-2000)}`)), 120_000);
  });
  proc.stdout!.resume();
  proc.stderr!.on("data", (d) => process.stderr.write(`${label}: ${d}`));
  return { proc, address };
}

async function stopProcess(proc: ChildProcess) {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (proc.exitCode === null) proc.kill("SIGKILL");
}

/** The resident memory of a process in MB (Linux). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

// Comparing answers --------------------------------------------------------------------------
/** Equal JSON, numbers within 0.2 (the elapsed share moves while the two are asked). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 0.2;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as never)[k], (b as never)[k]));
  }
  return a === b;
}

function quarterLabel(d: string) { const [y, m] = d.split("-").map(Number); return `Q${Math.floor((m! - 1) / 3) + 1}-${y}`; }

// Main -------------------------------------------------------------------------------------------
const srv = await server();
const processes: ChildProcess[] = [];
let rssMax = 0;
let rssPart = 0; // the service's RSS max since the last takeRssPart()
const takeRssPart = () => { const x = rssPart; rssPart = 0; return x.toFixed(0); };
let rssTimer: NodeJS.Timeout | undefined;
try {
  const admin0 = postgres(srv.url("postgres"), { max: 1, onnotice: () => {} });
  const [exists] = await admin0`select 1 from pg_database where datname = ${DATABASE}`;
  if (!exists) await admin0.unsafe(`create database "${DATABASE}"`);
  const [{ version }] = await admin0`select current_setting('server_version') as version` as unknown as [{ version: string }];
  // Figures only count on a server configured as production is: every commit durable.
  const durability = await admin0`select name, setting from pg_settings
    where name in ('fsync', 'full_page_writes', 'synchronous_commit') order by name` as unknown as { name: string; setting: string }[];
  const asProduction = durability.length === 3 && durability.every((d) => d.setting === "on");
  await admin0.end();
  const adminUrl = srv.url(DATABASE);
  log(`migrating ${DATABASE}`);
  await migrate(adminUrl);
  const sql = postgres(adminUrl, { max: 2, onnotice: () => {} });
  log(`data set: ${ORGS} organisations of ${PEOPLE} people; ${BIG_ORG} with ${BIG_TASKS} tasks (generated once, then reused)`);
  const ds = await ensureDataset(sql, log);
  const k = createApiKey();
  const [{ r: key }] = await sql`select beheer.sleutel_aanmaken(${ds.org}, ${ds.members[0]!}, ${k.hash}, ${k.hint}) as r` as unknown as [{ r: { key_id: string } }];
  const auth = { authorization: `Bearer ${k.key}` };
  const kwartaal = quarterLabel(ds.quarter), vorigKwartaal = quarterLabel(ds.previousQuarter);

  const port = await freePort();
  const service = await spawnService("service", "src/main.ts", {
    DATABASE_URL: adminUrl, PORT: String(port), HOST: "127.0.0.1", KOERS_WORKER: "aan",
    KOERS_RATE_LIMIT: "100000000", KOERS_RATE_LIMIT_ADDRESS: "100000000", KOERS_NOW: "", KOERS_DB_CONNECTIONS: String(POOL),
  }, /serving on (http:\/\/\S+?)[ ,(]/);
  processes.push(service.proc);
  const bare = await spawnService("bare", "bench/bare.ts", { BARE_DATABASE_URL: adminUrl, BARE_PORT: "0", BARE_POOL: String(POOL) }, /serving on (http:\/\/\S+)/);
  processes.push(bare.proc);
  rssTimer = setInterval(() => {
    const now = rssMb(service.proc.pid!) || 0;
    rssMax = Math.max(rssMax, now);
    rssPart = Math.max(rssPart, now);
  }, 250);
  const [{ pid: backend }] = await sql`select pg_backend_pid() as pid` as unknown as [{ pid: number }];
  const postmaster = parentPid(backend);
  /** CPU per request of each process of a round: the service (or bare route), the client, PostgreSQL. */
  const measured = async (serverPid: number, work: () => Promise<RunResult>) => {
    const s0 = cpuUs(serverPid), c0 = process.cpuUsage(), p0 = postgresCpuUs(postmaster);
    const r = await work();
    const c1 = process.cpuUsage(c0);
    return { ...r, cpu: { node: (cpuUs(serverPid) - s0) / r.count, client: (c1.user + c1.system) / r.count, pg: (postgresCpuUs(postmaster) - p0) / r.count } };
  };
  const servicePort = Number(new URL(service.address).port);
  const barePort = Number(new URL(bare.address).port);
  log(`PostgreSQL ${version}; service ${service.address} (pid ${service.proc.pid}), bare route ${bare.address}; ` +
      `${os.cpus().length} cores, load average ${loadAverage()}`);
  log(`server ${asProduction ? "configured as production" : "NOT configured as production (figures do not count)"}: ` +
      durability.map((d) => `${d.name} ${d.setting}`).join(", "));

  const q = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([a, b]) => [a, String(b)])).toString();
  // Each door/bare pair with its target (issue 16), the share of the bare route's requests per second.
  const reads = [
    { name: "wie_ben_ik", target: 0.6, door: `/api/v1/wie-ben-ik`, bare: `/wie-ben-ik?${q({ org_id: ds.org, user_id: ds.members[0]!, key_id: key.key_id })}` },
    { name: "team", target: 0.8, door: `/api/v1/team?${q({ org_id: ds.org })}`, bare: `/team?${q({ org_id: ds.org })}` },
    { name: "taken (nummer)", target: 0.75, door: `/api/v1/taken?${q({ org_id: ds.org, nummer: ds.taskNumber })}`, bare: `/taken?${q({ org_id: ds.org, nummer: ds.taskNumber })}` },
    { name: "taken (list of 200)", target: 0.75, door: `/api/v1/taken?${q({ org_id: ds.org })}`, bare: `/taken?${q({ org_id: ds.org })}` },
    { name: "prioriteiten", target: 0.9, door: `/api/v1/prioriteiten?${q({ org_id: ds.org, kwartaal })}`, bare: `/prioriteiten?${q({ org_id: ds.org, kwartaal: ds.quarter })}` },
    { name: "kpi_scorebord", target: 0.8, door: `/api/v1/kpi-scorebord?${q({ org_id: ds.org, kwartaal: vorigKwartaal })}`,
      bare: `/kpi-scorebord?${q({ org_id: ds.org, kwartaal: ds.previousQuarter })}` },
  ];

  // The bare route must answer what the door answers.
  const probe = new Connection("127.0.0.1", servicePort), probeBare = new Connection("127.0.0.1", barePort);
  const owned = { door: `/api/v1/taken?${q({ org_id: ds.org, eigenaar_user_id: ds.owner })}`, bare: `/taken?${q({ org_id: ds.org, eigenaar_user_id: ds.owner })}` };
  for (const r of [...reads, { name: "taken (one owner)", ...owned }]) {
    const a = await probe.request("GET", r.door, auth), b = await probeBare.request("GET", r.bare);
    if (a.status !== 200 || b.status !== 200 || !same(JSON.parse(a.body), JSON.parse(b.body))) {
      throw new Error(`the bare route does not answer what the door answers for ${r.name}:\n door ${a.status} ${a.body.slice(0, 600)}\n bare ${b.status} ${b.body.slice(0, 600)}`);
    }
    log(`  ${r.name}: door and bare route give the same answer (${a.body.length} bytes)`);
  }
  probe.close(); probeBare.close();

  // 1. Door against bare route, interleaved rounds --------------------------------------------
  const readResults = new Map<string, { door: RunResult[]; bare: RunResult[] }>();
  /** Per pair: the most the door's PostgreSQL may spend per request at the pair's target (part 1). */
  const budgets = new Map<string, number>();
  if (ONLY.has("door")) {
    log(`\n1. Door against bare route: ${CLIENTS} clients, ${POOL} connections each, ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s each (load average ${loadAverage()})`);
    for (const r of reads.filter((x) => chosen(x.name))) {
      type Measured = RunResult & { cpu: { node: number; client: number; pg: number } };
      const res = { door: [] as Measured[], bare: [] as Measured[] };
      // Warm both up, then alternate which goes first.
      await run("127.0.0.1", servicePort, CLIENTS, 500, () => ({ method: "GET", path: r.door, headers: auth }));
      await run("127.0.0.1", barePort, CLIENTS, 500, () => ({ method: "GET", path: r.bare }));
      for (let i = 0; i < ROUNDS; i++) {
        const doorFirst = i % 2 === 0;
        for (const side of doorFirst ? ["door", "bare"] as const : ["bare", "door"] as const) {
          const x = side === "door"
            ? await measured(service.proc.pid!, () => run("127.0.0.1", servicePort, CLIENTS, ROUND_MS, () => ({ method: "GET", path: r.door, headers: auth })))
            : await measured(bare.proc.pid!, () => run("127.0.0.1", barePort, CLIENTS, ROUND_MS, () => ({ method: "GET", path: r.bare })));
          if (x.errors) throw new Error(`${side} ${r.name}: ${x.errors} errors, first: ${x.firstError}`);
          res[side].push(x);
        }
      }
      readResults.set(r.name, res);
      const d = median(res.door.map((x) => x.perSecond)), b = median(res.bare.map((x) => x.perSecond));
      const p50 = median(res.door.map((x) => percentile(x.latencies, 0.5)));
      // The median CPU per request of one process (or PostgreSQL's, all its processes) over the rounds.
      const part = (xs: Measured[], k: "node" | "pg" | "client") => median(xs.map((x) => x.cpu[k]));
      const cpu = (xs: Measured[]) => `node ${part(xs, "node").toFixed(0)} + PostgreSQL ${part(xs, "pg").toFixed(0)}` +
        ` + client ${part(xs, "client").toFixed(0)} us`;
      figure({ name: `door/bare ${r.name}`, value: `${(100 * d / b).toFixed(0)}%`, target: `>= ${r.target * 100}%`, ok: d / b >= r.target,
               note: `door ${d.toFixed(0)}/s p50 ${p50.toFixed(2)} ms, bare ${b.toFixed(0)}/s, load ${loadAverage()}` });
      log(`       CPU per request: door ${cpu(res.door)}; bare ${cpu(res.bare)}; service RSS max ${takeRssPart()} MB`);
      // A process's CPU per request falls as its rate rises (fewer wake-ups and system calls per
      // request), so the door's Node process, at its lower rate, is not compared with the bare
      // route's at the bare route's rate: the bare route is measured again, paced to about the
      // door's rate (each query also waits in pg_sleep), and the door's own Node work is what its
      // process spends beyond that.
      const bareNode = part(res.bare, "node"), doorNode = part(res.door, "node");
      let pacedNode = bareNode, comparable = d >= b;  // the Node processes at about the same rate
      if (d < b && POOL < CLIENTS) {
        log(`       (no paced bare route: it waits in pg_sleep on a connection per client, and BENCH_POOL ${POOL} is below ${CLIENTS} clients)`);
      } else if (d < b) {
        const pauseMs = CLIENTS * 1000 / d - CLIENTS * 1000 / b;
        const pacedPath = `${r.bare}${r.bare.includes("?") ? "&" : "?"}pause_ms=${pauseMs.toFixed(3)}`;
        const paced: Measured[] = [];
        for (let i = 0; i < PACED_ROUNDS; i++) {
          const x = await measured(bare.proc.pid!, () => run("127.0.0.1", barePort, CLIENTS, ROUND_MS, () => ({ method: "GET", path: pacedPath })));
          if (x.errors) throw new Error(`paced bare ${r.name}: ${x.errors} errors, first: ${x.firstError}`);
          paced.push(x);
        }
        pacedNode = part(paced, "node");
        comparable = true;
        log(`       bare route paced to the door's rate (pg_sleep ${pauseMs.toFixed(2)} ms per query): ` +
            `${median(paced.map((x) => x.perSecond)).toFixed(0)}/s, node ${pacedNode.toFixed(0)} us per request (door ${doorNode.toFixed(0)})`);
      }
      // With every core busy, requests per second go as one over the CPU a request costs all
      // processes together, so the ratio is about bare CPU / door CPU. That gives the most the
      // door's PostgreSQL may spend at the target, counting its Node process generously: as the
      // bare route's at the bare route's rate, plus the door's own work measured above. Unless
      // the door's query can be made cheaper than the bare one (as prioriteiten's is), a target
      // above the ratio with the door's PostgreSQL at the bare query's cost cannot be met.
      const bareTotal = bareNode + part(res.bare, "pg") + part(res.bare, "client");
      const own = Math.max(0, doorNode - pacedNode);
      const outside = bareNode + own + part(res.bare, "client");
      const budget = bareTotal / r.target - outside;
      budgets.set(r.name, budget);
      log(`       at the target the door's PostgreSQL may spend at most ${Math.max(0, budget).toFixed(0)} us per request ` +
          `(it spends ${part(res.door, "pg").toFixed(0)}, the bare query ${part(res.bare, "pg").toFixed(0)}), with its Node ` +
          `process as the bare route's plus its own ${own.toFixed(0)} us${comparable ? "" : " (at unequal rates, so less generous)"}; ` +
          `with its PostgreSQL at the bare query's cost the door ` +
          `would reach ${(100 * bareTotal / (outside + part(res.bare, "pg"))).toFixed(0)}%`);
    }
  }

  // 1b. The database's side alone: CPU time of one backend per statement ------------------------
  if (ONLY.has("cpu")) {
    log(`\n1b. PostgreSQL CPU per statement on one connection (no HTTP, no concurrency; robust on a busy machine): ` +
        `api.aanroep as the door role against the bare query as the superuser (load average ${loadAverage()})`);
    const { doorUrl } = await import("../src/db/connection.ts");
    const { parseApiKey } = await import("../src/api-key.ts");
    const q = await import("./bare-queries.ts");
    const hash = parseApiKey(k.key)!;
    // With the rate limit counted, as the service's connections do (src/db/connection.ts).
    const doorSql = postgres(await doorUrl(adminUrl), { max: 1, onnotice: () => {},
      connection: { "koers.limiet": "100000000", "koers.limiet_adres": "100000000", "koers.limiet_venster": "60" } });
    const bareSql = postgres(adminUrl, { max: 1, onnotice: () => {} });
    const pidOf = async (c: postgres.Sql) => Number((await c`select pg_backend_pid() as p`)[0]!.p);
    const [doorPid, barePid] = [await pidOf(doorSql), await pidOf(bareSql)];
    const cases: { name: string; door: () => Promise<unknown>; bare: () => Promise<unknown> }[] = [
      { name: "wie_ben_ik", door: () => doorSql`select api.aanroep('rest', ${hash}, 'wie_ben_ik', ${doorSql.json({})}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.wieBenIk, [ds.org, ds.members[0]!, key.key_id], { prepare: true }) },
      { name: "team", door: () => doorSql`select api.aanroep('rest', ${hash}, 'team', ${doorSql.json({ org_id: ds.org })}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.team, [ds.org], { prepare: true }) },
      { name: "taken (nummer)", door: () => doorSql`select api.aanroep('rest', ${hash}, 'taken', ${doorSql.json({ org_id: ds.org, nummer: ds.taskNumber })}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.takenNummer, [ds.org, ds.taskNumber], { prepare: true }) },
      { name: "taken (list of 200)", door: () => doorSql`select api.aanroep('rest', ${hash}, 'taken', ${doorSql.json({ org_id: ds.org })}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.takenLijst, [ds.org], { prepare: true }) },
      { name: "prioriteiten", door: () => doorSql`select api.aanroep('rest', ${hash}, 'prioriteiten', ${doorSql.json({ org_id: ds.org, kwartaal })}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.prioriteiten, [ds.org, ds.quarter], { prepare: true }) },
      { name: "kpi_scorebord", door: () => doorSql`select api.aanroep('rest', ${hash}, 'kpi_scorebord', ${doorSql.json({ org_id: ds.org, kwartaal: vorigKwartaal })}, null, 'cpu', '127.0.0.1')`,
        bare: () => bareSql.unsafe(q.kpiScorebord, [ds.org, ds.previousQuarter], { prepare: true }) },
    ];
    // Until the backend has spent `ms` of CPU (the kernel counts in ticks of 10 ms, so a round
    // measured by the clock alone may see none on a busy machine), or ten times that in time.
    const perCall = async (pid: number, work: () => Promise<unknown>, ms: number) => {
      const c0 = cpuUs(pid), end = performance.now() + 10 * ms;
      let n = 0;
      while (cpuUs(pid) - c0 < ms * 1000 && performance.now() < end) { await work(); n++; }
      return (cpuUs(pid) - c0) / n;
    };
    const cpuOf = new Map<string, { door: number; bare: number }>();
    // 1c. The floor: the least a call can cost while its rules hold. The statements every admitted
    // call must run (the credential, the rate-limit count, the caller row the policies trust, the
    // call-log row) and the bare query, in one PL/pgSQL function on the same tables as the door,
    // with no checks, no refusals, no RLS and no error handling; its reads' commit not waited for,
    // as the door's reads. What the door costs beyond the floor is the machinery's own.
    // Measured in the rounds of wie_ben_ik, interleaved with its door and bare calls.
    let floorRun: { pid: number; run: () => Promise<unknown>; end: () => Promise<void> } | null = null;
    if (chosen("wie_ben_ik")) {
      const query = q.wieBenIk.replace("$1::uuid", "k.org_id").replace("$2::uuid", "k.user_id").replace("$3::uuid", "k.sleutel_id")
        .replace("::text as body", "::text into antwoord");
      await sql.unsafe(`
        create or replace function bench.vloer(_sleutel bytea) returns text language plpgsql volatile as $$
        declare
          k record;
          geteld integer;
          id uuid := gen_random_uuid();
          einde bigint := (floor(extract(epoch from now()) / 60)::bigint + 1) * 60;
          antwoord text;
        begin
          select c.org_id, c.user_id, c.rol, c.sleutel_id into k from app_hidden.beller_rest(_sleutel, null) c;
          with mijn as (
            insert into app_private.tempo as t (wie, pid, tot, aantal) values ('vloer:' || k.sleutel_id, pg_backend_pid(), einde, 1)
            on conflict (wie, tot, pid) do update set aantal = t.aantal + 1
            returning t.wie, t.aantal)
          select m.aantal + coalesce((select sum(x.aantal) from app_private.tempo x
                                      where x.wie = m.wie and x.tot = einde and x.pid <> pg_backend_pid()), 0) into geteld from mijn m;
          insert into app_hidden.bellers as b (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, org, user_id, rol, sleutel_id,
                                               door, operatie, secties, parameters, status, verzoek_id)
          values (pg_backend_pid(), app_hidden.beller_vak(), pg_current_xact_id(), now(), k.org_id || '/' || id, true, id, k.org_id,
                  k.user_id, k.rol, k.sleutel_id, 'rest', 'wie_ben_ik', '{}', '{}', 200, 'vloer')
          on conflict (pid, vak) do update set xid = excluded.xid, sinds = excluded.sinds, wijzer = excluded.wijzer,
            toegelaten = excluded.toegelaten, aanroep_id = excluded.aanroep_id, org = excluded.org, user_id = excluded.user_id,
            rol = excluded.rol, sleutel_id = excluded.sleutel_id, door = excluded.door, operatie = excluded.operatie,
            secties = excluded.secties, parameters = excluded.parameters, status = excluded.status, verzoek_id = excluded.verzoek_id;
          ${query};
          insert into app_private.aanroepen (org_id, id, xid, tijdstip, door, operatie, user_id, rol, sleutel_id, parameters, status,
                                             duur_ms, verzoek_id)
          values (k.org_id, id, pg_current_xact_id(), now(), 'rest', 'wie_ben_ik', k.user_id, k.rol, k.sleutel_id, '{}', 200,
                  0, 'vloer');
          return antwoord;
        end $$`);
      const floorSql = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { synchronous_commit: "off" } });
      const floorPid = await pidOf(floorSql);
      const same = (await floorSql`select bench.vloer(${hash}) as a`)[0]!.a as string;
      const bare = (await bareSql.unsafe(q.wieBenIk, [ds.org, ds.members[0]!, key.key_id], { prepare: true }))[0]!.body as string;
      if (same !== bare) throw new Error(`the floor's answer differs from the bare route's: ${same} / ${bare}`);
      floorRun = { pid: floorPid, run: () => floorSql`select bench.vloer(${hash})`, end: () => floorSql.end() };
    }
    let floor: number | null = null;
    for (const c of cases.filter((x) => chosen(x.name))) {
      const withFloor = c.name === "wie_ben_ik" ? floorRun : null;
      await perCall(doorPid, c.door, 100); await perCall(barePid, c.bare, 100);
      if (withFloor) await perCall(withFloor.pid, withFloor.run, 100);
      const d: number[] = [], b: number[] = [], f: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        d.push(await perCall(doorPid, c.door, 300)); b.push(await perCall(barePid, c.bare, 300));
        if (withFloor) f.push(await perCall(withFloor.pid, withFloor.run, 300));
      }
      cpuOf.set(c.name, { door: median(d), bare: median(b) });
      log(`       ${c.name.padEnd(20)} door ${median(d).toFixed(0).padStart(6)} us   bare ${median(b).toFixed(0).padStart(6)} us   ` +
          `bare/door ${(100 * median(b) / median(d)).toFixed(0)}%`);
      if (withFloor) {
        floor = median(f);
        log(`       ${"floor (1c)".padEnd(20)} ${floor.toFixed(0).padStart(11)} us   the credential, the count, the caller row, the ` +
            `log row and the bare query in one PL/pgSQL function (no checks): the least a call costs under its rules`);
        const budget = budgets.get("wie_ben_ik");
        if (budget !== undefined) {
          log(`       ${"".padEnd(20)} ${"".padStart(11)}    at its target (part 1) the door's PostgreSQL may spend at most ` +
              `${Math.max(0, budget).toFixed(0)} us per wie_ben_ik request, under load; the floor costs ${floor.toFixed(0)} us on one connection`);
        }
      }
    }
    await floorRun?.end();
    // What every call pays beyond its query: wie_ben_ik's query is one look-up of the caller.
    const w = cpuOf.get("wie_ben_ik"), pr = cpuOf.get("prioriteiten");
    if (w) figure({ name: "fixed PostgreSQL CPU of a call (door - bare wie_ben_ik)", value: `${(w.door - w.bare).toFixed(0)} us`,
             target: "<= 100 us", ok: w.door - w.bare <= 100,
             note: `door ${w.door.toFixed(0)} us, bare ${w.bare.toFixed(0)} us` +
                   (floor !== null ? `; floor (1c) ${floor.toFixed(0)} us: its four statements alone cost ${(floor - w.bare).toFixed(0)} us, before any check` : "") });
    if (pr) figure({ name: "PostgreSQL CPU of a prioriteiten answer (40 priorities)", value: `${(pr.door / 1000).toFixed(2)} ms`,
             target: "<= 5 ms", ok: pr.door <= 5000, note: `bare ${(pr.bare / 1000).toFixed(2)} ms` });
    await doorSql.end(); await bareSql.end();
  }

  // 2. RLS lists against the same query without RLS, in SQL -----------------------------------
  if (ONLY.has("rls")) {
    log(`\n2. RLS lists: the operation as koers_door (RLS) against the same function as the superuser (no RLS), ` +
        `${ROUNDS} interleaved rounds (load average ${loadAverage()})`);
    await sql.unsafe(`
      create or replace function bench.tijd(_op text, _p jsonb, _n int, _rls boolean, _org uuid, _user uuid) returns numeric
      language plpgsql as $$
      declare
        t0 timestamptz;
        r jsonb;
        p jsonb := (select c.invoer from app_hidden.invoer_controleren(_op, _p) c);
      begin
        perform app_hidden.handelen_namens(_org, _user, 'rest', _op, '{}');
        if _rls then set local role koers_door; end if;
        t0 := clock_timestamp();
        for i in 1.._n loop
          case _op
            when 'prioriteiten' then r := api.prioriteiten(p);
            when 'kpi_scorebord' then r := api.kpi_scorebord(p);
            when 'taken' then r := api.taken(p);
          end case;
        end loop;
        reset role;
        return extract(epoch from clock_timestamp() - t0) * 1000000 / _n;
      end $$`);
    const lists = [
      { name: "prioriteiten", op: "prioriteiten", p: { org_id: ds.org, kwartaal } },
      { name: "kpi_scorebord", op: "kpi_scorebord", p: { org_id: ds.org, kwartaal: vorigKwartaal } },
      { name: "taken (one owner)", op: "taken", p: { org_id: ds.org, eigenaar_user_id: ds.owner } },
    ];
    for (const l of lists) {
      let n = 1;
      const time = async (rls: boolean) => Number((await sql.begin(async (tx) =>
        tx`select bench.tijd(${l.op}, ${tx.json(l.p)}, ${n}, ${rls}, ${ds.org}, ${ds.members[0]!}) as us`))[0]!.us);
      // Rounds of about half a second each.
      n = Math.max(3, Math.ceil(500_000 / Math.min(await time(true), await time(false))));
      const withRls: number[] = [], without: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        if (i % 2) { without.push(await time(false)); withRls.push(await time(true)); }
        else { withRls.push(await time(true)); without.push(await time(false)); }
      }
      const a = median(withRls), b = median(without);
      figure({ name: `RLS list ${l.name}: no-RLS time / RLS time`, value: `${(100 * b / a).toFixed(0)}%`, target: ">= 90%", ok: b / a >= 0.9,
               note: `RLS ${(a / 1000).toFixed(2)} ms, no RLS ${(b / 1000).toFixed(2)} ms per call` });
    }
  }

  // 3. A two-step write against a single read -------------------------------------------------
  if (ONLY.has("write")) {
    log(`\n3. Two-step write (taak_bijwerken: proposal plus confirmation) against a single read (taken with nummer), ` +
        `${CLIENTS} clients (load average ${loadAverage()})`);
    const tasks = (await sql`select id from app.taken where org_id = ${ds.org} and stand = 'open' order by nummer limit ${CLIENTS}`).map((r) => r.id as string);
    const writePairs: number[][] = [], readP50: number[] = [];
    const readPath = reads[2]!.door;
    for (let i = 0; i < ROUNDS; i++) {
      const pairs: number[] = [];
      const conns = tasks.map(() => new Connection("127.0.0.1", servicePort));
      const end = performance.now() + ROUND_MS;
      let errors = 0, firstError = "";
      await Promise.all(conns.map(async (c, n) => {
        for (let j = 0; performance.now() < end; j++) {
          const body = { org_id: ds.org, taak_id: tasks[n]!, omschrijving: `Bench ${i}.${j} ${crypto.randomUUID().slice(0, 8)}` };
          const t = performance.now();
          const a = await c.request("POST", "/api/v1/taak-bijwerken", auth, JSON.stringify(body));
          const code = a.status === 200 ? JSON.parse(a.body).bevestigcode : null;
          const b = code ? await c.request("POST", "/api/v1/taak-bijwerken", auth, JSON.stringify({ ...body, bevestigcode: code })) : a;
          if (b.status !== 200) { errors++; firstError ||= `${b.status} ${b.body.slice(0, 200)}`; }
          pairs.push(performance.now() - t);
        }
      }));
      for (const c of conns) c.close();
      if (errors) throw new Error(`two-step writes: ${errors} errors, first: ${firstError}`);
      pairs.sort((a, b) => a - b);
      writePairs.push(pairs);
      const r = await run("127.0.0.1", servicePort, CLIENTS, ROUND_MS, () => ({ method: "GET", path: readPath, headers: auth }));
      readP50.push(percentile(r.latencies, 0.5));
    }
    const w = median(writePairs.map((p) => percentile(p, 0.5))), r = median(readP50);
    figure({ name: "two-step write p50 / single read p50", value: `${(w / r).toFixed(2)}x`, target: "<= 3x", ok: w / r <= 3,
             note: `write ${w.toFixed(2)} ms, read ${r.toFixed(2)} ms, load ${loadAverage()}, service RSS max ${takeRssPart()} MB` });
  }

  // 3b. Every task of the big organisation through the task definition -----------------------
  // The task definition (issue 16) is found by name: a view or a function without required
  // arguments named app_hidden.def_taken. Read as the door role in a call of the organisation's
  // owner (RLS, every figure), against a plain select of the columns it shares with app.taken
  // as the superuser. Each row is turned into text, so every column is computed.
  if (ONLY.has("def")) {
    log(`\n3b. All ${BIG_TASKS} tasks of ${BIG_ORG} through the task definition (as koers_door, RLS) against a plain select ` +
        `of the same columns from app.taken (superuser), ${ROUNDS} interleaved rounds (load average ${loadAverage()})`);
    const [found] = await sql`
      select format('%I.%I', n.nspname, c.relname) as source from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app_hidden' and c.relname = 'def_taken' and c.relkind in ('v', 'm', 'r')
      union all
      select format('%I.%I()', n.nspname, p.proname) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'app_hidden' and p.proname = 'def_taken' and p.pronargs = p.pronargdefaults and p.proretset
      limit 1` as unknown as [{ source: string } | undefined];
    if (!found) {
      figure({ name: "all tasks through def_taken / plain select", value: "not built yet", target: "<= 2x", ok: false,
               note: "no view app_hidden.def_taken, nor such a function without required arguments" });
    } else {
      const defColumns = (await sql.unsafe(`select * from ${found.source} limit 0`)).columns.map((c) => c.name);
      const tableColumns = new Set((await sql`select attname from pg_attribute where attrelid = 'app.taken'::regclass
        and attnum > 0 and not attisdropped`).map((r) => r.attname as string));
      const shared = defColumns.filter((c) => tableColumns.has(c));
      await sql.unsafe(`
        create or replace function bench.alle_taken(_bron text, _kolommen text, _rls boolean, _org uuid, _user uuid,
                                                    out ms numeric, out rijen bigint)
        language plpgsql as $$
        declare t0 timestamptz; lengte bigint;
        begin
          if _rls then
            perform app_hidden.handelen_namens(_org, _user, 'rest', 'taken', '{}');
            set local role koers_door;
          end if;
          t0 := clock_timestamp();
          execute format('select count(*), sum(length(x::text)) from (select %s from %s where org_id = $1) x', _kolommen, _bron)
            using _org into rijen, lengte;
          ms := extract(epoch from clock_timestamp() - t0) * 1000;
          reset role;
        end $$`);
      const time = async (rls: boolean) => (await sql.begin(async (tx) =>
        tx`select * from bench.alle_taken(${rls ? found.source : "app.taken"}, ${rls ? "*" : shared.map((c) => `"${c}"`).join(", ")},
                                          ${rls}, ${ds.org}, ${ds.members[0]!})`))[0] as { ms: string; rijen: string };
      const viaDef: number[] = [], plain: number[] = [];
      let rows = { def: "", plain: "" };
      await time(true); await time(false);
      for (let i = 0; i < ROUNDS; i++) {
        for (const rls of i % 2 ? [false, true] : [true, false]) {
          const r = await time(rls);
          (rls ? viaDef : plain).push(Number(r.ms));
          rows = { ...rows, [rls ? "def" : "plain"]: r.rijen };
        }
      }
      const a = median(viaDef), b = median(plain);
      figure({ name: "all tasks through def_taken / plain select", value: `${(a / b).toFixed(2)}x`, target: "<= 2x", ok: a / b <= 2,
               note: `${found.source}: ${rows.def} rows in ${a.toFixed(0)} ms (${defColumns.length} columns); ` +
                     `app.taken: ${rows.plain} rows in ${b.toFixed(0)} ms (${shared.length} columns)` });
    }
  }

  // 3c. Every task of the big organisation over a warehouse login ------------------------------
  // rapportage.taken read whole over TCP by a warehouse login of the organisation's owner (SCRAM,
  // RLS, every figure), against a plain select of the columns it shares with app.taken as the
  // superuser; both fetched to the client. bench/warehouse.ts.
  if (ONLY.has("warehouse")) {
    log(`\n3c. All tasks of ${BIG_ORG} from rapportage.taken over a warehouse login against a plain select of the same ` +
        `columns from app.taken (superuser), ${ROUNDS} interleaved rounds (load average ${loadAverage()})`);
    const { warehouseRead } = await import("./warehouse.ts");
    figure(await warehouseRead(sql, adminUrl, ds.org, ds.members[0]!, ROUNDS));
  }

  // 4. A 60-second run at 50 clients ------------------------------------------------------------
  if (ONLY.has("soak")) {
    // The parts before leave work behind that is theirs, not the soak's: dead rows of the tasks
    // they wrote, a month's call log grown by their calls, their events and audit rows (whose
    // autovacuum ANALYZE otherwise ran in the soak's first seconds), a checkpoint due. Done now,
    // it does not fall into the soak's last seconds (a timed checkpoint comes 5 minutes after
    // this one); what the soak's own calls leave behind still counts. index_cleanup on: the
    // write part's dead versions sit on a few dozen pages of app.taken, under the 2% of pages
    // below which VACUUM leaves the indexes alone (PostgreSQL 14+), so without it their index
    // entries (13 indexes) stay for the soak to walk through.
    const settling = performance.now();
    await sql`vacuum (analyze, index_cleanup on) app.taken, app.taak_geschiedenis, app_private.aanroepen,
                               app_private.bevestigcodes, app_hidden.bellers, app_private.tempo, app.gebeurtenissen,
                               app.audit_log`;
    await sql`checkpoint`;
    log(`\n4. ${SOAK_MS / 1000} s at ${SOAK_CLIENTS} clients: the six reads in turn and one two-step write in ten, each client from its own step ` +
        `(after vacuum and checkpoint of what the parts before wrote, ${((performance.now() - settling) / 1000).toFixed(1)} s; ` +
        `load average ${loadAverage()})`);
    const runId = crypto.randomBytes(4).toString("hex");
    const tasks = (await sql`select id from app.taken where org_id = ${ds.org} and stand = 'open' order by nummer desc limit ${SOAK_CLIENTS}`).map((r) => r.id as string);
    const perSecond = new Array(Math.ceil(SOAK_MS / 1000) + 2).fill(0);
    let sent = 0, errors = 0, firstError = "", missingIds = 0;
    const rssDuring: number[] = [];
    const sampler = setInterval(() => rssDuring.push(rssMb(service.proc.pid!)), 250);
    const conns = tasks.map(() => new Connection("127.0.0.1", servicePort));
    const start = performance.now(), end = start + SOAK_MS;
    // Each client starts at its own place in the sequence (client n at step n): started in step,
    // all 50 met the list of 200 tasks (60 ms of PostgreSQL CPU, thirty other reads' worth) at
    // about the same moments, and the throughput per 10 s swung with that phase (935, 741, 927,
    // 776, 927, 810), so one window against another measured the phase, not a decline.
    await Promise.all(conns.map(async (c, n) => {
      for (let j = n; performance.now() < end; j++) {
        const id = () => `bench-${runId}-${n}-${sent++}`;
        const check = (a: { status: number; headers: string; body: string }, rid: string) => {
          perSecond[Math.floor((performance.now() - start) / 1000)]++;
          if (a.status !== 200) { errors++; firstError ||= `${a.status} ${a.body.slice(0, 200)}`; }
          if (!new RegExp(`\\r\\nx-request-id: ${rid}\\r\\n`, "i").test(a.headers + "\r\n")) missingIds++;
        };
        if (j % 10 === 9) {
          const body = { org_id: ds.org, taak_id: tasks[n]!, omschrijving: `Soak ${runId} ${j}` };
          let rid = id();
          const a = await c.request("POST", "/api/v1/taak-bijwerken", { ...auth, "x-request-id": rid }, JSON.stringify(body));
          check(a, rid);
          if (a.status !== 200) continue;
          rid = id();
          check(await c.request("POST", "/api/v1/taak-bijwerken", { ...auth, "x-request-id": rid },
            JSON.stringify({ ...body, bevestigcode: JSON.parse(a.body).bevestigcode })), rid);
        } else {
          const rid = id();
          check(await c.request("GET", reads[j % reads.length]!.door, { ...auth, "x-request-id": rid }), rid);
        }
      }
    }));
    clearInterval(sampler);
    for (const c of conns) c.close();
    const seconds = Math.floor(SOAK_MS / 1000);
    const first = perSecond.slice(0, 10).reduce((a, b) => a + b, 0), last = perSecond.slice(seconds - 10, seconds).reduce((a, b) => a + b, 0);
    await sleep(500);
    const [{ n: logged }] = await sql`select count(*)::int as n from app_private.aanroepen
      where org_id = ${ds.org} and tijdstip > now() - interval '10 minutes' and verzoek_id like ${`bench-${runId}-%`}` as unknown as [{ n: number }];
    figure({ name: `soak: last 10 s / first 10 s`, value: `${(100 * last / first).toFixed(0)}%`, target: ">= 90%", ok: last / first >= 0.9,
             note: `${(first / 10).toFixed(0)}/s then ${(last / 10).toFixed(0)}/s; per 10 s: ` +
                   `${Array.from({ length: Math.floor(seconds / 10) }, (_, i) => perSecond.slice(i * 10, i * 10 + 10).reduce((a, b) => a + b, 0)).join(", ")}; ` +
                   `load ${loadAverage()}` });
    figure({ name: "soak: errors", value: String(errors), target: "0", ok: errors === 0, note: firstError || undefined });
    figure({ name: "soak: requests without call-log row", value: String(sent - logged), target: "0", ok: sent === logged,
             note: `${sent} requests, ${logged} rows with their request id` });
    figure({ name: "soak: answers without their X-Request-Id", value: String(missingIds), target: "0", ok: missingIds === 0 });
    const rssSoak = Math.max(...rssDuring.filter((x) => x > 0));
    figure({ name: "soak: service RSS (max)", value: `${rssSoak.toFixed(0)} MB`, target: "< 200 MB", ok: rssSoak < 200 });
  }
  clearInterval(rssTimer);
  figure({ name: "service RSS, whole benchmark (max)", value: `${rssMax.toFixed(0)} MB`, target: "< 200 MB", ok: rssMax < 200 });

  log(`\nSummary (load average at the end ${loadAverage()}):`);
  for (const f of figures) log(`  ${f.ok ? "ok  " : "MISS"} ${f.name.padEnd(58)} ${f.value.padStart(14)}   target ${f.target}`);
  await sql.end();
} finally {
  clearInterval(rssTimer);
  for (const p of processes) await stopProcess(p);
  await srv.stop();
}
