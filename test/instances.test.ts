// Two instances of the service, each with its own worker, as real processes (`npm start`,
// src/main.ts) against one database. They keep no state of their own: a confirmation code
// issued by one is confirmed on the other, confirmations at once on both keep every change, the
// rate limit is one count for both, and both workers take jobs from the one queue.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { createApiKey } from "../src/api-key.ts";
import { readConfig } from "../src/config.ts";
import { serviceNodeArgs } from "./processes.ts";
import { lastCall, makeWorld, refusalTests, request, revokedMember, testDatabase, writeTwoStep,
  type Member, type TestDb, type TestSetup, type World } from "./helpers.ts";

const root = path.resolve(import.meta.dirname, "..");
const NOW = "2026-05-14T10:00:00+02:00";
const RATE_LIMIT = 60;
const RATE_WINDOW = 3600;
const DOOR_CONNECTIONS = 3;

let db: TestDb;
let w: World, other: World, revoked: Member;
const instances: { proc: ChildProcess; baseUrl: string; output: () => string }[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** `npm start` with DATABASE_URL, its worker on. */
async function startInstance(): Promise<{ proc: ChildProcess; baseUrl: string; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, HOST: "127.0.0.1", PORT: String(await freePort()),
    KOERS_WORKER: "aan", KOERS_NOW: NOW, KOERS_RATE_LIMIT: String(RATE_LIMIT), KOERS_RATE_LIMIT_ADDRESS: "1000",
    KOERS_RATE_WINDOW: String(RATE_WINDOW), KOERS_DB_CONNECTIONS: String(DOOR_CONNECTIONS) };
  delete env.KOERS_DOOR_DATABASE_URL;
  const proc = spawn(process.execPath, serviceNodeArgs, { cwd: root, env });
  let output = "";
  proc.stdout!.on("data", (d) => { output += d; });
  proc.stderr!.on("data", (d) => { output += d; });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s: ${output}`)), 60_000);
    proc.stdout!.on("data", () => {
      const m = /serving on (http:\/\/[^\s]+) /.exec(output);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
    proc.once("close", (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}: ${output}`)); });
  });
  return { proc, baseUrl, output: () => output };
}

