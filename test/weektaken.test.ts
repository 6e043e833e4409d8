// weektaken, weektaak_toevoegen and dagprioriteiten_zetten over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { omgeving, schrijf, vraag, weigeringen } from "./helpers.ts";

const NU = "2026-05-14T10:00:00+02:00";
const o = omgeving({ now: NU });

describe("weektaak_toevoegen", () => {
  it("puts a task on the caller's board this week", async () => {
    const { uitgevoerd } = await schrijf(o.basis, "/api/v1/weektaak-toevoegen", o.w.leden.lid.sleutel, { org_id: o.w.org, titel: "Klant bellen" });
    assert.deepEqual([uitgevoerd.body.weektaak.week, uitgevoerd.body.weektaak.status], ["2026-W20", "nieuw"]);
  });
  it("for a colleague only as owner, admin or MT", async () => {
    const r = await vraag(o.basis, "POST", "/api/v1/weektaak-toevoegen",
      { sleutel: o.w.leden.lid.sleutel, body: { org_id: o.w.org, titel: "Voor mt", voor_user_id: o.w.leden.mt.user_id } });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [403, "rol_mag_niet", "voor_user_id"]);
    const { uitgevoerd } = await schrijf(o.basis, "/api/v1/weektaak-toevoegen", o.w.leden.mt.sleutel,
      { org_id: o.w.org, titel: "Voor lid", voor_user_id: o.w.leden.lid.user_id, week: "volgende" });
    assert.equal(uitgevoerd.body.weektaak.week, "2026-W21");
  });
  weigeringen(() => o, { naam: "weektaak_toevoegen", methode: "POST", pad: "/api/v1/weektaak-toevoegen", sectie: "weektaken",
    module: "weektaken", schrijft: true, ongeldig: [{ week: "2026-W19" }, "week"], invoer: () => ({ titel: "X" }) });
});

describe("weektaken", () => {
  it("a member sees their own board; a coach may not see boards", async () => {
    const r = await vraag(o.basis, "GET", "/api/v1/weektaken", { sleutel: o.w.leden.lid.sleutel, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.borden.map((b: { persoon: { naam: string }; taken: unknown[] }) => [b.persoon.naam, b.taken.length]),
      [[o.w.leden.lid.naam, 1]]);
    const coach = await vraag(o.basis, "GET", "/api/v1/weektaken", { sleutel: o.w.leden.coach.sleutel, query: { org_id: o.w.org } });
    assert.deepEqual([coach.status, coach.body.fout.code], [403, "rol_mag_niet"]);
  });
  weigeringen(() => o, { naam: "weektaken", methode: "GET", pad: "/api/v1/weektaken", sectie: "weektaken", module: "weektaken",
    schrijft: false, ongeldig: [{ week: "2026-W60" }, "week"], invoer: () => ({}) });
});

describe("dagprioriteiten_zetten", () => {
  it("sets the day's priorities; one not given stays", async () => {
    await schrijf(o.basis, "/api/v1/dagprioriteiten-zetten", o.w.leden.lid.sleutel, { org_id: o.w.org, prioriteit_1: "Offerte", prioriteit_2: "Bellen" });
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/dagprioriteiten-zetten", o.w.leden.lid.sleutel,
      { org_id: o.w.org, prioriteit_2: "Mailen" });
    assert.deepEqual(voorstel.body.voorstel.prioriteit_2, { nu: "Bellen", wordt: "Mailen" });
    assert.deepEqual(uitgevoerd.body.dagprioriteiten, { datum: "2026-05-14", prioriteiten: ["Offerte", "Mailen", null] });
  });
  weigeringen(() => o, { naam: "dagprioriteiten_zetten", methode: "POST", pad: "/api/v1/dagprioriteiten-zetten", sectie: "weektaken",
    module: "weektaken", schrijft: true, ongeldig: [{ datum: "morgen" }, "datum"], invoer: () => ({ prioriteit_1: "X" }) });
});
