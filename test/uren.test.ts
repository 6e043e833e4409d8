// uren over HTTP: hours per person, per priority, per project and loose; a member only their own.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, refusalTests, request, setupWorld } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({
  now: NOW,
  afterSetup: async ({ db, w }) => {
    const m = w.members;
    const [p] = await db.sql`insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door)
                             values (${w.org}, 'Website', ${m.mt.user_id}, '2026-05-01', ${m.mt.user_id}) returning id`;
    await db.sql`insert into app.uren (org_id, user_id, datum, uren, project_id) values
      (${w.org}, ${m.lid.user_id}, '2026-05-04', 3, ${p!.id}), (${w.org}, ${m.mt.user_id}, '2026-05-31', 2, ${p!.id})`;
    await db.sql`insert into app.uren (org_id, user_id, datum, uren) values
      (${w.org}, ${m.lid.user_id}, '2026-05-05', 1.5), (${w.org}, ${m.mt.user_id}, '2026-06-01', 8)`;
  },
});

const get = (apiKey: string, query: Record<string, string> = {}) =>
  request(o.baseUrl, "GET", "/api/v1/uren", { apiKey, query: { org_id: o.w.org, ...query } });

describe("uren", () => {
  it("this month, per person, split per project and loose", async () => {
    const r = await get(o.w.members.eigenaar.apiKey);
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.van, r.body.tot, r.body.alleen_eigen, r.body.totaal], ["2026-05-01", "2026-05-31", false, 6.5]);
    const member = r.body.personen.find((p: { persoon: { user_id: string } }) => p.persoon.user_id === o.w.members.lid.user_id);
    assert.deepEqual([member.uren, member.per_project[0].titel, member.per_project[0].uren, member.losse_taken, member.per_prioriteit],
      [4.5, "Website", 3, 1.5, []]);
  });
  it("a member gets only their own hours, and the answer says so", async () => {
    const r = await get(o.w.members.lid.apiKey);
    assert.deepEqual([r.body.alleen_eigen, r.body.personen.length, r.body.totaal], [true, 1, 4.5]);
    assert.match(r.body.toelichting, /alleen je eigen uren/);
    const colleague = await get(o.w.members.lid.apiKey, { user_id: o.w.members.mt.user_id });
    assert.deepEqual([colleague.status, colleague.body.fout.code, colleague.body.fout.parameter], [403, "rol_mag_niet", "user_id"]);
    const log = await lastCall(o.db.sql, o.w.org);
    assert.deepEqual([log.operatie, log.status, log.fout_code], ["uren", 403, "rol_mag_niet"]);
  });
  it("van and tot are inclusive; user_id is one person", async () => {
    const r = await get(o.w.members.coach.apiKey, { van: "2026-05-31", tot: "2026-06-01", user_id: o.w.members.mt.user_id });
    assert.deepEqual([r.body.personen.length, r.body.personen[0].uren], [1, 10]);
  });
  refusalTests(() => o, { operation: "uren", input: () => ({}), invalid: [{ van: "2026-06-01", tot: "2026-05-01" }, "tot"] });
});
