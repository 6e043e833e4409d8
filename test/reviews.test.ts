// reflecties and gesprekken over HTTP (section reviews), with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, refusalTests, request, setupWorld } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({
  now: NOW,
  afterSetup: async ({ db, w }) => {
    const m = w.members;
    // April: everyone with reflections submitted but MT, who only wrote a draft.
    for (const [role, submitted] of [["eigenaar", true], ["admin", true], ["lid", true], ["mt", false]] as const) {
      await db.sql`insert into app.reflecties (org_id, user_id, soort, periode, goed, energie, ingediend_op)
                   values (${w.org}, ${m[role].user_id}, 'maand', '2026-04', ${`Goed ${role}`}, 7,
                           ${submitted ? "2026-05-01T09:00:00Z" : null})`;
    }
    await db.sql`insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie) values
      (${w.org}, ${m.lid.user_id}, ${m.mt.user_id}, 'functionering', '2026-03-02', true, 'B'),
      (${w.org}, ${m.admin.user_id}, ${m.eigenaar.user_id}, 'beoordeling', '2025-12-01', false, null)`;
  },
});

const get = (path: string, apiKey: string, query: Record<string, string> = {}) =>
  request(o.baseUrl, "GET", path, { apiKey, query: { org_id: o.w.org, ...query } });

describe("reflecties", () => {
  it("shows the caller's own until everyone has submitted, then the team's", async () => {
    const before = await get("/api/v1/reflecties", o.w.members.lid.apiKey, { soort: "maand" });
    assert.equal(before.status, 200);
    assert.deepEqual([before.body.periode, before.body.team_zichtbaar], ["2026-04", false]);
    assert.deepEqual(before.body.reflecties.map((r: { goed: string }) => r.goed), ["Goed lid"]);

    await o.db.sql`update app.reflecties set ingediend_op = '2026-05-02T09:00:00Z' where org_id = ${o.w.org} and user_id = ${o.w.members.mt.user_id}`;
    // Every active member counts: also the admin whose API key was revoked.
    const waiting = await get("/api/v1/reflecties", o.w.members.lid.apiKey, { soort: "maand" });
    assert.deepEqual([waiting.body.team_zichtbaar, waiting.body.reflecties.length], [false, 1]);
    await o.db.sql`insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op)
                   values (${o.w.org}, ${o.revoked.user_id}, 'maand', '2026-04', 'Goed oud', '2026-05-03T09:00:00Z')`;
    const after = await get("/api/v1/reflecties", o.w.members.lid.apiKey, { soort: "maand", periode: "2026-04" });
    assert.equal(after.body.team_zichtbaar, true);
    assert.deepEqual(after.body.reflecties.map((r: { goed: string }) => r.goed).sort(),
      ["Goed admin", "Goed eigenaar", "Goed lid", "Goed mt", "Goed oud"]);
    assert.deepEqual(Object.keys(after.body.reflecties[0]).sort(),
      ["beter", "energie", "focus", "geleerd", "goed", "ingediend", "ingediend_op", "persoon"]);
  });
  it("a coach has no reflections", async () => {
    const r = await get("/api/v1/reflecties", o.w.members.coach.apiKey, { soort: "maand" });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
    const log = await lastCall(o.db.sql, o.w.org);
    assert.deepEqual([log.operatie, log.status, log.fout_code], ["reflecties", 403, "rol_mag_niet"]);
  });
  refusalTests(() => o, { operation: "reflecties", input: () => ({ soort: "maand" }), invalid: [{ periode: "Q2-2026" }, "periode"] });
});

describe("gesprekken", () => {
  it("the whole team with access to Team; a member their own and those they lead", async () => {
    const owner = await get("/api/v1/gesprekken", o.w.members.eigenaar.apiKey);
    assert.deepEqual([owner.status, owner.body.hele_team, owner.body.gesprekken.length], [200, true, 2]);
    assert.deepEqual(Object.keys(owner.body.gesprekken[0]).sort(),
      ["afgerond", "datum", "eindclassificatie", "id", "met", "soort", "wie"]);
    const member = await get("/api/v1/gesprekken", o.w.members.lid.apiKey);
    assert.deepEqual(member.body.gesprekken.map((g: { datum: string }) => g.datum), ["2026-03-02"]);
    const led = await get("/api/v1/gesprekken", o.w.members.mt.apiKey, { jaar: "2026", alleen_open: "nee" });
    assert.deepEqual([led.body.gesprekken.length, led.body.gesprekken[0].met.user_id], [1, o.w.members.mt.user_id]);
  });
  it("filters on year and on open conversations", async () => {
    const open = await get("/api/v1/gesprekken", o.w.members.admin.apiKey, { alleen_open: "ja" });
    assert.deepEqual(open.body.gesprekken.map((g: { datum: string }) => g.datum), ["2025-12-01"]);
    const year = await get("/api/v1/gesprekken", o.w.members.admin.apiKey, { jaar: "2024" });
    assert.deepEqual(year.body.gesprekken, []);
  });
  refusalTests(() => o, { operation: "gesprekken", input: () => ({}), invalid: [{ jaar: "vorig jaar" }, "jaar"] });
});
