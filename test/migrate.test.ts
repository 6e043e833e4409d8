// Migrating: several processes may migrate one database at once (instances starting together,
// a CLI command beside the service); each waits for the other and all end up done.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { migrate } from "../src/db/migrate.ts";
import { makeWorld, testDatabase, type TestDb } from "./helpers.ts";

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

  it("applying db/ again over data fills what its tables keep from it: organisations' switches and rocks' task sums", async () => {
    const w = await makeWorld(db.sql, "Opnieuw BV");
    const [rock] = await db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${w.org}, 'rock', 'Rots', ${w.members.eigenaar.user_id}, '2026-04-01') returning id`;
    await db.sql`insert into app.taken (org_id, omschrijving, prioriteit_id, stand, inschatting_uren)
      values (${w.org}, 'Een', ${rock!.id}, 'voltooid', 3), (${w.org}, 'Twee', ${rock!.id}, 'open', 1)`;
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
  });
});
