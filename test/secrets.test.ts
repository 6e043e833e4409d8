// Nothing shaped like a key is stored in a log or printed: a key sent in a query string, a body,
// a path, or another organisation's key sent by a caller, is masked in the call logs and in
// `koers log`; the raw input of a refused call is kept cut short, so a caller cannot fill the
// database. And the retention job trims the logs.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { request, setupWorld } from "./helpers.ts";
import { runKoers } from "./processes.ts";
import { trimLogs } from "../src/tasks/trim_logs.ts";
import { trimWebhookLog } from "../src/tasks/trim_webhook_log.ts";

const o = setupWorld();
// API keys, MCP access and refresh tokens, webhook signing secrets.
const KEY_SHAPE = /koers_(live|at|rt|whsec)_[0-9A-Za-z]{8,}/;

function koersLog(org: string) {
  return runKoers(["log", "--org", org, "--limit", "200", "--json"], { DATABASE_URL: o.db.url });
}

async function storedKeys(): Promise<string[]> {
  const rows = await o.db.sql`
    select operatie || ' ' || parameters::text || coalesce(fout_detail, '') as t from app_private.aanroepen
    union all select operatie || ' ' || parameters::text from app_private.aanroepen_zonder_org`;
  return rows.map((r) => r.t as string).filter((t) => KEY_SHAPE.test(t));
}

