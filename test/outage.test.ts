// PostgreSQL away for ten seconds under load, on a cluster of this test's own: the service
// answers every call within five seconds, with 503 tijdelijk_onbeschikbaar and Retry-After while
// the database is away (never 500), and calls succeed within two seconds of the database
// answering again, on the REST door, the AI connection and its sign-in. The worker takes its
// liveness lock again, and with a second worker started afterwards every webhook message
// arrives once, at a real HTTPS receiver. A door connection killed in the middle of a call is
// a 503 too.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { findBinDir, freePort } from "./cluster.ts";
import { initCluster, startServer, type Server } from "../src/db/cluster.ts";
import { migrate } from "../src/db/migrate.ts";
import { unavailable } from "../src/db/connection.ts";
import { newAccessToken, newRefreshToken } from "../src/oauth/tokens.ts";
import { createSigningSecret } from "../src/webhooks/signature.ts";
import { makeWorld, type World } from "./helpers.ts";
import { startService } from "./processes.ts";
import { makeCertificate, startReceiver, startWorkerProcess, waitUntil, type Certificate, type Receiver,
  type WorkerProcess } from "./webhooks-support.ts";
import type { ChildProcess } from "node:child_process";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-outage-"));
const binDir = findBinDir();
const bin = { initdb: path.join(binDir, "initdb"), postgres: path.join(binDir, "postgres") };
const password = crypto.randomBytes(18).toString("base64url");
let pgPort: number;
let server: Server | null = null;
let adminUrl: string;
let sql: postgres.Sql;
let service: { proc: ChildProcess; output: () => string };
let baseUrl: string;
let w: World;
let certificate: Certificate;
let receiver: Receiver;
let worker2: WorkerProcess | null = null;

const startDatabase = async () => {
  server = await startServer(bin, path.join(dir, "data"), { port: pgPort, password, logPath: path.join(dir, "postgres.log"), fast: true });
};

