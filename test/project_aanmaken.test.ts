// POST /api/v1/project-aanmaken: the two-step rule end to end (a first call changes nothing; a
// second call with the code writes once; a wrong, expired, reused or mismatched code writes
// nothing) and every refusal code that applies to a write.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { laatsteAanroep, laatsteAanroepZonderOrg, maakWereld, startKoers, testDatabase, vraag,
  type Koers, type TestDb, type Wereld } from "./helpers.ts";

// 23:30 UTC on 13 May is already 14 May in Amsterdam: the organisation's time zone counts.
const NU = "2026-05-13T23:30:00Z";
const PLUS = (min: number) => new Date(Date.parse(NU) + min * 60_000).toISOString();

let db: TestDb, koers: Koers, w: Wereld, ander: Wereld;
before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NU });
  w = await maakWereld(db.sql);
  ander = await maakWereld(db.sql, "Ander BV");
});
after(async () => {
  await koers.stop();
  await db.ruimOp();
});

const post = (basis: string, sleutel: string | undefined, body: unknown) =>
  vraag(basis, "POST", "/api/v1/project-aanmaken", { sleutel, body });
const aantalProjecten = async () => (await db.sql`select count(*)::int as n from app.projecten`)[0]!.n as number;
const invoer = (extra: Record<string, unknown> = {}) =>
  ({ org_id: w.org, titel: "Nieuwe website", eigenaar_user_id: w.leden.mt.user_id, deadline: "2026-09-30", ...extra });

