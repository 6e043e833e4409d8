// taak_toevoegen, taak_bijwerken, taken, taak_geschiedenis and projecten over HTTP, with every
// refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { omgeving, schrijf, vraag, weigeringen } from "./helpers.ts";

const NU = "2026-05-14T10:00:00+02:00";
let taak: { id: string; nummer: number }, project: string;
const o = omgeving({
  now: NU,
  daarna: async (o) => {
    const { uitgevoerd } = await schrijf(o.basis, "/api/v1/project-aanmaken", o.w.leden.mt.sleutel,
      { org_id: o.w.org, titel: "Website", eigenaar_user_id: o.w.leden.mt.user_id });
    project = uitgevoerd.body.project.id;
  },
});

describe("taak_toevoegen", () => {
  it("adds a task in a project in two steps, with size, week and tags", async () => {
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/taak-toevoegen", o.w.leden.lid.sleutel, {
      org_id: o.w.org, project_id: project, omschrijving: "Teksten schrijven", grootte: "groot", week: "deze", tags: ["Web", "web", "Tekst"] });
    assert.deepEqual(voorstel.body.voorstel.inschatting_uren, { nu: null, wordt: 24 });
    assert.deepEqual(voorstel.body.voorstel.week, { nu: null, wordt: "2026-W20" });
    assert.equal(uitgevoerd.status, 200);
    taak = uitgevoerd.body.taak;
    assert.deepEqual(uitgevoerd.body.taak.tags, ["Tekst", "Web"]);
    assert.deepEqual(uitgevoerd.body.taak.hoort_bij, { soort: "project", id: project, titel: "Website" });
  });
  it("a subtask one layer deep", async () => {
    const { uitgevoerd } = await schrijf(o.basis, "/api/v1/taak-toevoegen", o.w.leden.lid.sleutel,
      { org_id: o.w.org, onder_taak_nummer: taak.nummer, omschrijving: "Homepage" });
    assert.equal(uitgevoerd.body.taak.onder_taak_nummer, taak.nummer);
    const dieper = await vraag(o.basis, "POST", "/api/v1/taak-toevoegen", { sleutel: o.w.leden.lid.sleutel,
      body: { org_id: o.w.org, onder_taak_nummer: uitgevoerd.body.taak.nummer, omschrijving: "Te diep" } });
    assert.deepEqual([dieper.status, dieper.body.fout.parameter], [400, "onder_taak_nummer"]);
  });
  weigeringen(() => o, { naam: "taak_toevoegen", methode: "POST", pad: "/api/v1/taak-toevoegen", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: true, ongeldig: [{ week: "2026-W19" }, "week"], invoer: () => ({ omschrijving: "X" }) });
});

