// Rate limits: every call counts, per API key, or per client address when the call has no valid
// key; over the limit a call is refused with 429 te_veel_verzoeken and logged like every
// refusal; every answer of a call says the policy and what is left (RateLimit-Policy and
// RateLimit, draft-ietf-httpapi-ratelimit-headers-10). The count lives in the database, so it
// holds across instances of the service (two real instances started with src/server.ts).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { buildRestDoor } from "../src/rest.ts";
import { createApiKey } from "../src/api-key.ts";
import { connect } from "../src/db/connection.ts";
import { ensureDoorRole } from "../src/db/migrate.ts";
import { readConfig } from "../src/config.ts";
import { start, type Service } from "../src/server.ts";
import { lastCall, lastCallWithoutOrg, makeWorld, request, revokedMember, startKoers, testDatabase,
  type HttpResult, type Koers, type Member, type TestDb, type World } from "./helpers.ts";

let db: TestDb;
let w: World;
let revoked: Member;
const doors: { stop(): Promise<void> }[] = [];

/** The REST door with rate limits, as the service builds it. */
async function limitedDoor(rateLimit: { perKey: number | null; perAddress: number | null; windowSeconds: number },
                           poolSize = 4): Promise<string> {
  const sql = connect(await ensureDoorRole(db.url), { now: null, name: "koers-test", max: poolSize, rateLimit });
  const app = buildRestDoor(sql, { bodyLimit: 256 * 1024 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  doors.push({ stop: async () => { await app.close(); await sql.end(); } });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Waits out the last seconds of a rate-limit window, so a test's calls all fall in one. */
async function clearOfWindowEnd(windowSeconds = 60) {
  const left = windowSeconds - (Date.now() / 1000) % windowSeconds;
  if (left < 5) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

/** A member of its own, so each test starts with a fresh count. */
let n = 0;
async function member(): Promise<Member> {
  const [{ r: user }] = await db.sql`select beheer.lid_aanmaken(${w.org}, ${`Teller ${++n}`}, ${`teller${n}@acme.test`}, 'lid') as r` as
    unknown as [{ r: { user_id: string } }];
  const k = createApiKey();
  const [{ r: key }] = await db.sql`select beheer.sleutel_aanmaken(${w.org}, ${user.user_id}, ${k.hash}, ${k.hint}) as r` as
    unknown as [{ r: { key_id: string } }];
  return { user_id: user.user_id, name: `Teller ${n}`, apiKey: k.key, key_id: key.key_id };
}

/** RateLimit / RateLimit-Policy of an answer, parsed. */
function rate(r: HttpResult) {
  const policy = /^"(\w+)";q=(\d+);w=(\d+)$/.exec(r.headers.get("ratelimit-policy") ?? "");
  const state = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(r.headers.get("ratelimit") ?? "");
  assert.ok(policy && state, `RateLimit headers: ${r.headers.get("ratelimit-policy")} / ${r.headers.get("ratelimit")}`);
  assert.equal(state[1], policy[1], "RateLimit names the policy of RateLimit-Policy");
  return { policy: policy[1], q: Number(policy[2]), w: Number(policy[3]), r: Number(state[2]), t: Number(state[3]) };
}

const wieBenIk = (baseUrl: string, apiKey?: string, headers: Record<string, string> = {}) =>
  request(baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey, headers });

before(async () => {
  db = await testDatabase();
  w = await makeWorld(db.sql);
  revoked = await revokedMember(db.sql, w);
});
after(async () => {
  for (const d of doors) await d.stop();
  await db.drop();
});

describe("rate limits", () => {
  let baseUrl: string;
  before(async () => { baseUrl = await limitedDoor({ perKey: 3, perAddress: 2, windowSeconds: 60 }); });

  it("per key: every answer says the policy and what is left of it", async () => {
    await clearOfWindowEnd();
    const m = await member();
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const r = await wieBenIk(baseUrl, m.apiKey);
      assert.equal(r.status, 200);
      seen.push(rate(r));
    }
    assert.deepEqual(seen.map((x) => [x.policy, x.q, x.w, x.r]), [["sleutel", 3, 60, 2], ["sleutel", 3, 60, 1], ["sleutel", 3, 60, 0]]);
    for (const x of seen) assert.ok(x.t >= 1 && x.t <= 60, `t=${x.t}`);
  });

  it("over the limit: 429 te_veel_verzoeken with Retry-After, logged like every refusal", async () => {
    await clearOfWindowEnd();
    const m = await member();
    for (let i = 0; i < 3; i++) assert.equal((await wieBenIk(baseUrl, m.apiKey)).status, 200);
    const r = await request(baseUrl, "GET", "/api/v1/team", { apiKey: m.apiKey, query: { org_id: w.org } });
    assert.equal(r.status, 429);
    assert.equal(r.body.fout.code, "te_veel_verzoeken");
    assert.match(r.body.fout.bericht, /hoogstens 3 per 60 seconden/);
    const x = rate(r);
    assert.equal(x.r, 0);
    assert.equal(r.headers.get("retry-after"), String(x.t));
    const log = await lastCall(db.sql, w.org);
    assert.deepEqual([log.operatie, log.status, log.fout_code, log.user_id, log.sleutel_id],
      ["team", 429, "te_veel_verzoeken", m.user_id, m.key_id]);
    assert.equal(log.verzoek_id, r.headers.get("x-request-id"));
  });

  it("every call counts, a refused one too; another key keeps its own count", async () => {
    await clearOfWindowEnd();
    const [a, b] = [await member(), await member()];
    assert.equal((await request(baseUrl, "GET", "/api/v1/team", { apiKey: a.apiKey, query: { org_id: "nee" } })).status, 400);
    assert.equal((await request(baseUrl, "GET", "/api/v1/bestaat-niet", { apiKey: a.apiKey })).status, 404);
    assert.equal(rate(await wieBenIk(baseUrl, a.apiKey)).r, 0);
    assert.equal((await wieBenIk(baseUrl, a.apiKey)).status, 429);
    const r = await wieBenIk(baseUrl, b.apiKey);
    assert.deepEqual([r.status, rate(r).r], [200, 2]);
  });

  it("without a valid key: per client address, a revoked key too", async () => {
    const other = await limitedDoor({ perKey: 3, perAddress: 2, windowSeconds: 60 });
    await clearOfWindowEnd();
    await db.sql`delete from app_private.tempo where wie like 'adres:%'`;
    const first = await wieBenIk(other);
    assert.equal(first.status, 401);
    assert.deepEqual([rate(first).policy, rate(first).q, rate(first).r], ["adres", 2, 1]);
    assert.equal((await wieBenIk(other, revoked.apiKey)).status, 401);
    const r = await wieBenIk(other, "koers_live_dit_is_geen_sleutel");
    assert.equal(r.status, 429);
    assert.equal(r.body.fout.code, "te_veel_verzoeken");
    assert.equal(r.headers.get("retry-after"), String(rate(r).t));
    const log = await lastCallWithoutOrg(db.sql);
    assert.deepEqual([log.status, log.fout_code, log.verzoek_id], [429, "te_veel_verzoeken", r.headers.get("x-request-id")]);
    // A valid key is counted on its own, whatever the address did.
    assert.equal((await wieBenIk(other, (await member()).apiKey)).status, 200);
  });

  it("a new window gives the quota back", async () => {
    const quick = await limitedDoor({ perKey: 2, perAddress: 100, windowSeconds: 1 });
    const m = await member();
    let r: HttpResult;
    do { r = await wieBenIk(quick, m.apiKey); } while (r.status === 200);
    assert.equal(r.status, 429);
    await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get("retry-after")) + 100));
    r = await wieBenIk(quick, m.apiKey);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(rate(r).r, 1);
  });

  it("calls at once: the limit holds, overshooting by less than the connections in use", async () => {
    const pool = 4;
    const wide = await limitedDoor({ perKey: 5, perAddress: 100, windowSeconds: 60 }, pool);
    await clearOfWindowEnd();
    const m = await member();
    const rs = await Promise.all(Array.from({ length: 24 }, () => wieBenIk(wide, m.apiKey)));
    const ok = rs.filter((r) => r.status === 200).length;
    assert.ok(rs.every((r) => r.status === 200 || (r.status === 429 && r.body.fout.code === "te_veel_verzoeken")));
    assert.ok(ok >= 5 && ok < 5 + pool, `${ok} calls got through a limit of 5`);
    const [{ n: logged }] = await db.sql`select count(*)::int as n from app_private.aanroepen where sleutel_id = ${m.key_id}` as
      unknown as [{ n: number }];
    assert.equal(logged, 24, "every call is in the log");
  });

  it("without configured limits nothing is counted and no RateLimit field is sent", async () => {
    const koers: Koers = await startKoers(db.url);
    doors.push(koers);
    const m = await member();
    for (let i = 0; i < 5; i++) {
      const r = await wieBenIk(koers.baseUrl, m.apiKey);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("ratelimit"), null);
      assert.equal(r.headers.get("ratelimit-policy"), null);
    }
    assert.equal((await db.sql`select * from app_private.tempo where wie = ${`sleutel:${m.key_id}`}`).length, 0);
  });
});

