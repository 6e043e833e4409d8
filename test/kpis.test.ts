// kpi_scorebord, kpi_aanmaken and kpi_meting_invoeren over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { omgeving, schrijf, vraag, weigeringen } from "./helpers.ts";

// A quarter of Q3-2026 has passed at 24 July 00:00 in Amsterdam.
const NU = "2026-07-23T22:00:00Z";
const o = omgeving({ now: NU });
let kpi: string;

describe("kpi_aanmaken", () => {
  it("creates a KPI in two steps; its quarter target is set in the app", async () => {
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/kpi-aanmaken", o.w.leden.mt.sleutel, {
      org_id: o.w.org, naam: "Omzet", eenheid: "EUR", eigenaar_user_id: o.w.leden.lid.user_id, meetsoort: "teller", cadans: "month" });
    assert.deepEqual(voorstel.body.voorstel.lager_is_beter, { nu: null, wordt: false });
    assert.equal(uitgevoerd.status, 200);
    kpi = uitgevoerd.body.kpi.id;
    assert.equal(uitgevoerd.body.kpi.stoplicht, null);
    await o.db.sql`insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (${o.w.org}, ${kpi}, '2026-07-01', 400)`;
  });
  it("a member may not create KPIs", async () => {
    const r = await vraag(o.basis, "POST", "/api/v1/kpi-aanmaken", { sleutel: o.w.leden.lid.sleutel, body: {
      org_id: o.w.org, naam: "X", eigenaar_user_id: o.w.leden.lid.user_id, meetsoort: "stand", cadans: "week" } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });
  weigeringen(() => o, { naam: "kpi_aanmaken", methode: "POST", pad: "/api/v1/kpi-aanmaken", sectie: "kpis", module: "kpis",
    schrijft: true, ongeldig: [{ cadans: "maand" }, "cadans"],
    invoer: () => ({ naam: "X", eigenaar_user_id: o.w.leden.lid.user_id, meetsoort: "stand", cadans: "week" }) });
});

describe("kpi_meting_invoeren", () => {
  it("requires an explanation when the measurement lands on attentie, and records kpi.rood when red", async () => {
    const zonder = await vraag(o.basis, "POST", "/api/v1/kpi-meting-invoeren",
      { sleutel: o.w.leden.lid.sleutel, body: { org_id: o.w.org, kpi_id: kpi, waarde: 80 } });
    assert.deepEqual([zonder.status, zonder.body.fout.parameter], [400, "toelichting"]);
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/kpi-meting-invoeren", o.w.leden.lid.sleutel,
      { org_id: o.w.org, kpi_id: kpi, waarde: 79, toelichting: "Vakantie" });
    assert.deepEqual(voorstel.body.voorstel.stoplicht, { nu: null, wordt: "achter" });
    assert.deepEqual(voorstel.body.voorstel.periode, { nu: null, wordt: "2026-07" });
    assert.equal(uitgevoerd.body.uitgevoerd, true);
    const [e] = await o.db.sql`select gegevens from app.gebeurtenissen where soort = 'kpi.rood' and onderwerp_id = ${kpi}`;
    assert.equal(e!.gegevens.stoplicht, "achter");
  });
  it("refuses a quarter still running for a quarter KPI", async () => {
    const { uitgevoerd: k } = await schrijf(o.basis, "/api/v1/kpi-aanmaken", o.w.leden.mt.sleutel, {
      org_id: o.w.org, naam: "Kwartaalomzet", eigenaar_user_id: o.w.leden.mt.user_id, meetsoort: "teller", cadans: "quarter" });
    const r = await vraag(o.basis, "POST", "/api/v1/kpi-meting-invoeren",
      { sleutel: o.w.leden.mt.sleutel, body: { org_id: o.w.org, kpi_id: k.body.kpi.id, waarde: 1, periode: "2026-Q3" } });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [400, "ongeldige_parameters", "periode"]);
  });
  weigeringen(() => o, { naam: "kpi_meting_invoeren", methode: "POST", pad: "/api/v1/kpi-meting-invoeren", sectie: "kpis",
    module: "kpis", schrijft: true, ongeldig: [{ waarde: "veel" }, "waarde"],
    invoer: () => ({ kpi_id: kpi, waarde: 500 }) });
});

describe("kpi_scorebord", () => {
  it("shows target, value, line and traffic light computed by the database", async () => {
    const r = await vraag(o.basis, "GET", "/api/v1/kpi-scorebord", { sleutel: o.w.leden.coach.sleutel, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kwartaal, "Q3-2026");
    const omzet = r.body.kpis.find((k: { naam: string }) => k.naam === "Omzet");
    assert.deepEqual([omzet.kwartaaldoel, omzet.huidige_stand, omzet.lijn, omzet.stoplicht, omzet.bereikt],
      [400, 79, 100, "achter", false]);
  });
  weigeringen(() => o, { naam: "kpi_scorebord", methode: "GET", pad: "/api/v1/kpi-scorebord", sectie: "kpis", module: "kpis",
    schrijft: false, ongeldig: [{ team: "Onbekend" }, "team"], invoer: () => ({}) });
});
