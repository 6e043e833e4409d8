// weektaken, weektaak_toevoegen and dagprioriteiten_zetten over HTTP, with every refusal that applies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { refusalTests, request, setupWorld, writeTwoStep } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({ now: NOW });

describe("weektaak_toevoegen", () => {
  it("puts a task on the caller's board this week", async () => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/weektaak-toevoegen", o.w.members.lid.apiKey, { org_id: o.w.org, titel: "Klant bellen" });
    assert.deepEqual([confirmed.body.weektaak.week, confirmed.body.weektaak.status], ["2026-W20", "nieuw"]);
  });
  it("for a colleague only as owner, admin or MT", async () => {
    const r = await request(o.baseUrl, "POST", "/api/v1/weektaak-toevoegen",
      { apiKey: o.w.members.lid.apiKey, body: { org_id: o.w.org, titel: "Voor mt", voor_user_id: o.w.members.mt.user_id } });
    assert.deepEqual([r.status, r.body.fout.code, r.body.fout.parameter], [403, "rol_mag_niet", "voor_user_id"]);
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/weektaak-toevoegen", o.w.members.mt.apiKey,
      { org_id: o.w.org, titel: "Voor lid", voor_user_id: o.w.members.lid.user_id, week: "volgende" });
    assert.equal(confirmed.body.weektaak.week, "2026-W21");
  });
  refusalTests(() => o, { operation: "weektaak_toevoegen", invalid: [{ week: "2026-W19" }, "week"], input: () => ({ titel: "X" }) });
});

describe("weektaken", () => {
  it("a member sees their own board; a coach may not see boards", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1/weektaken", { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.borden.map((b: { persoon: { naam: string }; taken: unknown[] }) => [b.persoon.naam, b.taken.length]),
      [[o.w.members.lid.name, 1]]);
    const coach = await request(o.baseUrl, "GET", "/api/v1/weektaken", { apiKey: o.w.members.coach.apiKey, query: { org_id: o.w.org } });
    assert.deepEqual([coach.status, coach.body.fout.code], [403, "rol_mag_niet"]);
  });
  refusalTests(() => o, { operation: "weektaken", invalid: [{ week: "2026-W60" }, "week"], input: () => ({}) });
});

describe("dagprioriteiten_zetten", () => {
  it("sets the day's priorities; one not given stays", async () => {
    await writeTwoStep(o.baseUrl, "/api/v1/dagprioriteiten-zetten", o.w.members.lid.apiKey, { org_id: o.w.org, prioriteit_1: "Offerte", prioriteit_2: "Bellen" });
    const { proposal, confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/dagprioriteiten-zetten", o.w.members.lid.apiKey,
      { org_id: o.w.org, prioriteit_2: "Mailen" });
    assert.deepEqual(proposal.body.voorstel.prioriteit_2, { nu: "Bellen", wordt: "Mailen" });
    assert.deepEqual(confirmed.body.dagprioriteiten, { datum: "2026-05-14", prioriteiten: ["Offerte", "Mailen", null] });
  });
  refusalTests(() => o, { operation: "dagprioriteiten_zetten", invalid: [{ datum: "morgen" }, "datum"], input: () => ({ prioriteit_1: "X" }) });
});
