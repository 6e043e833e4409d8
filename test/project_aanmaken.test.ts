// POST /api/v1/project-aanmaken: the two-step rule end to end (a first call changes nothing; a
// second call with the code writes once; a wrong, expired, reused or mismatched code writes
// nothing) and every refusal code that applies to a write.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, lastCallWithoutOrg, makeWorld, request, startKoers, testDatabase,
  type Koers, type TestDb, type World } from "./helpers.ts";

// 23:30 UTC on 13 May is already 14 May in Amsterdam: the organisation's time zone counts.
const NOW = "2026-05-13T23:30:00Z";
const plusMinutes = (min: number) => new Date(Date.parse(NOW) + min * 60_000).toISOString();

let db: TestDb, koers: Koers, w: World, other: World;
before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NOW });
  w = await makeWorld(db.sql);
  other = await makeWorld(db.sql, "Ander BV");
});
after(async () => {
  await koers.stop();
  await db.drop();
});

const post = (baseUrl: string, apiKey: string | undefined, body: unknown) =>
  request(baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey, body });
const projectCount = async () => (await db.sql`select count(*)::int as n from app.projecten`)[0]!.n as number;
const input = (extra: Record<string, unknown> = {}) =>
  ({ org_id: w.org, titel: "Nieuwe website", eigenaar_user_id: w.members.mt.user_id, deadline: "2026-09-30", ...extra });