/** Waits out the last seconds of a rate-limit window, so a test's calls all fall in one. */
async function clearOfWindowEnd(windowSeconds: number) {
  const left = windowSeconds - (Date.now() / 1000) % windowSeconds;
  if (left < 10) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

async function member(role = "lid"): Promise<Member> {
  const tag = Math.random().toString(36).slice(2, 8);
  const [{ r: user }] = await db.sql`select beheer.lid_aanmaken(${w.org}, ${`Lid ${tag}`}, ${`lid-${tag}@acme.test`}, ${role}) as r` as
    unknown as [{ r: { user_id: string } }];
  const k = createApiKey();
  const [{ r: key }] = await db.sql`select beheer.sleutel_aanmaken(${w.org}, ${user.user_id}, ${k.hash}, ${k.hint}) as r` as
    unknown as [{ r: { key_id: string } }];
  return { user_id: user.user_id, name: `Lid ${tag}`, apiKey: k.key, key_id: key.key_id };
}

before(async () => {
  db = await testDatabase();
  w = await makeWorld(db.sql);
  other = await makeWorld(db.sql, "Ander BV");
  revoked = await revokedMember(db.sql, w);
  instances.push(...await Promise.all([startInstance(), startInstance()]));
});
after(async () => {
  for (const i of instances) {
    const exited = new Promise((r) => i.proc.once("exit", r));
    i.proc.kill("SIGTERM");
    await exited;
  }
  await db.drop();
});

const A = () => instances[0]!.baseUrl;
const B = () => instances[1]!.baseUrl;

describe("two instances against one database", () => {
  it("both answer as one service", async () => {
    const [a, b] = await Promise.all([A(), B()].map((u) => request(u, "GET", "/api/v1/team",
      { apiKey: w.members.lid.apiKey, query: { org_id: w.org } })));
    assert.equal(a!.status, 200);
    assert.deepEqual(a!.body, b!.body);
    assert.notEqual(A(), B());
  });

  it("KOERS_DB_CONNECTIONS takes a whole number of at least 1, and says so by name otherwise", () => {
    assert.equal(readConfig({}).doorConnections, 10);
    assert.equal(readConfig({ KOERS_DB_CONNECTIONS: "4" }).doorConnections, 4);
    assert.throws(() => readConfig({ KOERS_DB_CONNECTIONS: "0" }), /KOERS_DB_CONNECTIONS must be at least 1, got "0"/);
    assert.throws(() => readConfig({ KOERS_DB_CONNECTIONS: "vier" }), /KOERS_DB_CONNECTIONS must be a whole number, got "vier"/);
  });

  it("each instance keeps at most KOERS_DB_CONNECTIONS connections for its doors; calls beyond wait their turn", async () => {
    const m = await member();
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      request(i % 2 ? B() : A(), "GET", "/api/v1/wie-ben-ik", { apiKey: m.apiKey })));
    assert.deepEqual([...new Set(burst.map((r) => r.status))], [200]);
    const [{ n }] = await db.sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'koers-deur'` as unknown as [{ n: number }];
    assert.ok(n >= 2 && n <= 2 * DOOR_CONNECTIONS, `door connections of both instances: ${n}`);
  });

  it("a proposal made on one instance is confirmed on the other, once", async () => {
    const key = w.members.eigenaar.apiKey;
    const body = { org_id: w.org, titel: "Over twee deuren", eigenaar_user_id: w.members.lid.user_id };
    const proposal = await request(A(), "POST", "/api/v1/project-aanmaken", { apiKey: key, body });
    assert.equal(proposal.status, 200);
    const confirmed = await request(B(), "POST", "/api/v1/project-aanmaken", { apiKey: key, body: { ...body, bevestigcode: proposal.body.bevestigcode } });
    assert.deepEqual([confirmed.status, confirmed.body.uitgevoerd], [200, true]);
    const again = await request(A(), "POST", "/api/v1/project-aanmaken", { apiKey: key, body: { ...body, bevestigcode: proposal.body.bevestigcode } });
    assert.deepEqual(again.body, confirmed.body, "confirming again on the first instance returns the first result");
    const [{ n }] = await db.sql`select count(*)::int as n from app.projecten where org_id = ${w.org} and titel = 'Over twee deuren'` as
      unknown as [{ n: number }];
    assert.equal(n, 1);
  });

  it("confirmations at once, one on each instance, both keep their change", async () => {
    const key = w.members.eigenaar.apiKey;
    const { confirmed } = await writeTwoStep(A(), "/api/v1/taak-toevoegen", key,
      { org_id: w.org, omschrijving: "Samen wijzigen", deadline: "2026-05-29" });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const task = confirmed.body.taak;
    const changes = [{ deadline: "2026-06-30" }, { stand: "in_uitvoering" }];
    const proposals = await Promise.all(changes.map((c, i) => request([A(), B()][i]!, "POST", "/api/v1/taak-bijwerken",
      { apiKey: key, body: { org_id: w.org, taak_id: task.id, ...c } })));
    const rs = await Promise.all(changes.map((c, i) => request([B(), A()][i]!, "POST", "/api/v1/taak-bijwerken",
      { apiKey: key, body: { org_id: w.org, taak_id: task.id, ...c, bevestigcode: proposals[i]!.body.bevestigcode } })));
    for (const r of rs) assert.deepEqual([r.status, r.body.uitgevoerd], [200, true], JSON.stringify(r.body));
    const t = await request(B(), "GET", "/api/v1/taken", { apiKey: key, query: { org_id: w.org, nummer: String(task.nummer) } });
    assert.deepEqual([t.body.taken[0].deadline, t.body.taken[0].stand], ["2026-06-30", "bezig"]);
  });

  it("the rate limit is one count for both instances", async () => {
    await clearOfWindowEnd(RATE_WINDOW);
    const m = await member();
    const left: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) {
      const r = await request(i % 2 ? B() : A(), "GET", "/api/v1/wie-ben-ik", { apiKey: m.apiKey });
      assert.equal(r.status, 200);
      left.push(Number(/;r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1]));
    }
    assert.deepEqual(left, Array.from({ length: RATE_LIMIT }, (_, i) => RATE_LIMIT - 1 - i));
    for (const baseUrl of [A(), B()]) {
      const r = await request(baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: m.apiKey });
      assert.deepEqual([r.status, r.body.fout.code], [429, "te_veel_verzoeken"]);
      assert.ok(Number(r.headers.get("retry-after")) >= 1);
    }
  });

  it("each instance logs its calls with their request ids", async () => {
    for (const [baseUrl, id] of [[A(), "instantie-a"], [B(), "instantie-b"]] as const) {
      const r = await request(baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: w.members.mt.apiKey, headers: { "x-request-id": id } });
      assert.equal(r.headers.get("x-request-id"), id);
      const log = await lastCall(db.sql, w.org);
      assert.deepEqual([log.operatie, log.user_id, log.verzoek_id], ["wie_ben_ik", w.members.mt.user_id, id]);
    }
  });

  it("both workers take jobs from the one queue", async () => {
    // Each instance's worker listens with two pools: its jobs and its webhook deliveries.
    const expected = 2 * 2;
    let listening = 0;
    for (let i = 0; i < 50 && listening < expected; i++) {
      [{ listening }] = await db.sql`select count(*)::int as listening from pg_stat_activity
        where datname = current_database() and query ilike 'listen%jobs%'` as unknown as [{ listening: number }];
      if (listening < expected) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(listening, expected, "both instances' workers wait for jobs");
    await db.sql`select graphile_worker.add_job('trim_logs', '{}'::json) from generate_series(1, 10)`;
    let left = -1;
    for (let i = 0; i < 100 && left !== 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      [{ left }] = await db.sql`select count(*)::int as left from graphile_worker.jobs` as unknown as [{ left: number }];
    }
    assert.equal(left, 0, `every job ran: ${instances.map((i) => i.output()).join("\n")}`);
  });
});

// The refusal battery of the REST tests, on each instance.
for (const [name, baseUrl] of [["instance A", A], ["instance B", B]] as const) {
  describe(`refusals on ${name}`, () => {
    const ctx = (): TestSetup => ({ db, baseUrl: baseUrl(), w, other, revoked });
    refusalTests(ctx, { operation: "taken", input: () => ({}), invalid: [{ nummer: "twee" }, "nummer"] });
    refusalTests(ctx, { operation: "project_aanmaken",
      input: () => ({ titel: "Geweigerd", eigenaar_user_id: w.members.lid.user_id }), invalid: [{ deadline: "gisteren" }, "deadline"] });
  });
}
