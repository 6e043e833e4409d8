// CORS over real HTTP: the documents are readable from any web page, API calls with a bearer key
// are allowed from any origin (no credentials: no cookies are involved), and preflights are
// answered for every address with its own methods, never with 405.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { operations, restPath, httpMethod } from "../src/registry.ts";
import { request, setupWorld } from "./helpers.ts";

const o = setupWorld();
const ORIGIN = "https://rapport.example.com";
const EXPOSED = ["X-Request-Id", "RateLimit", "RateLimit-Policy", "Retry-After"];

async function preflight(path: string, method: string, headers = "authorization, content-type") {
  return fetch(`${o.baseUrl}${path}`, { method: "OPTIONS", headers: {
    origin: ORIGIN, "access-control-request-method": method, "access-control-request-headers": headers } });
}

function assertCrossOrigin(h: Headers, what: string) {
  assert.equal(h.get("access-control-allow-origin"), "*", what);
  assert.equal(h.get("access-control-allow-credentials"), null, `${what}: no credentials`);
  const exposed = (h.get("access-control-expose-headers") ?? "").split(",").map((x) => x.trim().toLowerCase());
  for (const name of EXPOSED) assert.ok(exposed.includes(name.toLowerCase()), `${what} exposes ${name}`);
}

async function callsWithoutOrg(): Promise<number> {
  const [r] = await o.db.sql`select count(*)::int as n from app_private.aanroepen_zonder_org`;
  return r!.n;
}

describe("CORS", () => {
  for (const path of ["/api/v1", "/api/v1/openapi.json", "/api/v1/docs"]) {
    it(`${path} is readable from any web page`, async () => {
      const r = await fetch(`${o.baseUrl}${path}`, { headers: { origin: ORIGIN } });
      assert.equal(r.status, 200);
      assertCrossOrigin(r.headers, path);
      const p = await preflight(path, "GET", "content-type");
      assert.equal(p.status, 204);
      assert.match(p.headers.get("access-control-allow-methods") ?? "", /\bGET\b/);
    });
  }

  it("preflights are answered for every operation with its method and the headers a call needs, without a log row", async () => {
    const before = await callsWithoutOrg();
    for (const op of operations.filter((x) => !x.onlyMcp)) {
      const r = await preflight(restPath(op), httpMethod(op));
      assert.equal(r.status, 204, op.name);
      assertCrossOrigin(r.headers, op.name);
      assert.equal(r.headers.get("access-control-allow-methods"), httpMethod(op) === "GET" ? "GET, HEAD" : "POST", op.name);
      const allowed = (r.headers.get("access-control-allow-headers") ?? "").toLowerCase();
      assert.match(allowed, /\bauthorization\b/, op.name);
      assert.match(allowed, /\bcontent-type\b/, op.name);
      assert.ok(Number(r.headers.get("access-control-max-age")) > 0, op.name);
      assert.equal(await r.text(), "");
    }
    assert.equal(await callsWithoutOrg(), before, "a preflight is no call");
  });

  it("an OPTIONS that is no preflight is a method the address does not take: 405 with Allow, logged", async () => {
    const r = await fetch(`${o.baseUrl}/api/v1/taak-toevoegen`, { method: "OPTIONS" });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "POST");
    assert.equal((await r.json() as any).fout.code, "methode_niet_toegestaan");
  });

  it("OPTIONS on an address that does not exist is 404 onbekend_endpoint, logged", async () => {
    const r = await preflight("/api/v1/bestaat-niet", "GET");
    assert.equal(r.status, 404);
    assert.equal((await r.json() as any).fout.code, "onbekend_endpoint");
    assertCrossOrigin(r.headers, "404");
    const [log] = await o.db.sql`select operatie, fout_code from app_private.aanroepen_zonder_org order by tijdstip desc limit 1`;
    assert.deepEqual([log!.operatie, log!.fout_code], ["OPTIONS /api/v1/bestaat-niet", "onbekend_endpoint"]);
  });

  it("an API call with a bearer key from another origin gets its answer, and so does its refusal", async () => {
    const read = await request(o.baseUrl, "GET", "/api/v1/team",
      { apiKey: o.w.members.lid.apiKey, query: { org_id: o.w.org }, headers: { origin: ORIGIN } });
    assert.equal(read.status, 200);
    assertCrossOrigin(read.headers, "GET team");
    const write = await request(o.baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey: o.w.members.eigenaar.apiKey,
      headers: { origin: ORIGIN }, body: { org_id: o.w.org, titel: "Dashboard", eigenaar_user_id: o.w.members.eigenaar.user_id } });
    assert.equal(write.status, 200);
    assert.ok(write.body.bevestigcode);
    assertCrossOrigin(write.headers, "POST project-aanmaken");
    const refused = await request(o.baseUrl, "GET", "/api/v1/team", { query: { org_id: o.w.org }, headers: { origin: ORIGIN } });
    assert.equal(refused.status, 401);
    assertCrossOrigin(refused.headers, "401");
  });

  it("a wrong method is still 405 methode_niet_toegestaan with Allow", async () => {
    const r = await fetch(`${o.baseUrl}/api/v1/team`, { method: "DELETE", headers: { origin: ORIGIN } });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "GET, HEAD");
    assert.equal((await r.json() as any).fout.code, "methode_niet_toegestaan");
    assertCrossOrigin(r.headers, "405");
  });
});
