// prioriteiten and prioriteit_aanmaken over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld, writeTwoStep } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({ now: NOW });

describe("prioriteit_aanmaken", () => {
  it("proposes, then creates a rock in the running quarter, recorded as an event", async () => {
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/prioriteit-aanmaken", o.w.members.lid.apiKey,
      { org_id: o.w.org, titel: "Tien nieuwe klanten", soort: "rock", eigenaar_user_id: o.w.members.lid.user_id });
    assert.deepEqual(proposal.body.voorstel.kwartaal, { nu: null, wordt: "Q2-2026" });
    assert.deepEqual(proposal.body.voorstel.deadline, { nu: null, wordt: "2026-06-30" });
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.prioriteit.stand, "geen taken");
    const [e] = await o.db.sql`select gegevens from app.gebeurtenissen where soort = 'prioriteit.aangemaakt' and org_id = ${o.w.org}`;
    assert.equal(e!.gegevens.prioriteit.titel, "Tien nieuwe klanten");
  });

  it("refuses a deadline outside the quarter, naming it", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/prioriteit-aanmaken", { apiKey: o.w.members.lid.apiKey,
      body: { org_id: o.w.org, titel: "X", soort: "okr", eigenaar_user_id: o.w.members.lid.user_id, deadline: "2026-07-01" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.fout.parameter, "deadline");
  });

  it("a coach may not", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/prioriteit-aanmaken", { apiKey: o.w.members.coach.apiKey,
      body: { org_id: o.w.org, titel: "X", soort: "rock", eigenaar_user_id: o.w.members.lid.user_id } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });

  refusalTests(() => o, { operation: "prioriteit_aanmaken", invalid: [{ soort: "doel" }, "soort"],
    input: () => ({ titel: "Weigering", soort: "rock", eigenaar_user_id: o.w.members.lid.user_id }) });
});

describe("prioriteiten", () => {
  refusalTests(() => o, { operation: "prioriteiten", invalid: [{ kwartaal: "2026-Q2" }, "kwartaal"], input: () => ({}) });

  it("lists the quarter's priorities with stand and progress computed by the database", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/prioriteiten", { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kwartaal, "Q2-2026");
    const p = r.body.prioriteiten.find((x: { titel: string }) => x.titel === "Tien nieuwe klanten");
    assert.deepEqual([p.soort, p.stand, p.voortgang, p.eigenaar.user_id], ["rock", "geen taken", 0, o.w.members.lid.user_id]);
    const empty = await request(o.baseUrl, "GET", "/api/v1/prioriteiten",
      { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org, kwartaal: "Q3-2026", alleen_aandacht: "ja", team: "geen" } });
    assert.deepEqual(empty.body.prioriteiten, []);
  });
});
