// GET /api/v1/wie-ben-ik and the REST machinery around it: the index, OpenAPI, key shapes,
// and a call-log row for every call, refused ones included.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { lastCall, lastCallWithoutOrg, makeWorld, request, startKoers, testDatabase,
  type Koers, type TestDb, type World } from "./helpers.ts";
import { createApiKey } from "../src/api-key.ts";
import { restOperations as operations, restPath } from "../src/registry.ts";

let db: TestDb, koers: Koers, w: World;
before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url);
  w = await makeWorld(db.sql);
});
after(async () => {
  await koers.stop();
  await db.drop();
});

describe("the index", () => {
  it("lists every endpoint of the registry with its parameters, without a key", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.endpoints.map((e: { pad: string }) => e.pad), operations.map(restPath));
    const project = r.body.endpoints.find((e: { operatie: string }) => e.operatie === "project_aanmaken");
    assert.equal(project.methode, "POST");
    assert.deepEqual(project.parameters.map((p: { naam: string }) => p.naam),
      ["org_id", "titel", "eigenaar_user_id", "deadline", "omschrijving", "bevestigcode"]);
    assert.deepEqual(project.parameters.find((p: { naam: string }) => p.naam === "titel"),
      { naam: "titel", type: "string", verplicht: true, toelichting: "Naam van het project." });
  });

  it("serves an OpenAPI document generated from the same registry", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1/openapi.json");
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, "3.1.0");
    assert.deepEqual(Object.keys(r.body.paths).sort(), operations.map(restPath).sort());
    assert.deepEqual(r.body.paths["/api/v1/project-aanmaken"].post.requestBody.content["application/json"].schema.required,
      ["org_id", "titel", "eigenaar_user_id"]);
  });
});