describe("project_aanmaken, two steps", () => {
  it("the first call proposes and changes nothing", async () => {
    const countBefore = await projectCount();
    const auditBefore = (await db.sql`select count(*)::int as n from app.audit_log`)[0]!.n;
    const r = await post(koers.baseUrl, w.members.lid.apiKey, input({ omschrijving: "Nieuwe site live voor Q3" }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.voorstel, {
      titel: { nu: null, wordt: "Nieuwe website" },
      eigenaar: { nu: null, wordt: { user_id: w.members.mt.user_id, naam: w.members.mt.name } },
      looptijd: { nu: null, wordt: { van: "2026-05-14", tot: "2026-09-30" } },
      omschrijving: { nu: null, wordt: "Nieuwe site live voor Q3" },
      besloten: { nu: null, wordt: false },
    });
    assert.match(r.body.bevestigcode, /^[A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}$/);
    assert.equal(r.body.geldig_tot, "2026-05-13T23:45:00Z");
    assert.equal(await projectCount(), countBefore);
    assert.equal((await db.sql`select count(*)::int as n from app.audit_log`)[0]!.n, auditBefore);
  });

  it("the second call with the code writes once; the same code again returns the first result", async () => {
    const body = input({ titel: "Kantoor verhuizen" });
    const first = await post(koers.baseUrl, w.members.lid.apiKey, body);
    const countBefore = await projectCount();
    const second = await post(koers.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: first.body.bevestigcode.toLowerCase() });
    assert.equal(second.status, 200);
    assert.equal(second.body.uitgevoerd, true);
    assert.deepEqual({ ...second.body.project, id: undefined }, {
      id: undefined, titel: "Kantoor verhuizen", omschrijving: null,
      eigenaar: { user_id: w.members.mt.user_id, naam: w.members.mt.name },
      looptijd: { van: "2026-05-14", tot: "2026-09-30" }, besloten: false, open_taken: 0, uren: 0,
    });
    assert.equal(await projectCount(), countBefore + 1);
    const again = await post(koers.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: first.body.bevestigcode });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, second.body);
    assert.equal(await projectCount(), countBefore + 1);
    const [p] = await db.sql`select * from app.projecten where id = ${second.body.project.id}`;
    assert.equal(p!.aangemaakt_door, w.members.lid.user_id);
    const projectMembers = await db.sql`select user_id from app.project_leden where project_id = ${p!.id} order by user_id`;
    assert.deepEqual(projectMembers.map((x) => x.user_id), [w.members.lid.user_id, w.members.mt.user_id].sort());
    const log = await lastCall(db.sql, w.org);
    assert.deepEqual([log.operatie, log.status, log.parameters.bevestigcode], ["project_aanmaken", 200, first.body.bevestigcode]);
  });

  async function expectCodeRefused(r: Awaited<ReturnType<typeof post>>, countBefore: number, message: RegExp) {
    assert.equal(r.status, 400);
    assert.equal(r.body.fout.code, "ongeldige_parameters");
    assert.equal(r.body.fout.parameter, "bevestigcode");
    assert.match(r.body.fout.bericht, message);
    assert.equal(await projectCount(), countBefore);
    assert.equal((await lastCall(db.sql, w.org)).fout_code, "ongeldige_parameters");
  }

  it("a wrong code writes nothing", async () => {
    const countBefore = await projectCount();
    await expectCodeRefused(await post(koers.baseUrl, w.members.lid.apiKey, input({ bevestigcode: "AAA-AAA" })), countBefore, /onbekend/);
  });

  it("an expired code writes nothing: valid for 15 minutes by the clock", async () => {
    const body = input({ titel: "Verloopt" });
    const { body: v } = await post(koers.baseUrl, w.members.lid.apiKey, body);
    const justInTime = await startKoers(db.url, { now: plusMinutes(14.99) });
    const late = await startKoers(db.url, { now: plusMinutes(15) });
    try {
      const countBefore = await projectCount();
      await expectCodeRefused(await post(late.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: v.bevestigcode }), countBefore, /verlopen/);
      const r = await post(justInTime.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: v.bevestigcode });
      assert.equal(r.status, 200);
      assert.equal(await projectCount(), countBefore + 1);
    } finally {
      await justInTime.stop();
      await late.stop();
    }
  });

  it("a used code with other input writes nothing", async () => {
    const body = input({ titel: "Eén keer" });
    const { body: v } = await post(koers.baseUrl, w.members.lid.apiKey, body);
    assert.equal((await post(koers.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: v.bevestigcode })).status, 200);
    const countBefore = await projectCount();
    await expectCodeRefused(await post(koers.baseUrl, w.members.lid.apiKey,
      { ...body, titel: "Twee keer", bevestigcode: v.bevestigcode }), countBefore, /wijkt af/);
  });

  it("a code is bound to its caller and its input", async () => {
    const body = input({ titel: "Gebonden" });
    const { body: v } = await post(koers.baseUrl, w.members.lid.apiKey, body);
    const countBefore = await projectCount();
    await expectCodeRefused(await post(koers.baseUrl, w.members.admin.apiKey, { ...body, bevestigcode: v.bevestigcode }), countBefore, /onbekend/);
    await expectCodeRefused(await post(koers.baseUrl, w.members.lid.apiKey,
      { ...body, deadline: "2026-10-01", bevestigcode: v.bevestigcode }), countBefore, /wijkt af/);
    await expectCodeRefused(await post(koers.baseUrl, w.members.lid.apiKey,
      { ...body, omschrijving: "extra", bevestigcode: v.bevestigcode }), countBefore, /wijkt af/);
  });

  it("a code is refused when what it would write changed since the proposal", async () => {
    const body = input({ titel: "Veranderd" });
    const { body: v } = await post(koers.baseUrl, w.members.lid.apiKey, body);
    await db.sql`update app.accounts set naam = 'Mt Hernoemd' where id = ${w.members.mt.user_id}`;
    try {
      const countBefore = await projectCount();
      await expectCodeRefused(await post(koers.baseUrl, w.members.lid.apiKey, { ...body, bevestigcode: v.bevestigcode }), countBefore, /veranderd/);
    } finally {
      await db.sql`update app.accounts set naam = ${w.members.mt.name} where id = ${w.members.mt.user_id}`;
    }
  });
});

