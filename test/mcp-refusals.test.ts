// Refusal parity: the registry walked operation by operation, every refusal kind that applies
// made on the REST door and on the MCP door, with the same fout code and a call-log row on
// each (door rest, door mcp). The AI door's refusals before the MCP layer (no or a revoked
// token) are HTTP 401 with a WWW-Authenticate challenge; the others are tool results with
// isError and the fout. Permission for one door is not permission for the other.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { makeWorld, request, revokedMember, testDatabase, type Member, type TestDb, type World } from "./helpers.ts";
import { aiDoorOn, email, rawMcp, signInByHand, startKoersMcp, type KoersMcp } from "./mcp-helpers.ts";
import { mcpOperations, restPath, httpMethod, type Operation } from "../src/registry.ts";

let db: TestDb;
let koers: KoersMcp;
let w: World;
let other: World;
let revoked: Member;
let ownerToken: string;
let revokedToken: string;

before(async () => {
  db = await testDatabase();
  koers = await startKoersMcp(db.url);
  w = await makeWorld(db.sql);
  other = await makeWorld(db.sql, "Ander BV");
  revoked = await revokedMember(db.sql, w);
  await aiDoorOn(db.sql, w, other);
  ownerToken = (await signInByHand(koers.baseUrl, await email(db.sql, w.members.eigenaar))).access_token;
  revokedToken = (await signInByHand(koers.baseUrl, await email(db.sql, w.members.admin))).access_token;
  await db.sql`select beheer.mcp_verbinding_intrekken(verbinding_id) from app_private.mcp_tokens t
    join app_private.mcp_verbindingen v on v.id = t.verbinding_id
    where v.user_id = ${w.members.admin.user_id}`;
});
after(async () => {
  await koers.stop();
  await db.drop();
});

interface Outcome { code: string; parameter?: string; status: number }

async function lastRow(sql: postgres.Sql, org: string | null, door: string) {
  const [r] = org
    ? await sql`select * from app_private.aanroepen where org_id = ${org} and door = ${door} order by tijdstip desc limit 1`
    : await sql`select * from app_private.aanroepen_zonder_org where door = ${door} order by tijdstip desc limit 1`;
  assert.ok(r, `a call-log row (${door})`);
  return r;
}

async function viaRest(o: Operation, apiKey: string | undefined, input: Record<string, unknown>): Promise<Outcome> {
  const r = httpMethod(o) === "GET"
    ? await request(koers.baseUrl, "GET", restPath(o), { apiKey, query: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) })
    : await request(koers.baseUrl, "POST", restPath(o), { apiKey, body: input });
  assert.ok(r.body?.fout, `REST ${o.name}: ${JSON.stringify(r.body)}`);
  return { code: r.body.fout.code, parameter: r.body.fout.parameter, status: r.status };
}

