// strategie_bijwerken over HTTP: a proposal stored at once (no code), only by owner, admin or
// MT; two proposals at once are both stored.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, refusalTests, request, setupWorld } from "./helpers.ts";

const o = setupWorld({
  now: "2026-05-14T10:00:00+02:00",
  afterSetup: async ({ db, w }) => { await db.sql`insert into app.strategie (org_id, bhag, purpose) values (${w.org}, 'Marktleider', 'Groei')`; },
});
const propose = (apiKey: string, velden: Record<string, unknown>) =>
  request(o.baseUrl, "POST", "/api/v1/strategie-bijwerken", { apiKey, body: { org_id: o.w.org, velden } });

describe("strategie_bijwerken", () => {
  it("stores a proposal with current and new text per field, and answers with its id", async () => {
    const r = await propose(o.w.members.mt.apiKey, { bhag: "Nummer één", jaarthema: "Focus" });
    assert.equal(r.status, 200);
    assert.equal(r.body.bevestigcode, undefined);
    assert.deepEqual(r.body.voorstel.velden, { bhag: { nu: "Marktleider", wordt: "Nummer één" }, jaarthema: { nu: null, wordt: "Focus" } });
    const [row] = await o.db.sql`select velden, status, ingediend_door from app.strategie_voorstellen where id = ${r.body.voorstel.id}`;
    assert.deepEqual([row!.velden, row!.status, row!.ingediend_door], [r.body.voorstel.velden, "open", o.w.members.mt.user_id]);
    const [canvas] = await o.db.sql`select bhag, purpose from app.strategie where org_id = ${o.w.org}`;
    assert.deepEqual({ ...canvas }, { bhag: "Marktleider", purpose: "Groei" });
  });
  it("two proposals at once are both stored", async () => {
    const answers = await Promise.all(["Een", "Twee", "Drie"].map((t) => propose(o.w.members.eigenaar.apiKey, { dna: t })));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    const rows = await o.db.sql`select velden -> 'dna' ->> 'wordt' as wordt from app.strategie_voorstellen
                                where org_id = ${o.w.org} and id = any(${answers.map((a) => a.body.voorstel.id)}::uuid[]) order by 1`;
    assert.deepEqual(rows.map((x) => x.wordt), ["Drie", "Een", "Twee"]);
  });
  it("a member and a coach are refused; the interface allows only owner, admin or MT", async () => {
    for (const role of ["lid", "coach"] as const) {
      const r = await propose(o.w.members[role].apiKey, { bhag: "X" });
      assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
      const log = await lastCall(o.db.sql, o.w.org);
      assert.deepEqual([log.operatie, log.status, log.fout_code], ["strategie_bijwerken", 403, "rol_mag_niet"]);
    }
  });
  it("only the canvas keys", async () => {
    const r = await propose(o.w.members.admin.apiKey, { missie: "X" });
    assert.deepEqual([r.status, r.body.fout.parameter], [400, "velden"]);
    assert.match(r.body.fout.bericht, /kies uit bhag, purpose, dna/);
  });
  refusalTests(() => o, { operation: "strategie_bijwerken", input: () => ({ velden: { thag: "Drie vestigingen" } }),
    invalid: [{ velden: { thag: 3 } }, "velden"] });
});