describe("project_aanmaken, two steps", () => {
  it("the first call proposes and changes nothing", async () => {
    const voor = await aantalProjecten();
    const auditVoor = (await db.sql`select count(*)::int as n from app.audit_log`)[0]!.n;
    const r = await post(koers.basis, w.leden.lid.sleutel, invoer({ omschrijving: "Nieuwe site live voor Q3" }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.voorstel, {
      titel: { nu: null, wordt: "Nieuwe website" },
      eigenaar: { nu: null, wordt: { user_id: w.leden.mt.user_id, naam: w.leden.mt.naam } },
      looptijd: { nu: null, wordt: { van: "2026-05-14", tot: "2026-09-30" } },
      omschrijving: { nu: null, wordt: "Nieuwe site live voor Q3" },
      besloten: { nu: null, wordt: false },
    });
    assert.match(r.body.bevestigcode, /^[A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}$/);
    assert.equal(r.body.geldig_tot, "2026-05-13T23:45:00Z");
    assert.equal(await aantalProjecten(), voor);
    assert.equal((await db.sql`select count(*)::int as n from app.audit_log`)[0]!.n, auditVoor);
  });

  it("the second call with the code writes once; the same code again returns the first result", async () => {
    const body = invoer({ titel: "Kantoor verhuizen" });
    const eerste = await post(koers.basis, w.leden.lid.sleutel, body);
    const voor = await aantalProjecten();
    const tweede = await post(koers.basis, w.leden.lid.sleutel, { ...body, bevestigcode: eerste.body.bevestigcode.toLowerCase() });
    assert.equal(tweede.status, 200);
    assert.equal(tweede.body.uitgevoerd, true);
    assert.deepEqual({ ...tweede.body.project, id: undefined }, {
      id: undefined, titel: "Kantoor verhuizen", omschrijving: null,
      eigenaar: { user_id: w.leden.mt.user_id, naam: w.leden.mt.naam },
      looptijd: { van: "2026-05-14", tot: "2026-09-30" }, besloten: false, open_taken: 0, uren: 0,
    });
    assert.equal(await aantalProjecten(), voor + 1);
    const nogmaals = await post(koers.basis, w.leden.lid.sleutel, { ...body, bevestigcode: eerste.body.bevestigcode });
    assert.equal(nogmaals.status, 200);
    assert.deepEqual(nogmaals.body, tweede.body);
    assert.equal(await aantalProjecten(), voor + 1);
    const [p] = await db.sql`select * from app.projecten where id = ${tweede.body.project.id}`;
    assert.equal(p!.aangemaakt_door, w.leden.lid.user_id);
    const leden = await db.sql`select user_id from app.project_leden where project_id = ${p!.id} order by user_id`;
    assert.deepEqual(leden.map((x) => x.user_id), [w.leden.lid.user_id, w.leden.mt.user_id].sort());
    const log = await laatsteAanroep(db.sql, w.org);
    assert.deepEqual([log.operatie, log.status, log.parameters.bevestigcode], ["project_aanmaken", 200, eerste.body.bevestigcode]);
  });

  async function codeWeigering(r: Awaited<ReturnType<typeof post>>, voor: number, bericht: RegExp) {
    assert.equal(r.status, 400);
    assert.equal(r.body.fout.code, "ongeldige_parameters");
    assert.equal(r.body.fout.parameter, "bevestigcode");
    assert.match(r.body.fout.bericht, bericht);
    assert.equal(await aantalProjecten(), voor);
    assert.equal((await laatsteAanroep(db.sql, w.org)).fout_code, "ongeldige_parameters");
  }

  it("a wrong code writes nothing", async () => {
    const voor = await aantalProjecten();
    await codeWeigering(await post(koers.basis, w.leden.lid.sleutel, invoer({ bevestigcode: "AAA-AAA" })), voor, /onbekend/);
  });

  it("an expired code writes nothing: valid for 15 minutes by the clock", async () => {
    const body = invoer({ titel: "Verloopt" });
    const { body: v } = await post(koers.basis, w.leden.lid.sleutel, body);
    const net = await startKoers(db.url, { now: PLUS(14.99) });
    const laat = await startKoers(db.url, { now: PLUS(15) });
    try {
      const voor = await aantalProjecten();
      await codeWeigering(await post(laat.basis, w.leden.lid.sleutel, { ...body, bevestigcode: v.bevestigcode }), voor, /verlopen/);
      const r = await post(net.basis, w.leden.lid.sleutel, { ...body, bevestigcode: v.bevestigcode });
      assert.equal(r.status, 200);
      assert.equal(await aantalProjecten(), voor + 1);
    } finally {
      await net.stop();
      await laat.stop();
    }
  });

  it("a used code with other input writes nothing", async () => {
    const body = invoer({ titel: "Eén keer" });
    const { body: v } = await post(koers.basis, w.leden.lid.sleutel, body);
    assert.equal((await post(koers.basis, w.leden.lid.sleutel, { ...body, bevestigcode: v.bevestigcode })).status, 200);
    const voor = await aantalProjecten();
    await codeWeigering(await post(koers.basis, w.leden.lid.sleutel,
      { ...body, titel: "Twee keer", bevestigcode: v.bevestigcode }), voor, /wijkt af/);
  });

  it("a code is bound to its caller and its input", async () => {
    const body = invoer({ titel: "Gebonden" });
    const { body: v } = await post(koers.basis, w.leden.lid.sleutel, body);
    const voor = await aantalProjecten();
    await codeWeigering(await post(koers.basis, w.leden.admin.sleutel, { ...body, bevestigcode: v.bevestigcode }), voor, /onbekend/);
    await codeWeigering(await post(koers.basis, w.leden.lid.sleutel,
      { ...body, deadline: "2026-10-01", bevestigcode: v.bevestigcode }), voor, /wijkt af/);
    await codeWeigering(await post(koers.basis, w.leden.lid.sleutel,
      { ...body, omschrijving: "extra", bevestigcode: v.bevestigcode }), voor, /wijkt af/);
  });

  it("a code is refused when what it would write changed since the proposal", async () => {
    const body = invoer({ titel: "Veranderd" });
    const { body: v } = await post(koers.basis, w.leden.lid.sleutel, body);
    await db.sql`update app.accounts set naam = 'Mt Hernoemd' where id = ${w.leden.mt.user_id}`;
    try {
      const voor = await aantalProjecten();
      await codeWeigering(await post(koers.basis, w.leden.lid.sleutel, { ...body, bevestigcode: v.bevestigcode }), voor, /veranderd/);
    } finally {
      await db.sql`update app.accounts set naam = ${w.leden.mt.naam} where id = ${w.leden.mt.user_id}`;
    }
  });
});

describe("project_aanmaken refusals", () => {
  async function weiger(r: Awaited<ReturnType<typeof post>>, status: number, code: string, org: string | null,
                        parameter?: string) {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.fout.code, code);
    if (parameter) assert.equal(r.body.fout.parameter, parameter);
    const log = org ? await laatsteAanroep(db.sql, org) : await laatsteAanroepZonderOrg(db.sql);
    assert.deepEqual([log.operatie, log.status, log.fout_code], ["project_aanmaken", status, code]);
  }

  it("401 geen_sleutel and 401 sleutel_ingetrokken", async () => {
    await weiger(await post(koers.basis, undefined, invoer()), 401, "geen_sleutel", null);
    const w2 = await maakWereld(db.sql, "Weg BV");
    await db.sql`select beheer.sleutel_intrekken(${w2.leden.eigenaar.sleutel_id})`;
    await weiger(await post(koers.basis, w2.leden.eigenaar.sleutel, invoer({ org_id: w2.org })), 401, "sleutel_ingetrokken", w2.org);
  });

  it("403 verkeerde_organisatie", async () =>
    weiger(await post(koers.basis, w.leden.eigenaar.sleutel, invoer({ org_id: ander.org })), 403, "verkeerde_organisatie", w.org));

  it("403 koppeling_uit, onderdeel_uit, alleen_lezen", async () => {
    try {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null)`;
      await weiger(await post(koers.basis, w.leden.eigenaar.sleutel, invoer()), 403, "koppeling_uit", w.org);
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
      await weiger(await post(koers.basis, w.leden.eigenaar.sleutel, invoer()), 403, "alleen_lezen", w.org);
      await db.sql`select beheer.secties_zetten(${w.org}, array['prioriteiten'], false)`;
      await weiger(await post(koers.basis, w.leden.eigenaar.sleutel, invoer()), 403, "onderdeel_uit", w.org);
    } finally {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`;
      await db.sql`select beheer.secties_zetten(${w.org}, array['prioriteiten'], true)`;
    }
  });

  it("403 rol_mag_niet for a coach, who may only read projects", async () => {
    const voor = await aantalProjecten();
    await weiger(await post(koers.basis, w.leden.coach.sleutel, invoer()), 403, "rol_mag_niet", w.org);
    assert.equal(await aantalProjecten(), voor);
  });

  const ongeldig: [string, Record<string, unknown>, string][] = [
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
  for (const [geval, extra, parameter] of ongeldig) {
    it(`400 ongeldige_parameters for ${geval}`, async () => {
      if (geval.includes("another organisation")) extra.eigenaar_user_id = ander.leden.mt.user_id;
      const voor = await aantalProjecten();
      await weiger(await post(koers.basis, w.leden.eigenaar.sleutel, invoer(extra)), 400, "ongeldige_parameters", w.org, parameter);
      assert.equal(await aantalProjecten(), voor);
    });
  }

  it("a deadline of today is accepted (in the organisation's time zone)", async () => {
    const r = await post(koers.basis, w.leden.eigenaar.sleutel, invoer({ deadline: "2026-05-14" }));
    assert.equal(r.status, 200);
  });

  it("400 for a body that is not JSON, 413 te_groot for a body over the limit", async () => {
    const r = await vraag(koers.basis, "POST", "/api/v1/project-aanmaken", { sleutel: w.leden.eigenaar.sleutel, ruweBody: "{titel" });
    await weiger(r, 400, "ongeldige_parameters", w.org);
    const klein = await startKoers(db.url, { now: NU, bodyLimit: 1024 });
    try {
      const groot = await post(klein.basis, w.leden.eigenaar.sleutel, invoer({ omschrijving: "x".repeat(2000) }));
      await weiger(groot, 413, "te_groot", w.org);
    } finally {
      await klein.stop();
    }
  });

  it("404 onbekend_endpoint for GET on a write", async () => {
    const r = await vraag(koers.basis, "GET", "/api/v1/project-aanmaken", { sleutel: w.leden.eigenaar.sleutel });
    assert.equal(r.status, 404);
    assert.equal(r.body.fout.code, "onbekend_endpoint");
  });
});
