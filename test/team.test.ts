// GET /api/v1/team, complete as the interface describes it, and every refusal code that applies
// to a read, each with its status, fout code and call-log row.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, lastCallWithoutOrg, makeWorld, request, startKoers, testDatabase,
  type Koers, type TestDb, type World } from "./helpers.ts";

let db: TestDb, koers: Koers, w: World, other: World;
before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url);
  w = await makeWorld(db.sql);
  other = await makeWorld(db.sql, "Ander BV");
});
after(async () => {
  await koers.stop();
  await db.drop();
});

const team = (apiKey: string | undefined, query: Record<string, string>) =>
  request(koers.baseUrl, "GET", "/api/v1/team", { apiKey, query });

describe("team", () => {
  it("without teams: members, processes, open roles, members without a role; no team keys", async () => {
    const r = await team(w.members.coach.apiKey, { org_id: w.org });
    assert.equal(r.status, 200);
    assert.equal(r.body.leden.length, 5);
    assert.ok(!("teams" in r.body));
    assert.ok(r.body.leden.every((l: object) => !("team" in l)));
    assert.deepEqual(r.body.processen, []);
    assert.deepEqual(r.body.open_rollen, []);
    assert.equal(r.body.zonder_rol.length, 5);
  });

  it("with teams, processes and role seats", async () => {
    const s = db.sql;
    const e = w.members.eigenaar.user_id, l = w.members.lid.user_id;
    const [t] = await s`insert into app.teams (org_id, naam, leider_user_id) values (${w.org}, 'Verkoop', ${e}) returning id`;
    await s`update app.lidmaatschappen set team_id = ${t!.id}, functietitel = 'Verkoper' where org_id = ${w.org} and user_id = ${l}`;
    const [p] = await s`insert into app.processen (org_id, naam, eindverantwoordelijke_user_id) values (${w.org}, 'Verkopen', ${e}) returning id`;
    await s`insert into app.rollen (org_id, proces_id, naam, user_id) values
      (${w.org}, ${p!.id}, 'Accountmanager', ${l}), (${w.org}, ${p!.id}, 'Binnendienst', null)`;

    const r = await team(w.members.lid.apiKey, { org_id: w.org });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.teams, [{ id: t!.id, naam: "Verkoop", leider: { user_id: e, naam: w.members.eigenaar.name } }]);
    const member = r.body.leden.find((x: { user_id: string }) => x.user_id === l);
    assert.deepEqual(member, { user_id: l, naam: w.members.lid.name, rol: "lid", functietitel: "Verkoper",
      team: { id: t!.id, naam: "Verkoop" } });
    assert.equal(r.body.leden.find((x: { user_id: string }) => x.user_id === e).team, null);
    assert.equal(r.body.processen.length, 1);
    assert.deepEqual(r.body.processen[0].eindverantwoordelijke, { user_id: e, naam: w.members.eigenaar.name });
    assert.deepEqual(r.body.processen[0].rollen.map((x: { naam: string; wie: unknown }) => [x.naam, x.wie]), [
      ["Accountmanager", { user_id: l, naam: w.members.lid.name }],
      ["Binnendienst", null],
    ]);
    assert.deepEqual(r.body.open_rollen.map((x: { naam: string; proces: string }) => [x.naam, x.proces]),
      [["Binnendienst", "Verkopen"]]);
    // eigenaar leads the process and lid sits on a role: three members remain without a role.
    assert.deepEqual(r.body.zonder_rol.map((x: { user_id: string }) => x.user_id).sort(),
      [w.members.admin.user_id, w.members.mt.user_id, w.members.coach.user_id].sort());
  });

  it("never shows another organisation's members", async () => {
    const r = await team(other.members.eigenaar.apiKey, { org_id: other.org });
    assert.ok(r.body.leden.every((x: { naam: string }) => x.naam.endsWith("Ander BV")));
  });
});