describe("wie_ben_ik", () => {
  it("answers 200 with the key's organisation and person", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: w.members.lid.apiKey });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      organisatie: { org_id: w.org, naam: "Acme BV" },
      gebruiker: { user_id: w.members.lid.user_id, naam: w.members.lid.name, rol: "lid" },
      sleutel_id: w.members.lid.key_id,
      door: "rest",
    });
    const log = await lastCall(db.sql, w.org);
    assert.equal(log.operatie, "wie_ben_ik");
    assert.equal(log.status, 200);
    assert.equal(log.user_id, w.members.lid.user_id);
    assert.equal(log.sleutel_id, w.members.lid.key_id);
    assert.ok(Number(log.duur_ms) >= 0);
  });

  const noKeyCases: [string, Record<string, string>][] = [
    ["no Authorization header", {}],
    ["not a Bearer header", { authorization: "Basic abc" }],
    ["not shaped like a Koers key", { authorization: "Bearer sk_live_1234" }],
    ["a Koers-shaped key with a wrong checksum", { authorization: `Bearer ${createApiKey().key.slice(0, -1)}x` }],
    ["a well-formed key that does not exist", { authorization: `Bearer ${createApiKey().key}` }],
  ];
  for (const [label, headers] of noKeyCases) {
    it(`answers 401 geen_sleutel for ${label}, logged without organisation`, async () => {
      const countBefore = (await db.sql`select count(*)::int as n from app_private.aanroepen_zonder_org`)[0]!.n;
      const r = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { headers });
      assert.equal(r.status, 401);
      assert.equal(r.body.fout.code, "geen_sleutel");
      assert.match(r.body.fout.bericht, /Bearer/);
      assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="koers"', "how to authenticate (RFC 6750)");
      const countAfter = (await db.sql`select count(*)::int as n from app_private.aanroepen_zonder_org`)[0]!.n;
      assert.equal(countAfter, countBefore + 1);
      const log = await lastCallWithoutOrg(db.sql);
      assert.deepEqual([log.operatie, log.status, log.fout_code], ["wie_ben_ik", 401, "geen_sleutel"]);
    });
  }

  it("answers 401 sleutel_ingetrokken for a revoked key, in the organisation's log", async () => {
    const w2 = await makeWorld(db.sql, "Ingetrokken BV");
    await db.sql`select beheer.sleutel_intrekken(${w2.members.mt.key_id})`;
    const r = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: w2.members.mt.apiKey });
    assert.equal(r.status, 401);
    assert.equal(r.body.fout.code, "sleutel_ingetrokken");
    assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="koers", error="invalid_token"');
    const log = await lastCall(db.sql, w2.org);
    assert.deepEqual([log.operatie, log.status, log.fout_code, log.sleutel_id],
      ["wie_ben_ik", 401, "sleutel_ingetrokken", w2.members.mt.key_id]);
  });

  it("answers 403 koppeling_uit when the REST door is off", async () => {
    const w3 = await makeWorld(db.sql, "Deur Dicht BV");
    await db.sql`select beheer.koppeling_zetten(${w3.org}, 'rest', false, null)`;
    const r = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: w3.members.eigenaar.apiKey });
    assert.equal(r.status, 403);
    assert.equal(r.body.fout.code, "koppeling_uit");
    assert.equal((await lastCall(db.sql, w3.org)).fout_code, "koppeling_uit");
  });

  it("answers 404 onbekend_endpoint for an address that does not exist, logged too", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-jij", { apiKey: w.members.lid.apiKey });
    assert.equal(r.status, 404);
    assert.equal(r.body.fout.code, "onbekend_endpoint");
    const log = await lastCall(db.sql, w.org);
    assert.deepEqual([log.operatie, log.status, log.fout_code], ["GET /api/v1/wie-ben-jij", 404, "onbekend_endpoint"]);
    const withoutKey = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-jij");
    assert.equal(withoutKey.status, 404);
    assert.equal((await lastCallWithoutOrg(db.sql)).fout_code, "onbekend_endpoint");
    // A known address with a method it does not take is 405, also without a key.
    const wrongMethod = await request(koers.baseUrl, "POST", "/api/v1/wie-ben-ik");
    assert.deepEqual([wrongMethod.status, wrongMethod.body.fout.code, wrongMethod.headers.get("allow")],
      [405, "methode_niet_toegestaan", "GET, HEAD"]);
    assert.equal((await lastCallWithoutOrg(db.sql)).fout_code, "methode_niet_toegestaan");
  });
});

describe("the caller of a call", () => {
  it("counts in its own transaction only: the setting of an earlier call impersonates nobody later", async () => {
    const { doorUrl } = await import("../src/db/connection.ts");
    const { parseApiKey } = await import("../src/api-key.ts");
    const postgres = (await import("postgres")).default;
    const door = postgres(await doorUrl(db.url), { max: 1, onnotice: () => {} });
    try {
      const hash = Buffer.from(parseApiKey(w.members.eigenaar.apiKey)!);
      // A call, and what its setting said while it ran (the door can read its own setting).
      const wijzer = await door.begin(async (tx) => {
        const [a] = await tx`select api.aanroep('rest', ${hash}, 'team', ${tx.json({ org_id: w.org })}) as r`;
        assert.equal(a!.r.status, 200);
        const [s] = await tx`select current_setting('koers.aanroep', true) as w,
                                    (select o.org from app_hidden.mijn_org() o) as org`;
        assert.equal(s!.org, w.org, "while the call runs, the policies see its organisation");
        return s!.w as string;
      });
      assert.match(wijzer, new RegExp(`^${w.org}/`));
      // The same backend, a later transaction, the same setting: nobody.
      const [later] = await door.begin(async (tx) => tx`
        select set_config('koers.aanroep', ${wijzer}, true) as w,
               (select o.org from app_hidden.mijn_org() o) as org,
               (select count(*)::int from app_hidden.beller_nu) as bellers,
               (select count(*)::int from app.lidmaatschappen) as leden`);
      assert.deepEqual({ org: later!.org, bellers: later!.bellers, leden: later!.leden }, { org: null, bellers: 0, leden: 0 });
    } finally {
      await door.end();
    }
  });
});
