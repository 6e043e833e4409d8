// kpi_scorebord, kpi_aanmaken and kpi_meting_invoeren over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld, writeTwoStep } from "./helpers.ts";

// A quarter of Q3-2026 has passed at 24 July 00:00 in Amsterdam.
const NOW = "2026-07-23T22:00:00Z";
const o = setupWorld({ now: NOW });
let kpi: string;

describe("kpi_aanmaken", () => {
  it("creates a KPI in two steps; its quarter target is set in the app", async () => {
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/kpi-aanmaken", o.w.members.mt.apiKey, {
      org_id: o.w.org, naam: "Omzet", eenheid: "EUR", eigenaar_user_id: o.w.members.lid.user_id, meetsoort: "teller", cadans: "month" });
    assert.deepEqual(proposal.body.voorstel.lager_is_beter, { nu: null, wordt: false });
    assert.equal(confirmed.status, 200);
    kpi = confirmed.body.kpi.id;
    assert.equal(confirmed.body.kpi.stoplicht, null);
    await o.db.sql`insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (${o.w.org}, ${kpi}, '2026-07-01', 400)`;
  });
  it("a member may not create KPIs", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/kpi-aanmaken", { apiKey: o.w.members.lid.apiKey, body: {
      org_id: o.w.org, naam: "X", eigenaar_user_id: o.w.members.lid.user_id, meetsoort: "stand", cadans: "week" } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });
  refusalTests(() => o, { operation: "kpi_aanmaken", invalid: [{ cadans: "maand" }, "cadans"],
    input: () => ({ naam: "X", eigenaar_user_id: o.w.members.lid.user_id, meetsoort: "stand", cadans: "week" }) });
});

describe("kpi_meting_invoeren", () => {
  it("requires an explanation when the measurement lands on attentie, and records kpi.rood when red", async () => {
    const noExplanation = await request(o.baseUrl, "POST", "/api/v1/kpi-meting-invoeren",
      { apiKey: o.w.members.lid.apiKey, body: { org_id: o.w.org, kpi_id: kpi, waarde: 80 } });
    assert.deepEqual([noExplanation.status, noExplanation.body.fout.parameter], [400, "toelichting"]);
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/kpi-meting-invoeren", o.w.members.lid.apiKey,
      { org_id: o.w.org, kpi_id: kpi, waarde: 79, toelichting: "Vakantie" });
    assert.deepEqual(proposal.body.voorstel.stoplicht, { nu: null, wordt: "achter" });
    assert.deepEqual(proposal.body.voorstel.periode, { nu: null, wordt: "2026-07" });
    assert.equal(confirmed.body.uitgevoerd, true);
    const [e] = await o.db.sql`select gegevens from app.gebeurtenissen where soort = 'kpi.rood' and onderwerp_id = ${kpi}`;
    assert.equal(e!.gegevens.stoplicht, "achter");
  });
  it("refuses a quarter still running for a quarter KPI", async () => {
    const { confirmed: k } = await writeTwoStep(o.baseUrl, "/api/v1/kpi-aanmaken", o.w.members.mt.apiKey, {
      org_id: o.w.org, naam: "Kwartaalomzet", eigenaar_user_id: o.w.members.mt.user_id, meetsoort: "teller", cadans: "quarter" });
    const r = await request(o.baseUrl, "POST", "/api/v1/kpi-meting-invoeren",
      { apiKey: o.w.members.mt.apiKey, body: { org_id: o.w.org, kpi_id: k.body.kpi.id, waarde: 1, periode: "2026-Q3" } });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [400, "ongeldige_parameters", "periode"]);
  });
  refusalTests(() => o, { operation: "kpi_meting_invoeren", invalid: [{ waarde: "veel" }, "waarde"],
    input: () => ({ kpi_id: kpi, waarde: 500 }) });
});

describe("kpi_scorebord", () => {
  it("shows target, value, line and traffic light computed by the database", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/kpi-scorebord", { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kwartaal, "Q3-2026");
    const revenue = r.body.kpis.find((k: { naam: string }) => k.naam === "Omzet");
    assert.deepEqual([revenue.kwartaaldoel, revenue.huidige_stand, revenue.lijn, revenue.stoplicht, revenue.bereikt],
      [400, 79, 100, "achter", false]);
  });
  refusalTests(() => o, { operation: "kpi_scorebord", invalid: [{ team: "Onbekend" }, "team"], input: () => ({}) });
});
