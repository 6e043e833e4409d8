// weektaken, weektaak_toevoegen and dagprioriteiten_zetten over HTTP, with every refusal that applies.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ingetrokkenLid, maakWereld, schrijf, startKoers, testDatabase, vraag, weigeringen,
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

describe("weektaak_toevoegen", () => {
  it("puts a task on the caller's board this week", async () => {
    const { uitgevoerd } = await schrijf(koers.basis, "/api/v1/weektaak-toevoegen", w.leden.lid.sleutel, { org_id: w.org, titel: "Klant bellen" });
    assert.deepEqual([uitgevoerd.body.weektaak.week, uitgevoerd.body.weektaak.status], ["2026-W20", "nieuw"]);
  });
  it("for a colleague only as owner, admin or MT", async () => {
    const r = await vraag(koers.basis, "POST", "/api/v1/weektaak-toevoegen",
      { sleutel: w.leden.lid.sleutel, body: { org_id: w.org, titel: "Voor mt", voor_user_id: w.leden.mt.user_id } });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [403, "rol_mag_niet", "voor_user_id"]);
    const { uitgevoerd } = await schrijf(koers.basis, "/api/v1/weektaak-toevoegen", w.leden.mt.sleutel,
      { org_id: w.org, titel: "Voor lid", voor_user_id: w.leden.lid.user_id, week: "volgende" });
    assert.equal(uitgevoerd.body.weektaak.week, "2026-W21");
  });
  weigeringen(ctx, { naam: "weektaak_toevoegen", methode: "POST", pad: "/api/v1/weektaak-toevoegen", sectie: "weektaken",
    module: "weektaken", schrijft: true, ongeldig: [{ week: "2026-W19" }, "week"], invoer: () => ({ titel: "X" }) });
});

describe("weektaken", () => {
  it("a member sees their own board; a coach may not see boards", async () => {
    const r = await vraag(koers.basis, "GET", "/api/v1/weektaken", { sleutel: w.leden.lid.sleutel, query: { org_id: w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.borden.map((b: { persoon: { naam: string }; taken: unknown[] }) => [b.persoon.naam, b.taken.length]),
      [[w.leden.lid.naam, 1]]);
    const coach = await vraag(koers.basis, "GET", "/api/v1/weektaken", { sleutel: w.leden.coach.sleutel, query: { org_id: w.org } });
    assert.deepEqual([coach.status, coach.body.fout.code], [403, "rol_mag_niet"]);
  });
  weigeringen(ctx, { naam: "weektaken", methode: "GET", pad: "/api/v1/weektaken", sectie: "weektaken", module: "weektaken",
    schrijft: false, ongeldig: [{ week: "2026-W60" }, "week"], invoer: () => ({}) });
});

describe("dagprioriteiten_zetten", () => {
  it("sets the day's priorities; one not given stays", async () => {
    await schrijf(koers.basis, "/api/v1/dagprioriteiten-zetten", w.leden.lid.sleutel, { org_id: w.org, prioriteit_1: "Offerte", prioriteit_2: "Bellen" });
    const { voorstel, uitgevoerd } = await schrijf(koers.basis, "/api/v1/dagprioriteiten-zetten", w.leden.lid.sleutel,
      { org_id: w.org, prioriteit_2: "Mailen" });
    assert.deepEqual(voorstel.body.voorstel.prioriteit_2, { nu: "Bellen", wordt: "Mailen" });
    assert.deepEqual(uitgevoerd.body.dagprioriteiten, { datum: "2026-05-14", prioriteiten: ["Offerte", "Mailen", null] });
  });
  weigeringen(ctx, { naam: "dagprioriteiten_zetten", methode: "POST", pad: "/api/v1/dagprioriteiten-zetten", sectie: "weektaken",
    module: "weektaken", schrijft: true, ongeldig: [{ datum: "morgen" }, "datum"], invoer: () => ({ prioriteit_1: "X" }) });
});