describe("project_aanmaken refusals", () => {
  async function expectRefused(r: Awaited<ReturnType<typeof post>>, status: number, code: string, org: string | null,
                        parameter?: string) {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.fout.code, code);
    if (parameter) assert.equal(r.body.fout.parameter, parameter);
    const log = org ? await lastCall(db.sql, org) : await lastCallWithoutOrg(db.sql);
    assert.deepEqual([log.operatie, log.status, log.fout_code], ["project_aanmaken", status, code]);
  }

  it("401 geen_sleutel and 401 sleutel_ingetrokken", async () => {
    await expectRefused(await post(koers.baseUrl, undefined, input()), 401, "geen_sleutel", null);
    const w2 = await makeWorld(db.sql, "Weg BV");
    await db.sql`select beheer.sleutel_intrekken(${w2.members.eigenaar.key_id})`;
    await expectRefused(await post(koers.baseUrl, w2.members.eigenaar.apiKey, input({ org_id: w2.org })), 401, "sleutel_ingetrokken", w2.org);
  });

  it("403 verkeerde_organisatie", async () =>
    expectRefused(await post(koers.baseUrl, w.members.eigenaar.apiKey, input({ org_id: other.org })), 403, "verkeerde_organisatie", w.org));

  it("403 koppeling_uit, onderdeel_uit, alleen_lezen", async () => {
    try {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null)`;
      await expectRefused(await post(koers.baseUrl, w.members.eigenaar.apiKey, input()), 403, "koppeling_uit", w.org);
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
      await expectRefused(await post(koers.baseUrl, w.members.eigenaar.apiKey, input()), 403, "alleen_lezen", w.org);
      await db.sql`select beheer.secties_zetten(${w.org}, array['prioriteiten'], false)`;
      await expectRefused(await post(koers.baseUrl, w.members.eigenaar.apiKey, input()), 403, "onderdeel_uit", w.org);
    } finally {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`;
      await db.sql`select beheer.secties_zetten(${w.org}, array['prioriteiten'], true)`;
    }
  });

  it("403 rol_mag_niet for a coach, who may only read projects", async () => {
    const countBefore = await projectCount();
    await expectRefused(await post(koers.baseUrl, w.members.coach.apiKey, input()), 403, "rol_mag_niet", w.org);
    assert.equal(await projectCount(), countBefore);
  });

  const invalidCases: [string, Record<string, unknown>, string][] = [
    ["a missing titel", { titel: undefined }, "titel"],
    ["an empty titel", { titel: "  " }, "titel"],
    ["a titel over 200 characters", { titel: "x".repeat(201) }, "titel"],
    ["an eigenaar that is not a uuid", { eigenaar_user_id: "mt" }, "eigenaar_user_id"],
    ["an eigenaar from another organisation", { eigenaar_user_id: "" }, "eigenaar_user_id"],
    ["a deadline that is no date", { deadline: "30-09-2026" }, "deadline"],
    ["a deadline that does not exist", { deadline: "2026-02-30" }, "deadline"],
    ["a deadline before today", { deadline: "2026-05-13" }, "deadline"],
    ["an unknown parameter", { prioriteit: "hoog" }, "prioriteit"],
    ["a malformed org_id", { org_id: "acme" }, "org_id"],
  ];
  for (const [label, extra, parameter] of invalidCases) {
    it(`400 ongeldige_parameters for ${label}`, async () => {
      if (label.includes("another organisation")) extra.eigenaar_user_id = other.members.mt.user_id;
      const countBefore = await projectCount();
      await expectRefused(await post(koers.baseUrl, w.members.eigenaar.apiKey, input(extra)), 400, "ongeldige_parameters", w.org, parameter);
      assert.equal(await projectCount(), countBefore);
    });
  }

  it("a deadline of today is accepted (in the organisation's time zone)", async () => {
    const r = await post(koers.baseUrl, w.members.eigenaar.apiKey, input({ deadline: "2026-05-14" }));
    assert.equal(r.status, 200);
  });

  it("400 for a body that is not JSON, 413 te_groot for a body over the limit", async () => {
    const r = await request(koers.baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey: w.members.eigenaar.apiKey, rawBody: "{titel" });
    await expectRefused(r, 400, "ongeldige_parameters", w.org);
    const smallLimit = await startKoers(db.url, { now: NOW, bodyLimit: 1024 });
    try {
      const tooLarge = await post(smallLimit.baseUrl, w.members.eigenaar.apiKey, input({ omschrijving: "x".repeat(2000) }));
      await expectRefused(tooLarge, 413, "te_groot", w.org);
    } finally {
      await smallLimit.stop();
    }
  });

  it("405 methode_niet_toegestaan for GET on a write", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1/project-aanmaken", { apiKey: w.members.eigenaar.apiKey });
    assert.equal(r.status, 405);
    assert.equal(r.body.fout.code, "methode_niet_toegestaan");
    assert.equal(r.headers.get("allow"), "POST");
  });
});
