// taak_toevoegen, taak_bijwerken, taken, taak_geschiedenis and projecten over HTTP, with every
// refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld, writeTwoStep } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
let task: { id: string; nummer: number }, project: string;
const o = setupWorld({
  now: NOW,
  afterSetup: async (o) => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/project-aanmaken", o.w.members.mt.apiKey,
      { org_id: o.w.org, titel: "Website", eigenaar_user_id: o.w.members.mt.user_id });
    project = confirmed.body.project.id;
  },
});

describe("taak_toevoegen", () => {
  it("adds a task in a project in two steps, with size, week and tags", async () => {
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.lid.apiKey, {
      org_id: o.w.org, project_id: project, omschrijving: "Teksten schrijven", grootte: "groot", week: "deze", tags: ["Web", "web", "Tekst"] });
    assert.deepEqual(proposal.body.voorstel.inschatting_uren, { nu: null, wordt: 24 });
    assert.deepEqual(proposal.body.voorstel.week, { nu: null, wordt: "2026-W20" });
    assert.equal(confirmed.status, 200);
    task = confirmed.body.taak;
    assert.deepEqual(confirmed.body.taak.tags, ["Tekst", "Web"]);
    assert.deepEqual(confirmed.body.taak.hoort_bij, { soort: "project", id: project, titel: "Website" });
  });
  it("a subtask one layer deep", async () => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.lid.apiKey,
      { org_id: o.w.org, onder_taak_nummer: task.nummer, omschrijving: "Homepage" });
    assert.equal(confirmed.body.taak.onder_taak_nummer, task.nummer);
    const tooDeep = await request(o.baseUrl, "POST", "/api/v1/taak-toevoegen", { apiKey: o.w.members.lid.apiKey,
      body: { org_id: o.w.org, onder_taak_nummer: confirmed.body.taak.nummer, omschrijving: "Te diep" } });
    assert.deepEqual([tooDeep.status, tooDeep.body.fout.parameter], [400, "onder_taak_nummer"]);
  });
  refusalTests(() => o, { operation: "taak_toevoegen", invalid: [{ week: "2026-W19" }, "week"], input: () => ({ omschrijving: "X" }) });
});

describe("taak_bijwerken", () => {
  it("shows per field what stands now and what it becomes, then writes exactly that", async () => {
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-bijwerken", o.w.members.lid.apiKey,
      { org_id: o.w.org, taak_id: task.id, stand: "voltooid", tags: [], inschatting_uren: "3" });
    assert.deepEqual(proposal.body.voorstel.stand, { nu: "open", wordt: "klaar" });
    assert.deepEqual(proposal.body.voorstel.tags, { nu: ["Tekst", "Web"], wordt: [] });
    assert.deepEqual(proposal.body.voorstel.inschatting_uren, { nu: 24, wordt: 3 });
    assert.deepEqual([confirmed.body.taak.stand, confirmed.body.taak.tags, confirmed.body.taak.inschatting_uren], ["klaar", [], 3]);
    const events = await o.db.sql`select soort from app.gebeurtenissen where onderwerp_id = ${task.id} order by tijdstip, soort`;
    assert.deepEqual(events.map((e) => e.soort), ["taak.aangemaakt", "taak.klaar"]);
  });
  it("a coach may not", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/taak-bijwerken",
      { apiKey: o.w.members.coach.apiKey, body: { org_id: o.w.org, taak_id: task.id, stand: "open" } });
    assert.deepEqual([r.status, r.body.fout.code], [403, "rol_mag_niet"]);
  });
  refusalTests(() => o, { operation: "taak_bijwerken", invalid: [{ stand: "klaar" }, "stand"], input: () => ({ taak_id: task.id, stand: "open" }) });
});

describe("taken", () => {
  it("lists open tasks by default and one task by number whatever its stand", async () => {
    const open = await request(o.baseUrl, "GET", "/api/v1/taken", { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org } });
    assert.equal(open.status, 200);
    assert.deepEqual(open.body.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Homepage"]);
    assert.equal(open.body.afgekapt, false);
    const one = await request(o.baseUrl, "GET", "/api/v1/taken",
      { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org, nummer: String(task.nummer), soort: "los" } });
    assert.deepEqual(one.body.taken.map((t: { stand: string }) => t.stand), ["klaar"]);
  });
  it("tags in a query string, repeated or comma-separated", async () => {
    await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.lid.apiKey, { org_id: o.w.org, omschrijving: "Getagd", tags: ["A", "B"] });
    const u = new URL("/api/v1/taken", o.baseUrl);
    u.searchParams.append("org_id", o.w.org);
    u.searchParams.append("tags", "a");
    u.searchParams.append("tags", "B");
    const r = await fetch(u, { headers: { authorization: `Bearer ${o.w.members.lid.apiKey}` } }).then((x) => x.json());
    assert.deepEqual(r.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Getagd"]);
    const c = await request(o.baseUrl, "GET", "/api/v1/taken", { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org, tags: "a,b" } });
    assert.deepEqual(c.body.taken.map((t: { omschrijving: string }) => t.omschrijving), ["Getagd"]);
  });
  refusalTests(() => o, { operation: "taken", invalid: [{ soort: "alles" }, "soort"], input: () => ({}) });
});

describe("taak_geschiedenis", () => {
  it("newest first, with who, when, old and new", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/taak-geschiedenis",
      { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org, nummer: String(task.nummer) } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.geschiedenis.map((g: { soort: string }) => g.soort), ["tags", "stand", "subtaken", "aangemaakt"]);
    assert.deepEqual(r.body.geschiedenis[1], { soort: "stand", door: { user_id: o.w.members.lid.user_id, naam: o.w.members.lid.name },
      tijdstip: "2026-05-14T08:00:00+00:00", oud: "open", nieuw: "klaar" });
  });
  refusalTests(() => o, { operation: "taak_geschiedenis", invalid: [{ nummer: "een" }, "nummer"], input: () => ({ nummer: task.nummer }) });
});

describe("projecten", () => {
  it("running projects with open tasks and hours", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/projecten", { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.projecten.map((p: { titel: string; open_taken: number }) => [p.titel, p.open_taken]), [["Website", 1]]);
  });
  refusalTests(() => o, { operation: "projecten", invalid: [{ titel: "x" }, "titel"], input: () => ({}) });
});