describe("rate limits across two instances", () => {
  const services: Service[] = [];
  before(async () => {
    const config = readConfig({ DATABASE_URL: db.url, PORT: "0", KOERS_WORKER: "uit", KOERS_RATE_LIMIT: "4",
                                KOERS_RATE_LIMIT_ADDRESS: "1000", KOERS_RATE_WINDOW: "60" });
    services.push(await start(config), await start(config));
  });
  after(async () => { for (const s of services) await s.stop(); });

  it("two instances of the service count one limit", async () => {
    const [a, b] = services.map((s) => s.address);
    await clearOfWindowEnd();
    const m = await member();
    const left = [];
    for (const baseUrl of [a!, b!, a!, b!]) {
      const r = await wieBenIk(baseUrl, m.apiKey);
      assert.equal(r.status, 200);
      left.push(rate(r).r);
    }
    assert.deepEqual(left, [3, 2, 1, 0]);
    for (const baseUrl of [a!, b!]) {
      const r = await wieBenIk(baseUrl, m.apiKey);
      assert.deepEqual([r.status, r.body.fout?.code], [429, "te_veel_verzoeken"]);
    }
  });
});

describe("while another transaction holds back the horizon (a backup, a long warehouse query)", () => {
  it("a call reads no more of the caller rows and counts after 2,000 calls than before them", async () => {
    const { parseApiKey } = await import("../src/api-key.ts");
    const { default: postgres } = await import("postgres");
    const m = await member();
    const hash = parseApiKey(m.apiKey)!;
    // One-second windows: the count of a new window starts on rows of its own.
    const door = connect(await ensureDoorRole(db.url), { now: null, name: "koers-test-horizon", max: 1,
      rateLimit: { perKey: 1_000_000, perAddress: null, windowSeconds: 1 } });
    const holder = postgres(db.url, { max: 1, onnotice: () => {} });
    const call = (tx: typeof door) =>
      tx`select (api.aanroep('rest', ${hash}, 'wie_ben_ik', '{}'::jsonb, null, 'horizon', '127.0.0.1') ->> 'status')::int as status`;
    // Index entries the first call of a window reads in the caller rows and in the counts: each
    // one a version a look-up has to check.
    const entriesRead = async () => {
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 50));
      // Counted within the call's transaction: a backend's counts of earlier transactions may
      // not have been handed on yet, and the "xact" readings include them.
      const read = async (tx: typeof door) => Object.fromEntries((await tx<{ index: string; n: number }[]>`
        select c.relname as index, pg_catalog.pg_stat_get_xact_tuples_returned(c.oid)::int as n from pg_catalog.pg_class c
        where c.relname in ('bellers_pkey', 'tempo_pkey') and c.relkind = 'i'`).map((r) => [r.index, r.n]));
      return door.begin(async (t) => {
        const tx = t as unknown as typeof door;
        const start = await read(tx);
        const [c] = await call(tx);
        assert.equal(c!.status, 200);
        const end = await read(tx);
        return Object.fromEntries(Object.keys(end).map((k) => [k, end[k]! - start[k]!]));
      });
    };
    try {
      await call(door);
      const before = await entriesRead();
      await holder`begin isolation level repeatable read`;
      await holder`select count(*) from app.organisaties`;
      for (let i = 0; i < 2000; i++) await call(door);
      // The first call of a new tenth of a second removes the caller row of the tenth before,
      // reading the versions of that one tenth; the call measured comes after it.
      await new Promise((r) => setTimeout(r, 150));
      await call(door);
      const after = await entriesRead();
      await holder`commit`;
      // A look-up of a row that every call updated read every version made since the snapshot:
      // 3 entries before, 243 after for the caller rows, 2 and 50 for the counts.
      assert.deepEqual(["bellers_pkey", "tempo_pkey"].filter((index) => after[index]! > before[index]! + 2), [],
        `index entries read by a call before 2,000 calls under a held snapshot, and after: ${JSON.stringify({ before, after })}`);
    } finally {
      await holder.end();
      await door.end();
    }
  });
});