before(async () => {
  fs.chmodSync(dir, 0o755);
  initCluster(bin, path.join(dir, "data"), password);
  pgPort = await freePort();
  await startDatabase();
  const admin = postgres(server!.url("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe("create database koers");
  await admin.end();
  adminUrl = server!.url("koers");
  await migrate(adminUrl);
  // Reconnects on its own after the outage (postgres.js), so the test's own queries go on.
  sql = postgres(adminUrl, { max: 2, onnotice: () => {} });
  w = await makeWorld(sql, "Storing BV");
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
  await sql`select beheer.webhook_maken(${w.org}, null, 'Storing', ${receiver.url("/storing")}, array['taak.aangemaakt'],
    ${createSigningSecret()})`;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: adminUrl, PORT: String(port), KOERS_WORKER: "aan",
    KOERS_WEBHOOK_PRIVATE: "aan", NODE_EXTRA_CA_CERTS: certificate.certPath, KOERS_RATE_LIMIT: "0", KOERS_RATE_LIMIT_ADDRESS: "0" };
  delete env.KOERS_NOW;
  service = await startService(env);
});

after(async () => {
  await worker2?.stop();
  if (service?.proc.exitCode === null) {
    const exited = new Promise((r) => service.proc.once("exit", r));
    service.proc.kill("SIGTERM");
    await exited;
  }
  await sql?.end({ timeout: 1 });
  await receiver?.close();
  certificate?.remove();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Outcome { start: number; end: number; status: number; code: string | null; retryAfter: string | null }

/** One call: its timing, status, fout code and Retry-After; a call held past 20 s counts as status 0. */
async function call(url: string, init: RequestInit = {}): Promise<Outcome> {
  const start = Date.now();
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
    const text = await r.text();
    let code: string | null = null;
    try { code = JSON.parse(text)?.fout?.code ?? JSON.parse(text)?.error ?? null; } catch { /* a page */ }
    return { start, end: Date.now(), status: r.status, code, retryAfter: r.headers.get("retry-after") };
  } catch {
    return { start, end: Date.now(), status: 0, code: null, retryAfter: null };
  }
}

describe("PostgreSQL away for ten seconds", () => {
  const outcomes: Outcome[] = [];
  const probes: Record<string, Outcome> = {};
  let stoppedAt = 0, answersAgainAt = 0;

  it("while it is away every call answers within 5 s with 503 tijdelijk_onbeschikbaar and Retry-After, never 500; " +
     "within 2 s of its return calls succeed", async () => {
    const key = w.members.eigenaar.apiKey;
    const headers = { authorization: `Bearer ${key}` };
    let running = true;
    // Twenty clients, each calling again 50 ms after its answer.
    const clients = Array.from({ length: 20 }, async (_, i) => {
      while (running) {
        outcomes.push(await call(i % 2 ? `${baseUrl}/api/v1/wie-ben-ik` : `${baseUrl}/api/v1/team?org_id=${w.org}`, { headers }));
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    await new Promise((r) => setTimeout(r, 2000));
    // Away from when the stop has finished: a fast shutdown under load can take a while, and
    // calls answered before it ends are no outage.
    await server!.stop();
    stoppedAt = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    // The AI connection and its sign-in, while the database is away.
    const mcp = { method: "POST", headers: { authorization: `Bearer ${newAccessToken()}`, "content-type": "application/json",
      accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) };
    probes.mcp = await call(`${baseUrl}/mcp`, mcp);
    probes.token = await call(`${baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: newRefreshToken(), client_id: crypto.randomUUID() }) });
    probes.register = await call(`${baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "x", redirect_uris: ["http://127.0.0.1:1/cb"], token_endpoint_auth_method: "none" }) });
    await new Promise((r) => setTimeout(r, Math.max(0, stoppedAt + 10_000 - Date.now())));
    await startDatabase();
    answersAgainAt = Date.now();
    await new Promise((r) => setTimeout(r, 5000));
    running = false;
    await Promise.all(clients);

    const away = outcomes.filter((o) => o.start > stoppedAt + 500 && o.end < answersAgainAt);
    const back = outcomes.filter((o) => o.start > answersAgainAt + 2000);
    const firstOk = Math.min(...outcomes.filter((o) => o.status === 200 && o.start > answersAgainAt).map((o) => o.end));
    const summary = JSON.stringify({ calls: outcomes.length, away: away.length, back: back.length, recoveredAfterMs: firstOk - answersAgainAt,
      statuses: Object.fromEntries([...new Set(outcomes.map((o) => `${o.status} ${o.code}`))]
        .map((s) => [s, outcomes.filter((o) => `${o.status} ${o.code}` === s).length])),
      longest: Math.max(...outcomes.map((o) => o.end - o.start)), probes });
    console.log(`outage: ${summary}`);
    assert.ok(away.length >= 20 && back.length >= 20, summary);
    assert.deepEqual(outcomes.filter((o) => o.status !== 200 && o.status !== 503), [], `only 200 and 503: ${summary}`);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      assert.deepEqual([o.code, o.retryAfter], ["tijdelijk_onbeschikbaar", "2"], summary);
    }
    assert.ok(away.every((o) => o.status === 503), `503 while away: ${summary}`);
    assert.ok(outcomes.every((o) => o.end - o.start < 5000), `every call answered within 5 s: ${summary}`);
    assert.ok(back.every((o) => o.status === 200), `200 from 2 s after the database is back: ${summary}`);
    assert.ok(firstOk - answersAgainAt < 2000, `a call succeeded ${firstOk - answersAgainAt} ms after the database answered`);
    assert.deepEqual([probes.mcp!.status, probes.mcp!.code, probes.mcp!.retryAfter], [503, "tijdelijk_onbeschikbaar", "2"], summary);
    assert.deepEqual([probes.token!.status, probes.token!.code, probes.token!.retryAfter], [503, "temporarily_unavailable", "2"], summary);
    assert.deepEqual([probes.register!.status, probes.register!.code], [503, "temporarily_unavailable"], summary);
    assert.ok(Object.values(probes).every((o) => o.end - o.start < 5000), summary);
  });

  it("the worker takes its liveness lock again; with a second worker started afterwards, each message arrives once", async () => {
    const locks = async () => (await sql`select count(*)::int as n from pg_locks
      where locktype = 'advisory' and granted and classid = 1265591666`)[0]!.n as number;
    await waitUntil(async () => (await locks()) === 1, 15_000, "the worker's liveness lock");
    assert.match(service.output(), /liveness: holding slot \d+ again/);
    assert.match(service.output(), /warning: test-only settings are on, never use them in production: KOERS_WEBHOOK_PRIVATE/);
    worker2 = await startWorkerProcess(adminUrl, certificate);
    assert.equal(await locks(), 2);
    const before = receiver.received.length;
    for (let i = 1; i <= 10; i++) await sql`insert into app.taken (org_id, omschrijving) values (${w.org}, ${`Na de storing ${i}`})`;
    await receiver.waitFor(before + 10, 60_000);
    // Time for a second delivery of any of them (the sweep runs every 5 s).
    await new Promise((r) => setTimeout(r, 12_000));
    const ids = receiver.received.slice(before).map((r) => r.json.id as string);
    assert.equal(ids.length, 10, `each message once: ${ids.length} arrived`);
    assert.equal(new Set(ids).size, 10);
  });

  it("a door connection ended in the middle of a call answers 503, and errors of that kind are recognised", async () => {
    const reserved = await sql.reserve();
    try {
      await reserved`begin`;
      await reserved`lock table app_private.api_sleutels in access exclusive mode`;
      const pending = call(`${baseUrl}/api/v1/wie-ben-ik`, { headers: { authorization: `Bearer ${w.members.lid.apiKey}` } });
      await waitUntil(async () => (await sql`select 1 from pg_stat_activity where application_name = 'koers-deur'
        and wait_event_type = 'Lock'`).length > 0, 10_000, "the call to wait for the lock");
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'koers-deur' and wait_event_type = 'Lock'`;
      const o = await pending;
      assert.deepEqual([o.status, o.code, o.retryAfter], [503, "tijdelijk_onbeschikbaar", "2"]);
    } finally {
      await reserved`rollback`;
      reserved.release();
    }
    for (const code of ["40P01", "40001", "57P01", "08006", "ECONNREFUSED", "CONNECTION_CLOSED"]) assert.equal(unavailable({ code }), true, code);
    for (const code of ["23505", "KOERS", "42P01"]) assert.equal(unavailable({ code }), false, code);
  });
});
