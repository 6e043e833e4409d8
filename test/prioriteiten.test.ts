// prioriteiten and prioriteit_aanmaken over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { omgeving, schrijf, vraag, weigeringen } from "./helpers.ts";

const NU = "2026-05-14T10:00:00+02:00";
const o = omgeving({ now: NU });

describe("prioriteit_aanmaken", () => {
  it("proposes, then creates a rock in the running quarter, recorded as an event", async () => {
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/prioriteit-aanmaken", o.w.leden.lid.sleutel,
      { org_id: o.w.org, titel: "Tien nieuwe klanten", soort: "rock", eigenaar_user_id: o.w.leden.lid.user_id });
    assert.deepEqual(voorstel.body.voorstel.kwartaal, { nu: null, wordt: "Q2-2026" });
    assert.deepEqual(voorstel.body.voorstel.deadline, { nu: null, wordt: "2026-06-30" });
    assert.equal(uitgevoerd.status, 200);
    assert.equal(uitgevoerd.body.prioriteit.stand, "geen taken");
    const [e] = await o.db.sql`select gegevens from app.gebeurtenissen where soort = 'prioriteit.aangemaakt' and org_id = ${o.w.org}`;
    assert.equal(e!.gegevens.prioriteit.titel, "Tien nieuwe klanten");
  });

  it("refuses a deadline outside the quarter, naming it", async () => {
    const r = await vraag(o.basis, "POST", "/api/v1/prioriteit-aanmaken", { sleutel: o.w.leden.lid.sleutel,
      body: { org_id: o.w.org, titel: "X", soort: "okr", eigenaar_user_id: o.w.leden.lid.user_id, deadline: "2026-07-01" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.fout.parameter, "deadline");
  });

  it("a coach may not", async () => {
    const r = await vraag(o.basis, "POST", "/api/v1/prioriteit-aanmaken", { sleutel: o.w.leden.coach.sleutel,
      body: { org_id: o.w.org, titel: "X", soort: "rock", eigenaar_user_id: o.w.leden.lid.user_id } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });

  weigeringen(() => o, { naam: "prioriteit_aanmaken", methode: "POST", pad: "/api/v1/prioriteit-aanmaken", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: true, ongeldig: [{ soort: "doel" }, "soort"],
    invoer: () => ({ titel: "Weigering", soort: "rock", eigenaar_user_id: o.w.leden.lid.user_id }) });
});

describe("prioriteiten", () => {
  weigeringen(() => o, { naam: "prioriteiten", methode: "GET", pad: "/api/v1/prioriteiten", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: false, ongeldig: [{ kwartaal: "2026-Q2" }, "kwartaal"], invoer: () => ({}) });

  it("lists the quarter's priorities with stand and progress computed by the database", async () => {
    const r = await vraag(o.basis, "GET", "/api/v1/prioriteiten", { sleutel: o.w.leden.coach.sleutel, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kwartaal, "Q2-2026");
    const p = r.body.prioriteiten.find((x: { titel: string }) => x.titel === "Tien nieuwe klanten");
    assert.deepEqual([p.soort, p.stand, p.voortgang, p.eigenaar.user_id], ["rock", "geen taken", 0, o.w.leden.lid.user_id]);
    const leeg = await vraag(o.basis, "GET", "/api/v1/prioriteiten",
      { sleutel: o.w.leden.lid.sleutel, query: { org_id: o.w.org, kwartaal: "Q3-2026", alleen_aandacht: "ja", team: "geen" } });
    assert.deepEqual(leeg.body.prioriteiten, []);
  });
});
