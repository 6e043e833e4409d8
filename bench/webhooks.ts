// What a webhook delivery costs, from the commit of a change to its arrival at a receiver on
// loopback. Prints figures; not a timed test.
//   npm run bench:webhooks                                  (own throwaway cluster)
//   BENCH_DATABASE_URL=postgres://... npm run bench:webhooks (a server of your choice)
// A `koers worker` process delivers (as in production: LISTEN/NOTIFY wakes it, its own pool of
// delivery workers); the receiver is an HTTPS server in this process. Measured:
//   1. latency at a steady 50 events/s: each event is one task ticked off in its own
//      transaction; from the moment its commit returned (and from the statement's start) to
//      the message's arrival;
//   2. a burst: 2,000 tasks ticked off in one statement (2,000 events, 2,000 messages, all
//      queued at its commit), and how long until the last one arrived.
import fs from "node:fs";
import os from "node:os";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { createSigningSecret } from "../src/webhooks/signature.ts";
import { benchDatabase } from "./database.ts";
import { makeCertificate, startReceiver, startWorkerProcess } from "../test/webhooks-support.ts";

const RATE = Number(process.env.BENCH_RATE ?? 50);
const STEADY_S = Number(process.env.BENCH_SECONDS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 2000);

// CPU seconds used by processes (Linux /proc): where the time of a phase goes.
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks / 100;
}
function postgresPids(port: string): number[] {
  if (!fs.existsSync("/proc")) return [];
  const all = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);
  const cmd = (pid: number) => { try { return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"); } catch { return []; } };
  const master = all.find((pid) => { const c = cmd(pid); return c[0]?.endsWith("postgres") && c.includes("-p") && c[c.indexOf("-p") + 1] === port; });
  if (master === undefined) return [];
  const ppid = (pid: number) => { try { return Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]); } catch { return -1; } };
  return [master, ...all.filter((pid) => ppid(pid) === master)];
}
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