describe("taak_bijwerken", () => {
  it("shows per field what stands now and what it becomes, then writes exactly that", async () => {
    const { voorstel, uitgevoerd } = await schrijf(o.basis, "/api/v1/taak-bijwerken", o.w.leden.lid.sleutel,
      { org_id: o.w.org, taak_id: taak.id, stand: "voltooid", tags: [], inschatting_uren: "3" });
    assert.deepEqual(voorstel.body.voorstel.stand, { nu: "open", wordt: "klaar" });
    assert.deepEqual(voorstel.body.voorstel.tags, { nu: ["Tekst", "Web"], wordt: [] });
    assert.deepEqual(voorstel.body.voorstel.inschatting_uren, { nu: 24, wordt: 3 });
    assert.deepEqual([uitgevoerd.body.taak.stand, uitgevoerd.body.taak.tags, uitgevoerd.body.taak.inschatting_uren], ["klaar", [], 3]);
    const events = await o.db.sql`select soort from app.gebeurtenissen where onderwerp_id = ${taak.id} order by tijdstip, soort`;
    assert.deepEqual(events.map((e) => e.soort), ["taak.aangemaakt", "taak.klaar"]);
  });
  it("a coach may not", async () => {
    const r = await vraag(o.basis, "POST", "/api/v1/taak-bijwerken",
      { sleutel: o.w.leden.coach.sleutel, body: { org_id: o.w.org, taak_id: taak.id, stand: "open" } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });
  weigeringen(() => o, { naam: "taak_bijwerken", methode: "POST", pad: "/api/v1/taak-bijwerken", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: true, ongeldig: [{ stand: "klaar" }, "stand"], invoer: () => ({ taak_id: taak.id, stand: "open" }) });
});

describe("taken", () => {
  it("lists open tasks by default and one task by number whatever its stand", async () => {
    const open = await vraag(o.basis, "GET", "/api/v1/taken", { sleutel: o.w.leden.coach.sleutel, query: { org_id: o.w.org } });
    assert.equal(open.status, 200);
    assert.deepEqual(open.body.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Homepage"]);
    assert.equal(open.body.afgekapt, false);
    const een = await vraag(o.basis, "GET", "/api/v1/taken",
      { sleutel: o.w.leden.coach.sleutel, query: { org_id: o.w.org, nummer: String(taak.nummer), soort: "los" } });
    assert.deepEqual(een.body.taken.map((t: { stand: string }) => t.stand), ["klaar"]);
  });
  it("tags in a query string, repeated or comma-separated", async () => {
    await schrijf(o.basis, "/api/v1/taak-toevoegen", o.w.leden.lid.sleutel, { org_id: o.w.org, omschrijving: "Getagd", tags: ["A", "B"] });
    const u = new URL("/api/v1/taken", o.basis);
    u.searchParams.append("org_id", o.w.org);
    u.searchParams.append("tags", "a");
    u.searchParams.append("tags", "B");
    const r = await fetch(u, { headers: { authorization: `Bearer ${o.w.leden.lid.sleutel}` } }).then((x) => x.json());
    assert.deepEqual(r.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Getagd"]);
    const c = await vraag(o.basis, "GET", "/api/v1/taken", { sleutel: o.w.leden.lid.sleutel, query: { org_id: o.w.org, tags: "a,b" } });
    assert.deepEqual(c.body.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Getagd"]);
  });
  weigeringen(() => o, { naam: "taken", methode: "GET", pad: "/api/v1/taken", sectie: "prioriteiten", module: "prioriteiten",
    schrijft: false, ongeldig: [{ soort: "alles" }, "soort"], invoer: () => ({}) });
});

describe("taak_geschiedenis", () => {
  it("newest first, with who, when, old and new", async () => {
    const r = await vraag(o.basis, "GET", "/api/v1/taak-geschiedenis",
      { sleutel: o.w.leden.lid.sleutel, query: { org_id: o.w.org, nummer: String(taak.nummer) } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.geschiedenis.map((g: { soort: string }) => g.soort), ["tags", "stand", "subtaken", "aangemaakt"]);
    assert.deepEqual(r.body.geschiedenis[1], { soort: "stand", door: { user_id: o.w.leden.lid.user_id, naam: o.w.leden.lid.naam },
      tijdstip: "2026-05-14T08:00:00+00:00", oud: "open", nieuw: "klaar" });
  });
  weigeringen(() => o, { naam: "taak_geschiedenis", methode: "GET", pad: "/api/v1/taak-geschiedenis", sectie: "prioriteiten",
    module: "prioriteiten", schrijft: false, ongeldig: [{ nummer: "een" }, "nummer"], invoer: () => ({ nummer: taak.nummer }) });
});

describe("projecten", () => {
  it("running projects with open tasks and hours", async () => {
    const r = await vraag(o.basis, "GET", "/api/v1/projecten", { sleutel: o.w.leden.lid.sleutel, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.projecten.map((p: { titel: string; open_taken: number }) => [p.titel, p.open_taken]), [["Website", 1]]);
  });
  weigeringen(() => o, { naam: "projecten", methode: "GET", pad: "/api/v1/projecten", sectie: "prioriteiten", module: "projecten",
    schrijft: false, ongeldig: [{ titel: "x" }, "titel"], invoer: () => ({}) });
});
