// The warehouse door from outside: a login made by `koers warehouse create` connects over TCP to
// a cluster that checks SCRAM passwords (its own, like the suite's: initdb --auth=scram-sha-256),
// with psql, node-postgres and Python pandas with SQLAlchemy, and reads every view of rapportage;
// the figures equal the REST answers for the same member; revoking ends open sessions; a
// streaming standby (pg_basebackup -R) serves the same rows to the same login.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import postgres from "postgres";
import { freePort, startCluster, type Cluster } from "./cluster.ts";
import { migrate } from "../src/db/migrate.ts";
import { postgresUser, startServer, type Server } from "../src/db/cluster.ts";
import { makeWorld, request, startKoers, type Koers, type World } from "./helpers.ts";
import { runKoers, runKoersJson } from "./processes.ts";
import { DEMO_OWNER } from "../src/import/demo.ts";
import { runOnce } from "graphile-worker";
import { warehouseWatch } from "../src/tasks/warehouse_watch.ts";

const PYTHON = "/usr/bin/python3"; // Debian's interpreter: python3-pandas, -sqlalchemy, -psycopg2
/** One moment for the REST door, the CLI and the login's session, so time-dependent figures agree. */
const NOW = "2026-11-18T10:00:00+01:00";

interface Login { id: string; gebruiker: string; wachtwoord: string; url: string }

/** Runs a program to its end, with its output. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env } });
    let stdout = "", stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (input !== undefined) p.stdin.end(input); else p.stdin.end();
  });
}

/** Every view of rapportage and its rows, as node-postgres reads them over a login's URL. */
async function readAll(url: string, o: { textValues?: boolean; now?: string } = {}): Promise<Record<string, Record<string, unknown>[]>> {
  // textValues: dates, times and numerics as PostgreSQL writes them, to compare with JSON answers.
  const asText = new Set([1082, 1114, 1184, 1700]);
  const c = new pg.Client({ connectionString: url, ...(o.now ? { options: `-c koers.nu=${o.now}` } : {}),
    ...(o.textValues ? { types: { getTypeParser: ((oid: number, format?: any) =>
      asText.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser } } : {}) });
  await c.connect();
  try {
    const views = (await c.query("select view from rapportage.woordenboek where kolom is null order by view")).rows.map((r) => r.view as string);
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const v of views) out[v] = (await c.query(`select * from rapportage.${pg.escapeIdentifier(v)}`)).rows;
    return out;
  } finally {
    await c.end();
  }
}

/** What identifies a view's rows for comparing two readers: its ids, or else its row count. */
function fingerprint(rows: Record<string, unknown>[]): string[] {
  if (!rows.length) return [];
  if ("id" in rows[0]!) return rows.map((r) => String(r.id)).sort();
  return [`${rows.length} rows`];
}

/**
 * How each view compares with the REST door: the interface's read operation (path, query), its
 * answer's items, flattened as the views name columns (a person {user_id, naam} under `eigenaar`
 * is eigenaar_user_id and eigenaar_naam; any object one level deep likewise), and the key that
 * finds an item's row in the view. `view` derives the rows to compare when the answer adds them
 * up (uren). A view holds every row the member may see; the answer may filter (open tasks, this
 * quarter, this week): every item of the answer must be in the view, with the same figures.
 */