const database = await benchDatabase(console.log);
const url = database.url;
const certificate = makeCertificate();
const receiver = await startReceiver(certificate);
const sql = postgres(url, { max: 8, onnotice: () => {} });
let worker: Awaited<ReturnType<typeof startWorkerProcess>> | null = null;
try {
  await migrate(url);
  const [{ r: org }] = await sql`select beheer.org_aanmaken('Bench BV') as r` as unknown as [{ r: { org_id: string } }];
  await sql`select beheer.lid_aanmaken(${org.org_id}, 'Eva', 'eva@bench.test', 'eigenaar')`;
  await sql`select beheer.webhook_maken(${org.org_id}, null, 'Bench', ${receiver.url("/bench")}, array['taak.klaar'], ${createSigningSecret()})`;
  const steadyCount = RATE * STEADY_S;
  await sql`insert into app.taken (org_id, omschrijving) select ${org.org_id}, 'Taak ' || n from generate_series(1, ${steadyCount + BURST + 50}) n`;
  await sql`vacuum analyze`;

  // Arrival time (this process's clock) per task number.
  const arrived = new Map<number, number>();
  receiver.answer = (r, res) => {
    arrived.set(r.json.gegevens.taak.nummer, performance.now());
    res.writeHead(200);
    res.end();
  };
  const waitArrivals = async (n: number, timeoutMs: number) => {
    const deadline = performance.now() + timeoutMs;
    while (arrived.size < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  };

  worker = await startWorkerProcess(url, certificate);
  console.log(`\nmachine: ${os.cpus().length} cores, load average ${load()} (1, 5, 15 min) before the run; ` +
    `PostgreSQL ${(await sql`show server_version`)[0]!.server_version}, fsync ${(await sql`show fsync`)[0]!.fsync}`);

  // Warm-up: connections, TLS sessions, plans.
  let next = 1;
  const tick = async (n: number) => sql`select beheer.taak_afvinken(${org.org_id}, ${n})`;
  for (let i = 0; i < 50; i++) await tick(next++);
  await waitArrivals(50, 10_000);

  // 1. Steady rate.
  const sent = new Map<number, { start: number; committed: number }>();
  const started = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < steadyCount; i++) {
    const at = started + (i * 1000) / RATE;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const n = next++;
    const start = performance.now();
    inFlight.push(tick(n).then(() => sent.set(n, { start, committed: performance.now() })));
  }
  await Promise.all(inFlight);
  await waitArrivals(50 + steadyCount, 30_000);
  const fromCommit: number[] = [], fromStart: number[] = [];
  let missing = 0;
  for (const [n, s] of sent) {
    const a = arrived.get(n);
    if (a === undefined) { missing++; continue; }
    fromCommit.push(Math.max(0, a - s.committed));
    fromStart.push(a - s.start);
  }
  fromCommit.sort((a, b) => a - b);
  fromStart.sort((a, b) => a - b);
  console.log(`\n1. ${RATE} events/s for ${STEADY_S} s (${steadyCount} events, ${missing} not arrived)`);
  console.log(`   commit returned -> arrival   p50 ${ms(pct(fromCommit, 0.5))}  p95 ${ms(pct(fromCommit, 0.95))}  ` +
    `p99 ${ms(pct(fromCommit, 0.99))}  max ${ms(fromCommit.at(-1)!)}`);
  console.log(`   statement start -> arrival   p50 ${ms(pct(fromStart, 0.5))}  p95 ${ms(pct(fromStart, 0.95))}  ` +
    `p99 ${ms(pct(fromStart, 0.99))}  max ${ms(fromStart.at(-1)!)}`);

  // 2. Burst.
  const connectionsBefore = receiver.connections();
  const pgPids = postgresPids(new URL(url).port || "5432");
  const cpu = () => ({ bench: cpuSeconds([process.pid]), worker: cpuSeconds([worker!.proc.pid!]), postgres: cpuSeconds(pgPids) });
  const first = next, last = next + BURST - 1;
  const before = arrived.size;
  const burstStart = performance.now();
  await sql`update app.taken set stand = 'voltooid' where org_id = ${org.org_id} and nummer between ${first} and ${last}`;
  const burstCommitted = performance.now();
  const cpuAtCommit = cpu();
  await waitArrivals(before + BURST, 60_000);
  const burstTimes = [...arrived.entries()].filter(([n]) => n >= first && n <= last).map(([, t]) => t).sort((a, b) => a - b);
  const lastArrival = burstTimes.at(-1)!;
  let recorded = 0;
  for (;;) {
    [{ c: recorded }] = await sql`select count(*)::int as c from app_private.webhook_berichten where status = 'afgeleverd'` as unknown as [{ c: number }];
    if (recorded >= before + BURST || performance.now() - burstCommitted > 60_000) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const allRecorded = performance.now();
  const cpuAfter = cpu();
  console.log(`\n2. burst of ${BURST} events in one statement (${burstTimes.length} arrived)`);
  console.log(`   statement with its commit: ${ms(burstCommitted - burstStart)} (queues ${BURST} messages and jobs)`);
  console.log(`   commit returned -> first arrival ${ms(burstTimes[0]! - burstCommitted)}, half ${ms(pct(burstTimes, 0.5) - burstCommitted)}, ` +
    `last arrival ${ms(lastArrival - burstCommitted)} (${(BURST / ((lastArrival - burstCommitted) / 1000)).toFixed(0)} deliveries/s)`);
  console.log(`   commit returned -> every delivery recorded ${ms(allRecorded - burstCommitted)}`);
  console.log(`   TLS connections opened for the burst: ${receiver.connections() - connectionsBefore}`);
  if (pgPids.length) {
    console.log(`   CPU from commit to the last delivery recorded: worker ${(cpuAfter.worker - cpuAtCommit.worker).toFixed(2)} s, ` +
      `PostgreSQL ${(cpuAfter.postgres - cpuAtCommit.postgres).toFixed(2)} s, receiver and bench ${(cpuAfter.bench - cpuAtCommit.bench).toFixed(2)} s`);
  }
  console.log(`\nload average after the run: ${load()}`);
} finally {
  await worker?.stop();
  await receiver.close();
  certificate.remove();
  await sql.end();
  await database.drop();
}
