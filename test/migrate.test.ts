// Migrating: several processes may migrate one database at once (instances starting together,
// a CLI command beside the service); each waits for the other and all end up done.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { doorRoleName } from "../src/db/connection.ts";
import { freePort } from "./cluster.ts";
import { makeWorld, request, testDatabase, writeTwoStep, type TestDb } from "./helpers.ts";
import { runKoersJson, startService } from "./processes.ts";

let db: TestDb;
before(async () => { db = await testDatabase({ empty: true }); });
after(async () => { await db.drop(); });

describe("migrate", () => {
  it("three migrations of one empty database at once all succeed, and a fourth finds it up to date", async () => {
    const results = await Promise.allSettled([1, 2, 3].map(() => migrate(db.url)));
    assert.deepEqual(results.map((r) => r.status === "rejected" ? String(r.reason) : "ok"), ["ok", "ok", "ok"]);
    const lines: string[] = [];
    await migrate(db.url, { log: (l) => lines.push(l) });
    assert.ok(lines.includes("db/ is up to date"), lines.join("\n"));
    const [{ n }] = await db.sql`select count(*)::int as n from app.operaties` as unknown as [{ n: number }];
    assert.ok(n > 20, `${n} operations`);
  });

  it("applying db/ again over data fills what its tables keep from it: organisations' switches, rocks' and projects' sums", async () => {
    const w = await makeWorld(db.sql, "Opnieuw BV");
    const [rock] = await db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${w.org}, 'rock', 'Rots', ${w.members.eigenaar.user_id}, '2026-04-01') returning id`;
    await db.sql`insert into app.taken (org_id, omschrijving, prioriteit_id, stand, inschatting_uren)
      values (${w.org}, 'Een', ${rock!.id}, 'voltooid', 3), (${w.org}, 'Twee', ${rock!.id}, 'open', 1)`;
    const owner = w.members.eigenaar.user_id;
    const [project] = await db.sql`insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door)
      values (${w.org}, 'Opnieuw', ${owner}, '2026-01-01', ${owner}) returning id`;
    const [task] = await db.sql`insert into app.taken (org_id, omschrijving, project_id)
      values (${w.org}, 'Drie', ${project!.id}) returning id`;
    await db.sql`insert into app.uren (org_id, user_id, datum, uren, taak_id) values (${w.org}, ${owner}, '2026-05-12', 1.5, ${task!.id})`;
    // A changed db/ (new code, or new reference data) is applied again over the data.
    await db.sql`update app_private.instellingen set waarde = 'anders' where sleutel = 'db_hash'`;
    const lines: string[] = [];
    await migrate(db.url, { log: (l) => lines.push(l) });
    assert.ok(lines.includes("applying db/999_grants.sql"), lines.join("\n"));
    const [t] = await db.sql`select (t.koppelingen -> 'rest' ->> 'aan')::boolean as aan from app_hidden.org_toestand t
      where t.org = ${w.org}`;
    assert.equal(t?.aan, true, "the organisation's row of switches is there again, with its door on");
    const [s] = await db.sql`select aantal, klaar, gewicht::float8 as gewicht, gewicht_klaar::float8 as gewicht_klaar
      from app_hidden.prioriteit_sommen where org = ${w.org} and prioriteit = ${rock!.id}`;
    assert.deepEqual({ ...s }, { aantal: 2, klaar: 1, gewicht: 4, gewicht_klaar: 3 }, "the rock's task sums are counted again");
    const [ps] = await db.sql`select open_taken, uren::float8 as uren from app_hidden.project_sommen
      where org = ${w.org} and project = ${project!.id}`;
    assert.deepEqual({ ...ps }, { open_taken: 1, uren: 1.5 }, "the project's open tasks and hours are counted again");
  });
});

// The README's provisioning for a server where Koers does not migrate as a superuser: a superuser
// makes koers_definer (BYPASSRLS) and koers_lezer and an administrative role with CREATEROLE and
// BYPASSRLS that may act as them; that role owns the database. npm start then migrates it, makes
// the doors' login role and serves; the CLI makes a warehouse login; db/ applies again over data.
describe("migrate as an administrative role that is no superuser", () => {
  const suffix = crypto.randomBytes(4).toString("hex");
  const admin = `koers_beheer_${suffix}`;
  const database = `koers_t_beheer_${suffix}`;
  const password = crypto.randomBytes(12).toString("hex");
  let superSql: postgres.Sql;
  let url: string;
  let sql: postgres.Sql | undefined;
  let service: Awaited<ReturnType<typeof startService>> | undefined;

  before(async () => {
    superSql = postgres(process.env.KOERS_TEST_SERVER_URL!, { max: 1, onnotice: () => {} });
    // The four group roles exist on this server (the template was migrated by a superuser).
    await superSql.unsafe(`create role ${admin} login createrole bypassrls password '${password}'`);
    await superSql.unsafe(`grant koers_definer, koers_lezer to ${admin}`);
    await superSql.unsafe(`grant koers_door, koers_warehouse to ${admin} with admin option`);
    await superSql.unsafe(`create database ${database} owner ${admin}`);
    const u = new URL(process.env.KOERS_TEST_SERVER_URL!);
    u.username = admin;
    u.password = password;
    u.pathname = `/${database}`;
    url = u.toString();
  });

  after(async () => {
    service?.proc.kill("SIGTERM");
    const logins = sql ? await sql`select rolnaam from app_private.warehouse_logins` as unknown as { rolnaam: string }[] : [];
    await sql?.end();
    await superSql.unsafe(`drop database if exists ${database} with (force)`);
    for (const l of logins) await superSql.unsafe(`drop role if exists ${l.rolnaam}`);
    await superSql.unsafe(`drop role if exists ${doorRoleName(database)}`);
    await superSql.unsafe(`drop role if exists ${admin}`);
    await superSql.end();
  });

  it("npm start migrates, makes the door's login role and serves; reads and two-step writes work", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, PORT: String(port), KOERS_WORKER: "aan" };
    delete env.KOERS_NOW;
    service = await startService(env);
    const [door] = await superSql`select rolsuper, rolbypassrls, rolcanlogin,
        pg_has_role(rolname, 'koers_door', 'member') as deur
      from pg_roles where rolname = ${doorRoleName(database)}`;
    assert.deepEqual({ ...door }, { rolsuper: false, rolbypassrls: false, rolcanlogin: true, deur: true });
    sql = postgres(url, { max: 2, onnotice: () => {} });
    const [owners] = await sql`select
        (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'app_hidden' and p.prosecdef and p.proowner = 'koers_definer'::regrole) as definer,
        (select count(*)::int from pg_namespace n where n.nspname in ('api', 'app_hidden', 'beheer', 'rapportage')
         and (has_schema_privilege('koers_definer', n.oid, 'create') or has_schema_privilege('koers_lezer', n.oid, 'create'))) as create`;
    assert.ok(owners!.definer > 10, `${owners!.definer} security-definer functions of koers_definer`);
    assert.equal(owners!.create, 0, "the owners of db/'s objects keep no CREATE on its schemas");

    const w = await makeWorld(sql, "Beheer BV");
    const base = `http://127.0.0.1:${port}`;
    const me = await request(base, "GET", "/api/v1/wie-ben-ik", { apiKey: w.members.eigenaar.apiKey });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.gebruiker.user_id, w.members.eigenaar.user_id);
    const made = await writeTwoStep(base, "/api/v1/taak-toevoegen", w.members.eigenaar.apiKey, { org_id: w.org, omschrijving: "Door de beheerrol" });
    assert.equal(made.confirmed.status, 200, JSON.stringify(made.confirmed.body));
    const list = await request(base, "GET", "/api/v1/taken", { apiKey: w.members.eigenaar.apiKey, query: { org_id: w.org } });
    assert.deepEqual(list.body.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Door de beheerrol"]);
    const [log] = await sql`select count(*)::int as n from app_private.aanroepen where org_id = ${w.org}`;
    assert.ok(log!.n >= 4, `${log!.n} calls in the organisation's log`);

    await sql`select beheer.koppeling_zetten(${w.org}, 'warehouse', true, null)`;
    const login = await runKoersJson(["warehouse", "create", "--org", "Beheer BV", "--user", w.members.eigenaar.user_id],
      { DATABASE_URL: url });
    const wh = postgres(login.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await wh`select omschrijving from rapportage.taken`;
      assert.deepEqual(rows.map((r) => r.omschrijving), ["Door de beheerrol"]);
    } finally {
      await wh.end();
    }
  });

  it("db/ applies again over the data as that role", async () => {
    await sql!`update app_private.instellingen set waarde = 'anders' where sleutel = 'db_hash'`;
    const lines: string[] = [];
    await migrate(url, { log: (l) => lines.push(l) });
    assert.ok(lines.includes("applying db/999_grants.sql"), lines.join("\n"));
    const [n] = await sql!`select count(*)::int as n from app.taken`;
    assert.equal(n!.n, 1, "the task is still there");
    const [owners] = await sql!`select count(*)::int as n from pg_namespace n where n.nspname in ('api', 'app_hidden', 'beheer', 'rapportage')
      and (has_schema_privilege('koers_definer', n.oid, 'create') or has_schema_privilege('koers_lezer', n.oid, 'create'))`;
    assert.equal(owners!.n, 0, "again without CREATE for the owners");
  });
});
