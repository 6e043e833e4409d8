// The spellings integrators use mean the same over HTTP: flags ja/nee and true/false (and a JSON
// boolean in a JSON body), lists as repeated keys, comma lists and tags[]= (raw or %-encoded),
// in query strings and in form bodies alike.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { request, setupWorld, writeTwoStep } from "./helpers.ts";

let both: number, onlyA: number, closed: number;
const o = setupWorld({
  now: "2026-05-13T10:00:00+02:00",
  afterSetup: async (o) => {
    const add = async (omschrijving: string, tags: string[]) => (await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen",
      o.w.members.eigenaar.apiKey, { org_id: o.w.org, omschrijving, tags })).confirmed.body.taak.nummer as number;
    both = await add("Beide tags", ["Alfa", "Beta"]);
    onlyA = await add("Alleen alfa", ["Alfa"]);
    closed = await add("Al klaar", []);
    await o.db.sql`select beheer.taak_afvinken(${o.w.org}, ${closed})`;
  },
});

const key = () => o.w.members.eigenaar.apiKey;

/** A GET with a query string exactly as written (no re-encoding of [ and ]). */
async function get(path: string, query: string) {
  const r = await fetch(`${o.baseUrl}${path}?org_id=${o.w.org}&${query}`, { headers: { authorization: `Bearer ${key()}` } });
  return { status: r.status, body: await r.json() as any };
}

/** A form POST with the body exactly as written. */
async function form(path: string, body: string) {
  const r = await fetch(`${o.baseUrl}${path}`, { method: "POST", body: `org_id=${o.w.org}&${body}`,
    headers: { authorization: `Bearer ${key()}`, "content-type": "application/x-www-form-urlencoded" } });
  return { status: r.status, body: await r.json() as any };
}

const numbers = (r: { body: { taken: { nummer: number }[] } }) => r.body.taken.map((t) => t.nummer).sort();

describe("lists", () => {
  const spellings = ["tags=Alfa&tags=Beta", "tags=Alfa,Beta", "tags[]=Alfa&tags[]=Beta", "tags%5B%5D=Alfa&tags%5B%5D=Beta",
    "tags[]=Alfa&tags=Beta"];
  for (const q of spellings) {
    it(`GET: ${q} is the list [Alfa, Beta]`, async () => {
      const r = await get("/api/v1/taken", q);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(numbers(r), [both]);
    });
  }
  it("GET: one tags[]= is a list of one", async () => {
    assert.deepEqual(numbers(await get("/api/v1/taken", "tags[]=alfa")), [both, onlyA].sort());
    // With the brackets a value is one element, commas and all: no task has the tag "Alfa,Beta".
    assert.deepEqual(numbers(await get("/api/v1/taken", "tags[]=Alfa,Beta")), []);
  });

  for (const q of spellings) {
    it(`form POST: ${q} is the list [Alfa, Beta]`, async () => {
      const r = await form("/api/v1/taak-toevoegen", `omschrijving=Lijst&${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.voorstel.tags, { nu: null, wordt: ["Alfa", "Beta"] });
    });
  }
  it("a code from one spelling confirms with another: it binds the meaning, not the spelling", async () => {
    const proposal = await form("/api/v1/taak-toevoegen", "omschrijving=Gespeld&tags[]=Alfa&tags[]=Beta");
    const confirmed = await form("/api/v1/taak-toevoegen", `omschrijving=Gespeld&tags=Alfa,Beta&bevestigcode=${proposal.body.bevestigcode}`);
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.deepEqual(confirmed.body.taak.tags, ["Alfa", "Beta"]);
  });
  it("JSON: a list, or a comma-separated text", async () => {
    for (const tags of [["Alfa", "Beta"], "Alfa,Beta"]) {
      const r = await request(o.baseUrl, "POST", "/api/v1/taak-toevoegen",
        { apiKey: key(), body: { org_id: o.w.org, omschrijving: "Json", tags } });
      assert.deepEqual(r.body.voorstel.tags, { nu: null, wordt: ["Alfa", "Beta"] }, JSON.stringify(tags));
    }
  });
});

describe("flags", () => {
  for (const [value, withClosed] of [["ja", true], ["true", true], ["TRUE", true], ["nee", false], ["false", false]] as const) {
    it(`GET: ook_afgesloten=${value}`, async () => {
      const r = await get("/api/v1/taken", `ook_afgesloten=${value}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(numbers(r).includes(closed), withClosed);
    });
  }
  it("GET: a value that is no flag is refused naming the parameter", async () => {
    const r = await get("/api/v1/taken", "ook_afgesloten=misschien");
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [400, "ongeldige_parameters", "ook_afgesloten"]);
  });

  const kpi = () => ({ naam: "Verloop", eigenaar_user_id: o.w.members.eigenaar.user_id, meetsoort: "stand", cadans: "month" });
  for (const [value, meaning] of [["ja", true], ["true", true], ["nee", false], ["false", false]] as const) {
    it(`form POST: lager_is_beter=${value}`, async () => {
      const r = await form("/api/v1/kpi-aanmaken", `${new URLSearchParams(kpi())}&lager_is_beter=${value}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.voorstel.lager_is_beter, { nu: null, wordt: meaning });
    });
  }
  for (const [value, meaning] of [["ja", true], ["true", true], [true, true], ["nee", false], ["false", false], [false, false]] as const) {
    it(`JSON: lager_is_beter ${JSON.stringify(value)}`, async () => {
      const r = await request(o.baseUrl, "POST", "/api/v1/kpi-aanmaken",
        { apiKey: key(), body: { org_id: o.w.org, ...kpi(), lager_is_beter: value } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.voorstel.lager_is_beter, { nu: null, wordt: meaning });
    });
  }
  it("JSON: a value that is no flag is refused naming the parameter", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/kpi-aanmaken",
      { apiKey: key(), body: { org_id: o.w.org, ...kpi(), lager_is_beter: 1 } });
    assert.deepEqual([r.status, r.body.fout.parameter], [400, "lager_is_beter"]);
  });
});
