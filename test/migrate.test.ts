// Migrating: several processes may migrate one database at once (instances starting together,
// a CLI command beside the service); each waits for the other and all end up done.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { migrate } from "../src/db/migrate.ts";
import { testDatabase, type TestDb } from "./helpers.ts";

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
});