describe("team refusals", () => {
  async function expectRefused(status: number, code: string, r: Awaited<ReturnType<typeof team>>, org: string | null,
                        parameter?: string) {
    assert.equal(r.status, status);
    assert.equal(r.body.fout.code, code);
    assert.equal(typeof r.body.fout.bericht, "string");
    if (parameter) assert.equal(r.body.fout.parameter, parameter);
    const log = org ? await lastCall(db.sql, org) : await lastCallWithoutOrg(db.sql);
    assert.deepEqual([log.status, log.fout_code], [status, code]);
  }

  it("401 geen_sleutel", async () => expectRefused(401, "geen_sleutel", await team(undefined, { org_id: w.org }), null));

  it("401 sleutel_ingetrokken, before any other check", async () => {
    const w2 = await makeWorld(db.sql, "Oud BV");
    await db.sql`select beheer.sleutel_intrekken(${w2.members.admin.key_id})`;
    await expectRefused(401, "sleutel_ingetrokken", await team(w2.members.admin.apiKey, { org_id: w.org }), w2.org);
  });

  it("403 verkeerde_organisatie, logged in the key's organisation", async () =>
    expectRefused(403, "verkeerde_organisatie", await team(w.members.admin.apiKey, { org_id: other.org }), w.org, "org_id"));

  it("403 koppeling_uit", async () => {
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null)`;
    try {
      await expectRefused(403, "koppeling_uit", await team(w.members.admin.apiKey, { org_id: w.org }), w.org);
    } finally {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, null)`;
    }
  });

  it("403 onderdeel_uit when the team section is not released", async () => {
    await db.sql`select beheer.secties_zetten(${w.org}, array['team'], false)`;
    try {
      await expectRefused(403, "onderdeel_uit", await team(w.members.eigenaar.apiKey, { org_id: w.org }), w.org);
    } finally {
      await db.sql`select beheer.secties_zetten(${w.org}, array['team'], true)`;
    }
  });

  it("403 rol_mag_niet when the role may not (organisation rule) or the module is off", async () => {
    await db.sql`insert into app.org_rechten (org_id, operatie, rol, recht) values (${w.org}, 'team', 'coach', 'geen')`;
    await expectRefused(403, "rol_mag_niet", await team(w.members.coach.apiKey, { org_id: w.org }), w.org);
    assert.equal((await team(w.members.lid.apiKey, { org_id: w.org })).status, 200);
    await db.sql`insert into app.modules (org_id, module, aan) values (${w.org}, 'team', false)`;
    try {
      await expectRefused(403, "rol_mag_niet", await team(w.members.eigenaar.apiKey, { org_id: w.org }), w.org);
    } finally {
      await db.sql`delete from app.modules where org_id = ${w.org}`;
      await db.sql`delete from app.org_rechten where org_id = ${w.org}`;
    }
  });

  it("400 ongeldige_parameters naming the parameter", async () => {
    await expectRefused(400, "ongeldige_parameters", await team(w.members.lid.apiKey, {}), w.org, "org_id");
    await expectRefused(400, "ongeldige_parameters", await team(w.members.lid.apiKey, { org_id: "acme" }), w.org, "org_id");
    await expectRefused(400, "ongeldige_parameters", await team(w.members.lid.apiKey, { org_id: w.org, kwartaal: "Q1-2026" }),
      w.org, "kwartaal");
  });

  it("405 methode_niet_toegestaan for a wrong method, 404 onbekend_endpoint for a wrong address", async () => {
    await expectRefused(405, "methode_niet_toegestaan",
      await request(koers.baseUrl, "POST", "/api/v1/team", { apiKey: w.members.lid.apiKey, body: { org_id: w.org } }), w.org);
    await expectRefused(404, "onbekend_endpoint",
      await request(koers.baseUrl, "GET", "/api/v1/teams", { apiKey: w.members.lid.apiKey, query: { org_id: w.org } }), w.org);
  });

  it("alleen_lezen does not stop a read", async () => {
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
    try {
      assert.equal((await team(w.members.lid.apiKey, { org_id: w.org })).status, 200);
    } finally {
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`;
    }
  });
});