/** A tool call as an assistant makes it; the status is the HTTP one for 401, else the call log's. */
async function viaMcp(o: Operation, token: string | undefined, input: Record<string, unknown>): Promise<Outcome> {
  const r = await rawMcp(koers.mcpUrl, { method: "tools/call", params: { name: o.name, arguments: input } }, { token });
  if (r.status === 401) {
    assert.match(r.headers.get("www-authenticate") ?? "",
      new RegExp(`^Bearer resource_metadata="${koers.baseUrl}/.well-known/oauth-protected-resource/mcp"`));
    return { code: r.body.fout.code, parameter: r.body.fout.parameter, status: 401 };
  }
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const result = r.body.result;
  assert.equal(result.isError, true, `MCP ${o.name}: ${JSON.stringify(result)}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  const f = result.structuredContent.fout;
  return { code: f.code, parameter: f.parameter, status: 0 };
}

/** Both doors refuse with the same code (and parameter), each with its own call-log row. */
async function parity(o: Operation, expected: { code: string; status: number; parameter?: string; org: string | null },
                      rest: () => Promise<Outcome>, mcp: () => Promise<Outcome>) {
  const r = await rest();
  const restLog = await lastRow(db.sql, expected.org, "rest");
  const m = await mcp();
  const mcpLog = await lastRow(db.sql, expected.org, "mcp");
  assert.deepEqual([r.code, r.status, r.parameter], [expected.code, expected.status, expected.parameter], "REST");
  assert.deepEqual([m.code, m.parameter], [expected.code, expected.parameter], "MCP");
  if (m.status) assert.equal(m.status, expected.status);
  for (const [door, log] of [["rest", restLog], ["mcp", mcpLog]] as const) {
    assert.deepEqual([log.door, log.operatie, log.status, log.fout_code], [door, o.name, expected.status, expected.code], `${door} call log`);
  }
}

const orgInput = (o: Operation, org = w.org) => ((o.requiresOrg ?? true) ? { org_id: org } : {});

async function withSetting(set: () => Promise<unknown>, reset: () => Promise<unknown>, work: () => Promise<void>) {
  await set();
  try { await work(); } finally { await reset(); }
}

for (const o of mcpOperations) {
  describe(`${o.name}: refusals on both doors`, () => {
    if (o.onlyMcp) {
      it("does not exist on the REST door", async () => {
        const r = await request(koers.baseUrl, httpMethod(o), restPath(o), { apiKey: w.members.eigenaar.apiKey });
        assert.deepEqual([r.status, r.body.fout.code], [404, "onbekend_endpoint"]);
      });
    }
    // Only on the AI door: the refusal and its call-log row, without a REST counterpart.
    const check = o.onlyMcp
      ? async (expected: { code: string; status: number; parameter?: string; org: string | null }, _rest: () => Promise<Outcome>, mcp: () => Promise<Outcome>) => {
          const m = await mcp();
          const log = await lastRow(db.sql, expected.org, "mcp");
          assert.deepEqual([m.code, m.parameter], [expected.code, expected.parameter]);
          if (m.status) assert.equal(m.status, expected.status);
          assert.deepEqual([log.door, log.operatie, log.status, log.fout_code], ["mcp", o.name, expected.status, expected.code]);
        }
      : (e: Parameters<typeof parity>[1], r: () => Promise<Outcome>, m: () => Promise<Outcome>) => parity(o, e, r, m);

    it("401 geen_sleutel: no credential", () => check({ code: "geen_sleutel", status: 401, org: null },
      () => viaRest(o, undefined, orgInput(o)), () => viaMcp(o, undefined, orgInput(o))));
    it("401 sleutel_ingetrokken: a revoked key, a revoked connection", () => check({ code: "sleutel_ingetrokken", status: 401, org: w.org },
      () => viaRest(o, revoked.apiKey, orgInput(o)), () => viaMcp(o, revokedToken, orgInput(o))));
    if (o.requiresOrg ?? true) {
      it("403 verkeerde_organisatie: an organisation of someone else", () =>
        check({ code: "verkeerde_organisatie", status: 403, parameter: "org_id", org: w.org },
          () => viaRest(o, w.members.eigenaar.apiKey, orgInput(o, other.org)), () => viaMcp(o, ownerToken, orgInput(o, other.org))));
    }
    it("403 koppeling_uit: each door has its own switch", () => withSetting(
      () => db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null), beheer.koppeling_zetten(${w.org}, 'mcp', false, null)`,
      () => db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, null), beheer.koppeling_zetten(${w.org}, 'mcp', true, null)`,
      async () => {
        await check({ code: "koppeling_uit", status: 403, org: w.org },
          () => viaRest(o, w.members.eigenaar.apiKey, orgInput(o)), () => viaMcp(o, ownerToken, orgInput(o)));
        // The REST switch does not open the AI door.
        await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, null)`;
        assert.equal((await viaMcp(o, ownerToken, orgInput(o))).code, "koppeling_uit");
      }));
    if (o.section) {
      it("403 onderdeel_uit: the section is not released", () => withSetting(
        () => db.sql`select beheer.secties_zetten(${w.org}, array[${o.section}], false)`,
        () => db.sql`select beheer.secties_zetten(${w.org}, array[${o.section}], true)`,
        () => check({ code: "onderdeel_uit", status: 403, org: w.org },
          () => viaRest(o, w.members.eigenaar.apiKey, orgInput(o)), () => viaMcp(o, ownerToken, orgInput(o)))));
    }
    it("403 rol_mag_niet: the module is switched off", () => withSetting(
      () => db.sql`insert into app.modules (org_id, module, aan) values (${w.org}, ${o.module}, false)`,
      () => db.sql`delete from app.modules where org_id = ${w.org} and module = ${o.module}`,
      () => check({ code: "rol_mag_niet", status: 403, org: w.org },
        () => viaRest(o, w.members.eigenaar.apiKey, orgInput(o)), () => viaMcp(o, ownerToken, orgInput(o)))));
    if (o.writes) {
      it("403 alleen_lezen: the door is read only", () => withSetting(
        () => db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true), beheer.koppeling_zetten(${w.org}, 'mcp', true, true)`,
        () => db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false), beheer.koppeling_zetten(${w.org}, 'mcp', true, false)`,
        () => check({ code: "alleen_lezen", status: 403, org: w.org },
          () => viaRest(o, w.members.eigenaar.apiKey, orgInput(o)), () => viaMcp(o, ownerToken, orgInput(o)))));
    }
    it("400 ongeldige_parameters: the database checks the input for both doors", () =>
      check({ code: "ongeldige_parameters", status: 400, parameter: "bestaat_niet", org: w.org },
        () => viaRest(o, w.members.eigenaar.apiKey, { ...orgInput(o), bestaat_niet: "x" }),
        () => viaMcp(o, ownerToken, { ...orgInput(o), bestaat_niet: "x" })));
  });
}

describe("one door's credential is no credential at the other", () => {
  it("an API key is refused at /mcp", async () => {
    const r = await rawMcp(koers.mcpUrl, { method: "tools/list" }, { token: w.members.eigenaar.apiKey });
    assert.deepEqual([r.status, r.body.fout.code], [401, "geen_sleutel"]);
    assert.match(r.headers.get("www-authenticate")!, /error="invalid_token"/);
  });
  it("an access token is refused at /api/v1", async () => {
    const r = await request(koers.baseUrl, "GET", "/api/v1/team", { apiKey: ownerToken, query: { org_id: w.org } });
    assert.deepEqual([r.status, r.body.fout.code], [401, "geen_sleutel"]);
  });
  it("a tool call answered by the door writes nothing to the REST log", async () => {
    const before = (await db.sql`select count(*)::int as n from app_private.aanroepen where door = 'rest'`)[0]!.n;
    const r = await rawMcp(koers.mcpUrl, { method: "tools/call", params: { name: "team", arguments: { org_id: w.org } } }, { token: ownerToken });
    assert.equal(r.body.result.isError, undefined);
    assert.equal((await db.sql`select count(*)::int as n from app_private.aanroepen where door = 'rest'`)[0]!.n, before);
  });
});