describe("secrets in the call log", () => {
  it("a key in a query string, a body, a path or as another organisation's key is never stored", async () => {
    const own = o.w.members.eigenaar.apiKey;
    const foreign = o.other.members.eigenaar.apiKey;
    // As an unknown query parameter, with a valid key and without one.
    let r = await request(o.baseUrl, "GET", "/api/v1/team", { apiKey: own, query: { org_id: o.w.org, sleutel: foreign } });
    assert.deepEqual([r.status, r.body.fout.parameter], [400, "sleutel"]);
    r = await request(o.baseUrl, "GET", "/api/v1/team", { query: { org_id: o.w.org, token: own } });
    assert.equal(r.status, 401);
    // In a valid parameter of a write (the project is data; the log masks it).
    r = await request(o.baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey: own,
      body: { org_id: o.w.org, titel: `Sleutel ${foreign}`, eigenaar_user_id: o.w.members.lid.user_id } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // Other secrets of the service: an access token, a refresh token, a webhook signing secret.
    for (const secret of ["koers_at_Zx9Zx9Zx9Zx9Zx9Zx9Zx9Zx9", "koers_rt_Yw8Yw8Yw8Yw8Yw8Yw8Yw8Yw8", "koers_whsec_Vu7Vu7Vu7Vu7Vu7Vu7Vu7Vu7"]) {
      r = await request(o.baseUrl, "GET", "/api/v1/taken", { apiKey: own, query: { org_id: o.w.org, tags: secret } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    // In the path.
    r = await request(o.baseUrl, "GET", `/api/v1/${foreign}`, { apiKey: own });
    assert.equal(r.status, 404);
    // In a header value that is not a valid key (it is not a key of this service's shape).
    r = await request(o.baseUrl, "GET", "/api/v1/team", { headers: { authorization: `Bearer ${foreign}x` }, query: { org_id: o.w.org } });
    assert.equal(r.status, 401);
    assert.deepEqual(await storedKeys(), []);
    const log = await koersLog(o.w.org);
    assert.equal(log.code, 0);
    assert.ok(JSON.parse(log.stdout).length >= 3, "the calls are in the log");
    assert.doesNotMatch(log.stdout, KEY_SHAPE);
    assert.match(log.stdout, /koers_live_\[verborgen\]/);
  });

  it("a refused call's raw input is kept cut short (about 2 kB), with or without a key", async () => {
    const big = "x".repeat(200_000);
    for (const apiKey of [o.w.members.lid.apiKey, undefined]) {
      const r = await request(o.baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey, body: { org_id: o.w.org, veel: big } });
      assert.ok(r.status === 400 || r.status === 401, JSON.stringify(r.body));
    }
    const [own] = await o.db.sql`select length(parameters::text) as n from app_private.aanroepen
                                 where org_id = ${o.w.org} order by tijdstip desc limit 1`;
    const [anonymous] = await o.db.sql`select length(parameters::text) as n from app_private.aanroepen_zonder_org
                                       order by tijdstip desc limit 1`;
    assert.ok(own!.n <= 2100, `stored ${own!.n} characters`);
    assert.ok(anonymous!.n <= 2100, `stored ${anonymous!.n} characters`);
  });
});

describe("retention", () => {
  it("the worker's trim_logs job removes what is past its retention, in batches, and nothing newer; trim_webhook_log too", async () => {
    const pool = new pg.Pool({ connectionString: o.db.url, max: 1 });
    const running = new pg.Client({ connectionString: o.db.url });
    try {
      // A caller row left by a backend that has ended (its connection closed after a call), and
      // one of a backend that still runs.
      const callerRow = async (c: pg.Client) => {
        await c.connect();
        const { rows } = await c.query(`select pg_backend_pid() as pid, app_hidden.handelen_namens($1, $2, 'rest', 'team', '{}')`,
                                       [o.w.org, o.w.members.eigenaar.user_id]);
        return rows[0].pid as number;
      };
      const gone = new pg.Client({ connectionString: o.db.url });
      const ended = await callerRow(gone);
      await gone.end();
      const alive = await callerRow(running);
      const rowsOf = async (pid: number) =>
        (await o.db.sql`select count(*)::int as n from app_hidden.bellers where pid = ${pid}`)[0]!.n as number;
      // The ended backend may take a moment to leave pg_stat_activity after its connection closed.
      for (let i = 0; i < 100; i++) {
        const [{ n }] = await o.db.sql`select count(*)::int as n from pg_stat_activity where pid = ${ended}` as unknown as [{ n: number }];
        if (n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual([await rowsOf(ended), await rowsOf(alive)], [1, 1]);
      await o.db.sql`update app_private.aanroepen set tijdstip = now() - interval '401 days'
                     where org_id = ${o.w.org} and operatie = 'team'`;
      await o.db.sql`update app_private.aanroepen_zonder_org set tijdstip = now() - interval '31 days'`;
      const [before] = await o.db.sql`select
        (select count(*)::int from app_private.aanroepen where tijdstip < now() - interval '400 days') as old,
        (select count(*)::int from app_private.aanroepen where tijdstip >= now() - interval '400 days') as recent`;
      assert.ok(before!.old > 0 && before!.recent > 0);
      const lines: string[] = [];
      await trimLogs({ logDays: 400, anonymousDays: 30, auditDays: 400 })(
        {}, { query: (q: string, v: unknown[]) => pool.query(q, v), logger: { info: (l: string) => lines.push(l) } } as never);
      const [after] = await o.db.sql`select
        (select count(*)::int from app_private.aanroepen where tijdstip < now() - interval '400 days') as old,
        (select count(*)::int from app_private.aanroepen where tijdstip >= now() - interval '400 days') as recent,
        (select count(*)::int from app_private.aanroepen_zonder_org) as anonymous`;
      assert.deepEqual([after!.old, after!.recent, after!.anonymous], [0, before!.recent, 0]);
      assert.match(lines.join("\n"), new RegExp(`(removed |, )${before!.old} from aanroepen(,|$)`, "m"));
      assert.match(lines.join("\n"), /(removed |, )[1-9]\d* from bellers(,|$)/m);
      assert.deepEqual([await rowsOf(ended), await rowsOf(alive)], [0, 1], "the caller row of the ended backend is gone, not the other");
      await trimWebhookLog(30)(
        {}, { query: (q: string, v: unknown[]) => pool.query(q, v), logger: { info: (l: string) => lines.push(l) } } as never);
      assert.match(lines.at(-1)!, /^retention: removed \d+ from gebeurtenissen, \d+ from webhook_berichten, \d+ from webhook_afleveringen$/);
    } finally {
      await running.end();
      await pool.end();
    }
  });
});
