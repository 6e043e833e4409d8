// X-Request-Id: every answer carries one, the client's own when it is a sane value, else a new
// one; a call stores it in its call-log row (in the organisation's log or in the log of calls
// without organisation), and `koers log` shows it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { lastCall, lastCallWithoutOrg, request, setupWorld } from "./helpers.ts";
import { runKoers } from "./processes.ts";

const o = setupWorld();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const wieBenIk = (headers: Record<string, string> = {}, apiKey: string | null = o.w.members.lid.apiKey) =>
  request(o.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: apiKey ?? undefined, headers });

/** An HTTP request written straight to the socket; the raw answer. */
function rawHttp(text: string): Promise<string> {
  const { hostname, port } = new URL(o.baseUrl);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    socket.setEncoding("utf8");
    socket.on("data", (d) => { answer += d; });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5000, () => { socket.destroy(); reject(new Error("no answer")); });
  });
}

describe("X-Request-Id", () => {
  it("a sane id from the client is answered and stored with the call", async () => {
    for (const id of ["abc-123", "req_7f3a.2:x", "01HZX3J6Q9Z7M2V4K8B5N1C0DE", "a/b+c=d@host", "x".repeat(128)]) {
      const r = await wieBenIk({ "x-request-id": id });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("x-request-id"), id);
      assert.equal((await lastCall(o.db.sql, o.w.org)).verzoek_id, id);
    }
  });

  it("without one, or with one that is not sane, a new id is made", async () => {
    const notSane = ["", " ", "a b", "x".repeat(129), "-begint-met-streep", "über", "<script>", "a;b", "a\"b",
      "koers_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345678901", "Bearer-abc"];
    const seen = new Set<string>();
    for (const id of [undefined, ...notSane]) {
      const r = await wieBenIk(id === undefined ? {} : { "x-request-id": id });
      assert.equal(r.status, 200);
      const answered = r.headers.get("x-request-id")!;
      assert.match(answered, UUID, `for ${JSON.stringify(id)}`);
      assert.ok(!seen.has(answered), "a new id every time");
      seen.add(answered);
      assert.equal((await lastCall(o.db.sql, o.w.org)).verzoek_id, answered);
    }
    const [{ n }] = await o.db.sql`select count(*)::int as n from app_private.aanroepen
      where verzoek_id ilike '%koers_live%' or verzoek_id ilike '%bearer%'` as unknown as [{ n: number }];
    assert.equal(n, 0, "nothing shaped like a key reaches the log");
  });

  it("a refused call without organisation stores it too", async () => {
    const r = await wieBenIk({ "x-request-id": "zonder-org-1" }, null);
    assert.equal(r.status, 401);
    assert.equal(r.headers.get("x-request-id"), "zonder-org-1");
    const log = await lastCallWithoutOrg(o.db.sql);
    assert.deepEqual([log.fout_code, log.verzoek_id], ["geen_sleutel", "zonder-org-1"]);
  });

  it("every kind of answer carries one", async () => {
    const key = o.w.members.eigenaar.apiKey;
    const answers = [
      await request(o.baseUrl, "GET", "/api/v1"),
      await request(o.baseUrl, "GET", "/api/v1/openapi.json"),
      await request(o.baseUrl, "GET", "/api/v1/bestaat-niet", { apiKey: key }),
      await request(o.baseUrl, "POST", "/api/v1/team", { apiKey: key, body: {} }),
      await request(o.baseUrl, "POST", "/api/v1/project-aanmaken", { apiKey: key, rawBody: "{" }),
      await request(o.baseUrl, "POST", "/api/v1/project-aanmaken",
        { apiKey: key, rawBody: JSON.stringify({ titel: "x".repeat(300 * 1024) }) }),
      await request(o.baseUrl, "GET", "/api/v1/team", { apiKey: key, query: { org_id: o.w.org } }),
    ];
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 404, 405, 400, 413, 200]);
    for (const a of answers) assert.match(a.headers.get("x-request-id") ?? "", UUID);
    const bad = await fetch(`${o.baseUrl}/api/v1/team?org_id=%zz`,
      { headers: { "x-request-id": "kapot-adres", authorization: `Bearer ${key}` } });
    assert.deepEqual([bad.status, bad.headers.get("x-request-id")], [400, "kapot-adres"]);
    const badPath = await fetch(`${o.baseUrl}/api/v1/te%zz`, { headers: { "x-request-id": "kapot-pad" } });
    assert.deepEqual([badPath.status, badPath.headers.get("x-request-id"), (await badPath.json()).fout.code],
      [400, "kapot-pad", "ongeldig_verzoek"]);
    assert.equal((await lastCallWithoutOrg(o.db.sql)).verzoek_id, "kapot-pad");
  });

  it("an answer Node writes to the socket itself (malformed HTTP) carries one, stored in the log", async () => {
    const answer = await rawHttp("GET /api/v1/team HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 400 /);
    const id = /\r\nX-Request-Id: ([^\r]+)\r\n/i.exec(answer)?.[1];
    assert.match(id ?? "", UUID);
    assert.equal((await lastCallWithoutOrg(o.db.sql)).verzoek_id, id);
  });

  it("koers log shows the request id", async () => {
    const r = await wieBenIk({ "x-request-id": "terug-te-vinden-42" });
    assert.equal(r.status, 200);
    const run = (args: string[]) => runKoers(args, { DATABASE_URL: o.db.url });
    const text = await run(["log", "--org", o.w.org, "--limit", "3"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout.split("\n")[0]!, /wie_ben_ik .*request terug-te-vinden-42$/);
    const json = await run(["log", "--org", o.w.org, "--limit", "1", "--json"]);
    assert.equal(JSON.parse(json.stdout)[0].verzoek_id, "terug-te-vinden-42");
  });
});
