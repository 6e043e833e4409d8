// prioriteiten and prioriteit_aanmaken over HTTP, with every refusal that applies.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ingetrokkenLid, weigeringen, maakWereld, schrijf, startKoers, testDatabase, vraag,
  type Koers, type Lid, type TestDb, type Wereld } from "./hulp.ts";

const NU = "2026-05-14T10:00:00+02:00";
let db: TestDb, koers: Koers, w: Wereld, ander: Wereld, oud: Lid;
before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NU });
  w = await maakWereld(db.sql);
  ander = await maakWereld(db.sql, "Ander BV");
  oud = await ingetrokkenLid(db.sql, w);
});
const ctx = () => ({ db, basis: koers.basis, w, ander, ingetrokken: oud });
after(async () => {
  await koers.stop();
  await db.ruimOp();
});

describe("prioriteit_aanmaken", () => {
  it("proposes, then creates a rock in the running quarter, recorded as an event", async () => {
    const { voorstel, uitgevoerd } = await schrijf(koers.basis, "/api/v1/prioriteit-aanmaken", w.leden.lid.sleutel,
      { org_id: w.org, titel: "Tien nieuwe klanten", soort: "rock", eigenaar_user_id: w.leden.lid.user_id });
    assert.deepEqual(voorstel.body.voorstel.kwartaal, { nu: null, wordt: "Q2-2026" });
    assert.deepEqual(voorstel.body.voorstel.deadline, { nu: null, wordt: "2026-06-30" });
    assert.equal(uitgevoerd.status, 200);
    assert.equal(uitgevoerd.body.prioriteit.stand, "geen taken");
    const [e] = await db.sql`select gegevens from app.gebeurtenissen where soort = 'prioriteit.aangemaakt' and org_id = ${w.org}`;
    assert.equal(e!.gegevens.prioriteit.titel, "Tien nieuwe klanten");
  });

  it("refuses a deadline outside the quarter, naming it", async () => {
    const r = await vraag(koers.basis, "POST", "/api/v1/prioriteit-aanmaken", { sleutel: w.leden.lid.sleutel,
      body: { org_id: w.org, titel: "X", soort: "okr", eigenaar_user_id: w.leden.lid.user_id, deadline: "2026-07-01" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.fout.parameter, "deadline");
  });

  it("a coach may not", async () => {
    const r = await vraag(koers.basis, "POST", "/api/v1/prioriteit-aanmaken", { sleutel: w.leden.coach.sleutel,
      body: { org_id: w.org, titel: "X", soort: "rock", eigenaar_user_id: w.leden.lid.user_id } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });

  weigeringen(ctx, { naam: "prioriteit_aanmaken", methode: "POST", pad: "/api/v1/prioriteit-aanmaken", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: true, ongeldig: [{ soort: "doel" }, "soort"],
    invoer: () => ({ titel: "Weigering", soort: "rock", eigenaar_user_id: w.leden.lid.user_id }) });
});

describe("prioriteiten", () => {
  weigeringen(ctx, { naam: "prioriteiten", methode: "GET", pad: "/api/v1/prioriteiten", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: false, ongeldig: [{ kwartaal: "2026-Q2" }, "kwartaal"], invoer: () => ({}) });

  it("lists the quarter's priorities with stand and progress computed by the database", async () => {
    const r = await vraag(koers.basis, "GET", "/api/v1/prioriteiten", { sleutel: w.leden.coach.sleutel, query: { org_id: w.org } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kwartaal, "Q2-2026");
    const p = r.body.prioriteiten.find((x: { titel: string }) => x.titel === "Tien nieuwe klanten");
    assert.deepEqual([p.soort, p.stand, p.voortgang, p.eigenaar.user_id], ["rock", "geen taken", 0, w.leden.lid.user_id]);
    const leeg = await vraag(koers.basis, "GET", "/api/v1/prioriteiten",
      { sleutel: w.leden.lid.sleutel, query: { org_id: w.org, kwartaal: "Q3-2026", alleen_aandacht: "ja", team: "geen" } });
    assert.deepEqual(leeg.body.prioriteiten, []);
  });
});
