// sessienotities and sessienotitie_schrijven over HTTP: concept notes for the coach, two steps,
// two confirmations at once each writing exactly once.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld, writeTwoStep } from "./helpers.ts";

const o = setupWorld({ now: "2026-05-14T10:00:00+02:00" });

const note = (extra: Record<string, unknown> = {}) => ({
  org_id: o.w.org, datum: "2026-05-13", titel: "Kwartaalstart", soort: "kwartaal", samenvatting: "Q2 gepland",
  highlights: ["Groei"], besluiten: ["Prijs omhoog"], learnings: [],
  actiepunten: [{ tekst: "Offerte maken", eigenaar_user_id: o.w.members.lid.user_id, deadline: "2026-06-01" },
    { tekst: "Evalueren", eigenaar_user_id: null, deadline: "" }],
  ...extra,
});
const count = async (titel: string) =>
  Number((await o.db.sql`select count(*) as n from app.sessienotities where org_id = ${o.w.org} and titel = ${titel}`)[0]!.n);
const notes = (apiKey: string) =>
  request(o.baseUrl, "GET", "/api/v1/sessienotities", { apiKey, query: { org_id: o.w.org } });

describe("sessienotitie_schrijven", () => {
  it("writes a concept note in two steps; the first call writes nothing", async () => {
    const proposal = await request(o.baseUrl, "POST", "/api/v1/sessienotitie-schrijven", { apiKey: o.w.members.coach.apiKey, body: note() });
    assert.equal(proposal.status, 200);
    assert.deepEqual(proposal.body.voorstel.actiepunten.wordt[1], { tekst: "Evalueren", eigenaar: null, deadline: null });
    assert.equal(await count("Kwartaalstart"), 0);
    const confirmed = await request(o.baseUrl, "POST", "/api/v1/sessienotitie-schrijven",
      { apiKey: o.w.members.coach.apiKey, body: { ...note(), bevestigcode: proposal.body.bevestigcode } });
    assert.deepEqual([confirmed.status, confirmed.body.uitgevoerd, confirmed.body.sessienotitie.status], [200, true, "concept"]);
    assert.equal(await count("Kwartaalstart"), 1);
  });
  it("the concept is the coach's to see", async () => {
    const coach = await notes(o.w.members.coach.apiKey);
    assert.deepEqual(coach.body.sessienotities.map((n: { titel: string }) => n.titel), ["Kwartaalstart"]);
    assert.deepEqual(coach.body.sessienotities[0].actiepunten.map((a: { tekst: string }) => a.tekst), ["Offerte maken", "Evalueren"]);
    for (const role of ["eigenaar", "lid"] as const) assert.deepEqual((await notes(o.w.members[role].apiKey)).body.sessienotities, []);
    await o.db.sql`update app.sessienotities set status = 'vastgesteld' where org_id = ${o.w.org} and titel = 'Kwartaalstart'`;
    assert.equal((await notes(o.w.members.lid.apiKey)).body.sessienotities.length, 1);
  });
  it("refuses an action point of another shape by name", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/sessienotitie-schrijven",
      { apiKey: o.w.members.coach.apiKey, body: note({ actiepunten: [{ tekst: "X", wie: "Anna" }] }) });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [400, "ongeldige_parameters", "actiepunten"]);
    assert.match(r.body.fout.bericht, /onbekende sleutel wie; kies uit tekst, eigenaar_user_id, deadline/);
  });
  it("a member may not write notes", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/sessienotitie-schrijven", { apiKey: o.w.members.lid.apiKey, body: note() });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });
  it("two confirmations at once each write exactly once", async () => {
    const path = "/api/v1/sessienotitie-schrijven";
    const key = o.w.members.coach.apiKey;
    const inputs = [note({ titel: "Gelijk A" }), note({ titel: "Gelijk B" })];
    const proposals = await Promise.all(inputs.map((body) => request(o.baseUrl, "POST", path, { apiKey: key, body })));
    const confirmed = await Promise.all(inputs.map((body, i) =>
      request(o.baseUrl, "POST", path, { apiKey: key, body: { ...body, bevestigcode: proposals[i]!.body.bevestigcode } })));
    assert.deepEqual(confirmed.map((r) => r.status), [200, 200]);
    assert.deepEqual([await count("Gelijk A"), await count("Gelijk B")], [1, 1]);
    // The same code twice at once: one note, the same answer twice.
    const body = note({ titel: "Dubbel" });
    const proposal = await request(o.baseUrl, "POST", path, { apiKey: key, body });
    const twice = await Promise.all([0, 1].map(() =>
      request(o.baseUrl, "POST", path, { apiKey: key, body: { ...body, bevestigcode: proposal.body.bevestigcode } })));
    assert.deepEqual(twice.map((r) => r.status), [200, 200]);
    assert.equal(twice[0]!.body.sessienotitie.id, twice[1]!.body.sessienotitie.id);
    assert.equal(await count("Dubbel"), 1);
  });
  it("the index and the OpenAPI document describe the element shapes", async () => {
    const index = await request(o.baseUrl, "GET", "/api/v1");
    const params = index.body.endpoints.find((e: { operatie: string }) => e.operatie === "sessienotitie_schrijven").parameters;
    const points = params.find((p: { naam: string }) => p.naam === "actiepunten");
    assert.deepEqual(points.elementen.map((e: { naam: string; verplicht: boolean }) => [e.naam, e.verplicht]),
      [["tekst", true], ["eigenaar_user_id", false], ["deadline", false]]);
    const doc = await request(o.baseUrl, "GET", "/api/v1/openapi.json");
    const schema = doc.body.paths["/api/v1/sessienotitie-schrijven"].post.requestBody.content["application/json"].schema;
    assert.deepEqual([schema.properties.actiepunten.items.required, schema.properties.actiepunten.items.additionalProperties,
      schema.properties.highlights.items.type], [["tekst"], false, "string"]);
  });
  refusalTests(() => o, { operation: "sessienotitie_schrijven", input: () => { const { org_id: _, ...n } = note(); return n; },
    invalid: [{ highlights: [{ tekst: "Groei" }] }, "highlights"] });
});

describe("sessienotities", () => {
  it("newest first, as many as asked", async () => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/sessienotitie-schrijven", o.w.members.eigenaar.apiKey,
      note({ titel: "Eerder", datum: "2026-01-10", actiepunten: [] }));
    assert.equal(confirmed.status, 200);
    const r = await request(o.baseUrl, "GET", "/api/v1/sessienotities", { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org, aantal: "2" } });
    assert.deepEqual(r.body.sessienotities.map((n: { datum: string }) => n.datum), ["2026-05-13", "2026-05-13"]);
  });
  refusalTests(() => o, { operation: "sessienotities", input: () => ({}), invalid: [{ aantal: "vijf" }, "aantal"] });
});
