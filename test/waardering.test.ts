// waardering over HTTP: valuations as measured, newest first; finance only.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld } from "./helpers.ts";

const o = setupWorld({
  now: "2026-05-14T10:00:00+02:00",
  afterSetup: async ({ db, w }) => {
    await db.sql`insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op) values
      (${w.org}, '2025', 1200000, 240000, 5, 1150000, '2026-02-01'),
      (${w.org}, 'Q1-2026', 320000, 70000, 5.2, 1300000, '2026-04-03'),
      (${w.org}, '2026-04', null, null, null, null, '2026-05-01')`;
  },
});

describe("waardering", () => {
  it("newest first, as stored, without open invitations", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/waardering", { apiKey: o.w.members.admin.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.waarderingen.map((w: { periode: string }) => w.periode), ["Q1-2026", "2025"]);
    const { gemeten_op: _, ...first } = r.body.waarderingen[0];
    assert.deepEqual(first, { periode: "Q1-2026", omzet: 320000, genormaliseerde_ebitda: 70000, multiple: 5.2, aandelenwaarde: 1300000 });
    const one = await request(o.baseUrl, "GET", "/api/v1/waardering", { apiKey: o.w.members.mt.apiKey, query: { org_id: o.w.org, aantal: "1" } });
    assert.equal(one.body.waarderingen.length, 1);
  });
  it("members and coaches see no finance", async () => {
    for (const role of ["lid", "coach"] as const) {
      const r = await request(o.baseUrl, "GET", "/api/v1/waardering", { apiKey: o.w.members[role].apiKey, query: { org_id: o.w.org } });
      assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
    }
  });
  refusalTests(() => o, { operation: "waardering", input: () => ({}), invalid: [{ aantal: "0" }, "aantal"] });
});