type Row = Record<string, unknown>;
interface RestEquivalent {
  path: string;
  /** The operation takes no org_id (wie_ben_ik). */
  withoutOrg?: boolean;
  query?: Record<string, string> | ((views: Record<string, Row[]>) => Record<string, string>);
  items(body: any): Row[];
  key(row: Row): string;
  view?(rows: Row[], body: any): Row[];
}
const byId = (r: Row) => String(r.id);
const restEquivalents: Record<string, RestEquivalent> = {
  wie_ben_ik: { path: "/api/v1/wie-ben-ik", withoutOrg: true, key: (r) => String(r.org_id),
    items: (b) => [{ org_id: b.organisatie.org_id, organisatie_naam: b.organisatie.naam, gebruiker: b.gebruiker, rol: b.gebruiker.rol }] },
  team: { path: "/api/v1/team", items: (b) => b.leden.map((l: Row) => ({ ...l, id: l.user_id })), key: byId },
  prioriteiten: { path: "/api/v1/prioriteiten", items: (b) => b.prioriteiten, key: byId },
  kpi_scorebord: { path: "/api/v1/kpi-scorebord", items: (b) => b.kpis.map((k: Row) => ({ ...k, kwartaal: b.kwartaal })),
    key: (r) => `${r.id} ${r.kwartaal}` },
  taken: { path: "/api/v1/taken", query: { ook_afgesloten: "true" }, items: (b) => b.taken, key: byId },
  projecten: { path: "/api/v1/projecten", items: (b) => b.projecten, key: byId },
  weektaken: { path: "/api/v1/weektaken", items: (b) => b.borden.flatMap((x: any) => x.taken.map((t: Row) => ({ ...t, persoon: x.persoon }))),
    key: byId },
  waardering: { path: "/api/v1/waardering", items: (b) => b.waarderingen, key: (r) => String(r.periode) },
  gesprekken: { path: "/api/v1/gesprekken", items: (b) => b.gesprekken, key: byId },
  sessienotities: { path: "/api/v1/sessienotities", items: (b) => b.sessienotities, key: byId },
  reflecties: { path: "/api/v1/reflecties", query: { soort: "maand" },
    items: (b) => b.reflecties.map((r: Row) => ({ ...r, soort: b.soort, periode: b.periode })),
    key: (r) => `${r.persoon_user_id} ${r.soort} ${r.periode}` },
  // Hours add up per person over this month; a person without hours in it has no rows.
  // The history of the task with the most entries (the answer is one task's).
  taak_geschiedenis: { path: "/api/v1/taak-geschiedenis",
    query: (views) => {
      const count = new Map<string, number>();
      for (const h of views.taak_geschiedenis!) count.set(String(h.taak_id), (count.get(String(h.taak_id)) ?? 0) + 1);
      const [taak] = [...count.entries()].sort((a, b) => b[1] - a[1])[0]!;
      return { nummer: String(views.taken!.find((t) => t.id === taak)!.nummer) };
    },
    items: (b) => b.geschiedenis.map((h: Row) => ({ ...h, taak_id: b.taak.id })),
    key: (r) => `${r.taak_id} ${r.soort} ${instant(r.tijdstip)} ${JSON.stringify(r.nieuw ?? null)}` },
  uren: { path: "/api/v1/uren", items: (b) => b.personen.filter((p: Row) => Number(p.uren) !== 0)
    .map((p: Row) => ({ persoon: p.persoon, uren: p.uren })),
    key: (r) => String(r.persoon_user_id),
    view: (rows, b) => Object.values(rows.filter((r) => String(r.datum) >= b.van && String(r.datum) <= b.tot)
      .reduce((acc: Record<string, Row>, r) => {
        const k = String(r.persoon_user_id);
        acc[k] = { persoon_user_id: k, uren: Number(acc[k]?.uren ?? 0) + Number(r.uren) };
        return acc;
      }, {})) },
};
/** Views with no answer of their own to compare with: their rows are in another answer, or in
 * none row by row. Every other view needs a line above. */
const withoutRestRows = new Set(["woordenboek", "kernresultaten", "kpi_metingen", "strategie"]);

/** A time as an instant, whether PostgreSQL's text (`2026-11-18 09:00:00+00`) or JSON's. */
function instant(t: unknown): number {
  return Date.parse(String(t).replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
}

/** An answer's item as the views name its fields: each object one level deep also flattened with
 * a prefix (eigenaar.user_id as eigenaar_user_id); a view's column of JSON (nieuw) keeps it whole. */
function flatten(item: Row): Row {
  const out: Row = { ...item };
  for (const [k, v] of Object.entries(item)) {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      for (const [sub, x] of Object.entries(v as Row)) out[`${k}_${sub}`] ??= x;
    }
  }
  return out;
}

/** Two values alike as figures: numbers as numbers, times as instants, dates as days, JSON as JSON. */
function same(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === "object" || typeof b === "object") {
    const parse = (x: unknown) => (typeof x === "string" ? JSON.parse(x) : x);
    return JSON.stringify(parse(a)) === JSON.stringify(parse(b));
  }
  const [x, y] = [String(a), String(b)];
  if (/^-?\d+(\.\d+)?$/.test(x) && /^-?\d+(\.\d+)?$/.test(y)) return Number(x) === Number(y);
  if (/^\d{4}-\d{2}-\d{2}[ T]\d/.test(x) && /^\d{4}-\d{2}-\d{2}[ T]\d/.test(y)) return instant(x) === instant(y);
  return x === y;
}

describe("the warehouse door", () => {
  let cluster: Cluster;
  let adminUrl: string;
  let sql: postgres.Sql;
  let koers: Koers;
  let w: World;
  let login: Login;
  let demo: { org_id: string; sleutel: string };
  let demoLogin: Login;
  const env = () => ({ DATABASE_URL: adminUrl, KOERS_NOW: NOW });

  before(async () => {
    cluster = await startCluster();
    const admin = postgres(cluster.url("postgres"), { max: 1, onnotice: () => {} });
    await admin`create database koers_wh`;
    await admin.end();
    adminUrl = cluster.url("koers_wh");
    await migrate(adminUrl);
    sql = postgres(adminUrl, { max: 2, onnotice: () => {} });
    w = await makeWorld(sql, "Pakhuis BV");
    await sql`select beheer.koppeling_zetten(${w.org}, 'warehouse', true, null)`;
    koers = await startKoers(adminUrl, { now: NOW });
    // A seeded organisation (koers demo) and a login for the member its key acts for.
    demo = await runKoersJson(["demo"], env());
    const door = await runKoersJson(["door", "set", "--org", demo.org_id, "--door", "warehouse", "--aan"], env());
    assert.deepEqual([door.door, door.aan], ["warehouse", true]);
    demoLogin = await runKoersJson(["warehouse", "create", "--org", demo.org_id, "--user", DEMO_OWNER], env());
  });

  after(async () => {
    await koers?.stop();
    await sql?.end();
    await cluster?.stop();
  });

  it("koers warehouse create prints the login once, and never puts its password in SQL text or the server log", async () => {
    const [{ data_directory: data }] = await sql`show data_directory` as unknown as [{ data_directory: string }];
    await sql`alter system set log_statement = 'all'`;
    await sql`select pg_reload_conf()`;
    try {
      login = await runKoersJson(["warehouse", "create", "--org", "Pakhuis BV", "--user", w.members.lid.user_id], env());
    } finally {
      await sql`alter system reset log_statement`;
      await sql`select pg_reload_conf()`;
    }
    assert.deepEqual(Object.keys(login), ["id", "gebruiker", "wachtwoord", "url"]);
    assert.match(login.gebruiker, /^koers_wh_[0-9a-f]{12}$/);
    const u = new URL(login.url);
    assert.deepEqual([u.protocol, u.username, u.password, u.hostname, u.pathname], ["postgresql:", login.gebruiker, login.wachtwoord,
      "127.0.0.1", "/koers_wh"]);
    const log = fs.readFileSync(path.join(path.dirname(data), "postgres.log"), "utf8");
    assert.match(log, /warehouse_aanmaken/, "statements were logged while the login was made");
    assert.ok(!log.includes(login.wachtwoord), "the password is not in the server log");
    const [role] = await sql`select rolpassword from pg_authid where rolname = ${login.gebruiker}`;
    assert.match(role!.rolpassword, /^SCRAM-SHA-256\$4096:/, "the server holds a SCRAM verifier");
    const [stranger, tooMany] = await Promise.all([
      runKoers(["warehouse", "create", "--org", "Pakhuis BV", "--user", "niemand@example.com"], env()),
      runKoers(["warehouse", "create", "--org", "Pakhuis BV", "--user", w.members.lid.user_id, "--limiet", "101"], env())]);
    assert.equal(stranger.code, 1, stranger.stderr);
    assert.match(stranger.stderr, /niemand@example\.com is geen lid/, "a stranger gets no login");
    assert.equal(tooMany.code, 2, tooMany.stderr);
    assert.match(tooMany.stderr, /--limiet/);
    const text = await runKoers(["warehouse", "list", "--org", "Pakhuis BV"], env());
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes(login.gebruiker) && !text.stdout.includes(login.wachtwoord), "the list never shows the password");
  });

  it("psql, node-postgres and pandas with SQLAlchemy connect with the password (SCRAM over TCP) and read every view alike", async () => {
    const viaPg = await readAll(demoLogin.url);
    assert.ok(Object.keys(viaPg).includes("wie_ben_ik") && Object.keys(viaPg).includes("woordenboek"));
    assert.equal(viaPg.wie_ben_ik!.length, 1);

    const wrong = new URL(demoLogin.url);
    wrong.password = "wrong";
    await assert.rejects(readAll(wrong.toString()), /password authentication failed/, "a wrong password is refused");

    const views = Object.keys(viaPg);
    const psql = await run("psql", [demoLogin.url, "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
      "-c", views.map((v) => `select '${v}', count(*), coalesce(string_agg(${viaPg[v]!.length && "id" in viaPg[v]![0]! ? "id::text" : "null"}, ',' order by 1), '') from rapportage.${v};`).join(" ")]);
    assert.equal(psql.code, 0, psql.stderr);
    const psqlRows = Object.fromEntries(psql.stdout.trim().split("\n").map((l) => l.split("\t")).map(([v, n, ids]) =>
      [v, n === "0" ? [] : ids ? ids.split(",").sort() : [`${n} rows`]]));
    const pandas = await run(PYTHON, ["-c", `
import json, os, sys
import pandas as pd
from sqlalchemy import create_engine, text
engine = create_engine(os.environ["URL"].replace("postgresql://", "postgresql+psycopg2://", 1))
with engine.connect() as c:
    views = [r[0] for r in c.execute(text("select view from rapportage.woordenboek where kolom is null"))]
out = {}
for v in views:
    df = pd.read_sql_query(text('select * from rapportage."%s"' % v), engine)
    out[v] = [] if len(df) == 0 else sorted(df["id"].astype(str)) if "id" in df.columns else ["%d rows" % len(df)]
print(json.dumps(out))
`], { URL: demoLogin.url });
    assert.equal(pandas.code, 0, pandas.stderr);
    const viaPandas = JSON.parse(pandas.stdout);
    for (const v of views) {
      assert.deepEqual(psqlRows[v], fingerprint(viaPg[v]!), `psql reads ${v} as node-postgres does`);
      assert.deepEqual(viaPandas[v], fingerprint(viaPg[v]!), `pandas reads ${v} as node-postgres does`);
    }
  });

  it("each view holds what the REST door answers the same member, with the same figures", async () => {
    const viaPg = await readAll(demoLogin.url, { textValues: true, now: NOW });
    const missing = Object.keys(viaPg).filter((v) => !restEquivalents[v] && !withoutRestRows.has(v));
    assert.deepEqual(missing, [], "every view is compared with its answer, or said to have none");
    for (const [view, rest] of Object.entries(restEquivalents)) {
      if (!viaPg[view]) continue; // its definition is not there yet (db/940_rapportage.sql makes views for those that are)
      const r = await request(koers.baseUrl, "GET", rest.path, { apiKey: demo.sleutel,
        query: { ...(rest.withoutOrg ? {} : { org_id: demo.org_id }),
                 ...(typeof rest.query === "function" ? rest.query(viaPg) : rest.query) } });
      assert.equal(r.status, 200, `${rest.path}: ${JSON.stringify(r.body)}`);
      const items = rest.items(r.body).map(flatten);
      const rows = new Map((rest.view ? rest.view(viaPg[view]!, r.body) : viaPg[view]!).map((row) => [rest.key(row), row]));
      let compared = 0;
      for (const item of items) {
        const row = rows.get(rest.key(item));
        assert.ok(row, `rapportage.${view} holds ${rest.path}'s item ${rest.key(item)}`);
        for (const [k, v] of Object.entries(item)) {
          if (!(k in row)) continue;
          assert.ok(same(row[k], v), `rapportage.${view}.${k} of ${rest.key(item)}: ${JSON.stringify(row[k])}, the API says ${JSON.stringify(v)}`);
          compared++;
        }
      }
      assert.ok(items.length === 0 || compared >= items.length, `${view}: figures compared`);
    }
  });

  it("keeps its limits: read only, a statement timeout, at most its connections", async () => {
    const c = new pg.Client({ connectionString: login.url });
    await c.connect();
    try {
      const settings = (await c.query(`select name, setting from pg_settings where name in
        ('default_transaction_read_only', 'statement_timeout', 'search_path') order by name`)).rows;
      assert.deepEqual(settings.map((s) => [s.name, s.setting]),
        [["default_transaction_read_only", "on"], ["search_path", "rapportage"], ["statement_timeout", "300000"]]);
      await assert.rejects(c.query("begin read write; create temp table t (x int)"), /permission denied/);
      await c.query("rollback");
      await assert.rejects(c.query("select count(*) from app_private.api_sleutels"), /permission denied/);
      await assert.rejects(c.query("begin read write; update app.taken set omschrijving = 'x'"), /permission denied/);
      await c.query("rollback");
      const [role] = await sql`select rolconnlimit from pg_roles where rolname = ${login.gebruiker}`;
      assert.equal(role!.rolconnlimit, 5);
    } finally {
      await c.end();
    }
  });

  it("on a streaming standby (pg_basebackup -R) the login reads every view, with the primary's rows", async () => {
    const ids = postgresUser();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-standby-"));
    fs.chmodSync(dir, 0o755);
    const data = path.join(dir, "data");
    fs.mkdirSync(data, { mode: 0o700 });
    if (ids.uid !== undefined) fs.chownSync(data, ids.uid, ids.gid!);
    const primary = new URL(adminUrl);
    let standby: Server | null = null;
    try {
      const b = spawnSync(path.join(cluster.binDir, "pg_basebackup"), ["-h", primary.hostname, "-p", primary.port,
        "-U", "postgres", "-D", data, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"],
      { ...ids, cwd: dir, encoding: "utf8", env: { ...process.env, PGPASSWORD: decodeURIComponent(primary.password) } });
      assert.equal(b.status, 0, b.stderr);
      const password = decodeURIComponent(primary.password);
      standby = await startServer({ initdb: path.join(cluster.binDir, "initdb"), postgres: path.join(cluster.binDir, "postgres") },
        data, { port: await freePort(), password, logPath: path.join(dir, "postgres.log"), fast: true });
      const admin = postgres(standby.url("koers_wh"), { max: 1, onnotice: () => {} });
      const [recovery] = await admin`select pg_is_in_recovery() as r`;
      await admin.end();
      assert.equal(recovery!.r, true, "the standby is in recovery");
      const onStandby = new URL(demoLogin.url);
      onStandby.port = new URL(standby.url("koers_wh")).port;
      const [a, s] = await Promise.all([readAll(demoLogin.url, { now: NOW }), readAll(onStandby.toString(), { now: NOW })]);
      assert.deepEqual(Object.keys(s), Object.keys(a));
      for (const v of Object.keys(a)) assert.deepEqual(s[v], a[v], `rapportage.${v} on the standby equals the primary`);
      assert.equal(s.wie_ben_ik!.length, 1, "the standby resolves the login's member");

      // Revoked on the primary: once the standby has replayed it, a session open there is refused
      // at its next query, and none starts.
      const open = new pg.Client({ connectionString: onStandby.toString() });
      open.on("error", () => {});
      await open.connect();
      await open.query("select * from rapportage.wie_ben_ik");
      await runKoersJson(["warehouse", "revoke", "--id", demoLogin.id], env());
      const [{ lsn }] = await sql`select pg_current_wal_lsn()::text as lsn` as unknown as [{ lsn: string }];
      const replica = postgres(standby.url("koers_wh"), { max: 1, onnotice: () => {} });
      try {
        for (let i = 0; i < 100; i++) {
          const [r] = await replica`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`;
          if (r!.done) break;
          await new Promise((res) => setTimeout(res, 100));
        }
      } finally {
        await replica.end();
      }
      await assert.rejects(open.query("select * from rapportage.wie_ben_ik"), (e: Error) => {
        assert.match(e.message, /permission denied|terminat|does not exist/, "refused for the revoke");
        return true;
      }, "the open session on the standby is refused");
      await open.end().catch(() => {});
      await assert.rejects(readAll(onStandby.toString()), "no new session starts on the standby");
    } finally {
      await standby?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("koers warehouse list shows it connected; revoke refuses an open session's next query and any new session", async () => {
    const open = new pg.Client({ connectionString: login.url });
    open.on("error", () => {}); // the server ends it
    await open.connect();
    await open.query("select * from rapportage.wie_ben_ik");
    // The worker's warehouse_watch job (every minute) notes who is connected.
    await sql`select graphile_worker.add_job('warehouse_watch')`;
    await runOnce({ connectionString: adminUrl, taskList: { warehouse_watch: warehouseWatch() } });
    const [seen] = await sql`select laatst_gezien_op from app_private.warehouse_logins where id = ${login.id}`;
    assert.ok(seen!.laatst_gezien_op, "warehouse_watch saw the login connected");
    const list = await runKoersJson(["warehouse", "list", "--org", w.org], env());
    const mine = list.find((l: any) => l.id === login.id);
    assert.equal(mine.verbindingen, 1, "connected now");
    assert.ok(mine.laatst_gezien_op, "last seen");
    assert.ok(!JSON.stringify(list).includes(login.wachtwoord));

    const revoked = await runKoersJson(["warehouse", "revoke", "--id", login.id], env());
    assert.equal(revoked.id, login.id);
    await assert.rejects(open.query("select * from rapportage.wie_ben_ik"), "the open session's next query is refused");
    await assert.rejects(readAll(login.url), /password authentication failed|does not exist|not permitted to log in/,
      "no new session starts");
    const listed = await runKoersJson(["warehouse", "list", "--org", w.org], env());
    assert.ok(listed.find((l: any) => l.id === login.id).ingetrokken_op, "the list shows it revoked");
  });
});
