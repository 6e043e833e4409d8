// The CLI for the AI connection, as real processes: a person created with a password by the CLI
// signs an assistant in, `koers mcp tokens` lists it, `koers mcp intrekken` revokes it and the
// assistant's next call answers 401.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { testDatabase, type TestDb } from "./helpers.ts";
import { runKoers, runKoersJson, type Finished } from "./processes.ts";
import { rawMcp, signInByHand, startKoersMcp, type KoersMcp } from "./mcp-helpers.ts";

let db: TestDb, koers: KoersMcp;

function koersCli(args: string[]): Promise<Finished> {
  return runKoers(args, { DATABASE_URL: db.url });
}
function json(args: string[]) {
  return runKoersJson(args, { DATABASE_URL: db.url });
}

before(async () => {
  db = await testDatabase();
  koers = await startKoersMcp(db.url);
});
after(async () => {
  await koers.stop();
  await db.drop();
});

describe("koers mcp", () => {
  it("tokens lists a person's connected assistants; intrekken revokes one, and its next call answers 401", async () => {
    const org = (await json(["org", "create", "--naam", "Zeilmakerij"])).org_id;
    await json(["user", "create", "--org", org, "--naam", "Sanne", "--email", "sanne@zeil.nl", "--rol", "mt", "--wachtwoord", "correct paard batterij niet"]);
    await json(["door", "set", "--org", org, "--door", "mcp", "--aan"]);
    await json(["section", "release", "--org", org, "team"]);

    assert.deepEqual(await json(["mcp", "tokens", "--org", org, "--user", "sanne@zeil.nl"]), []);
    const tokens = await signInByHand(koers.baseUrl, "sanne@zeil.nl");
    const call = () => rawMcp(koers.mcpUrl, { method: "tools/call", params: { name: "team", arguments: { org_id: org } } },
      { token: tokens.access_token });
    assert.equal((await call()).body.result.isError, undefined);

    const listed = await json(["mcp", "tokens", "--org", "Zeilmakerij", "--user", "sanne@zeil.nl"]);
    assert.equal(listed.length, 1);
    assert.deepEqual([listed[0].assistent, listed[0].client_id, listed[0].actief], ["Handmatig", tokens.client_id, true]);
    const text = await koersCli(["mcp", "tokens", "--org", org, "--user", "sanne@zeil.nl"]);
    assert.match(text.stdout, new RegExp(`^${listed[0].id}  active   Handmatig  http://127.0.0.1:8976/callback  connected `));
    assert.doesNotMatch(text.stdout + JSON.stringify(listed), /koers_(at|rt)_/, "no token is ever printed");

    const revoked = await koersCli(["mcp", "intrekken", "--id", listed[0].id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout.trim(), `connection ${listed[0].id} revoked`);
    const r = await call();
    assert.deepEqual([r.status, r.body.fout.code], [401, "sleutel_ingetrokken"]);
    const after = await json(["mcp", "tokens", "--org", org, "--user", "sanne@zeil.nl"]);
    assert.deepEqual([after[0].actief, after[0].reden_intrekking], [false, "beheer"]);
    assert.match((await koersCli(["mcp", "tokens", "--org", org, "--user", "sanne@zeil.nl"])).stdout, /revoked  Handmatig/);
  });

  it("refuses bad arguments (exit 2) and unknown connections or people (exit 1)", async () => {
    const bad = await koersCli(["mcp", "intrekken", "--id", "niet-een-id"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--id must be an id/);
    const missing = await koersCli(["mcp", "tokens", "--org", "Zeilmakerij"]);
    assert.equal(missing.code, 2);
    const unknown = await koersCli(["mcp", "intrekken", "--id", "00000000-0000-4000-8000-000000000000"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /bestaat niet/);
    const stranger = await koersCli(["mcp", "tokens", "--org", "Zeilmakerij", "--user", "niemand@zeil.nl"]);
    assert.equal(stranger.code, 1);
    assert.match(stranger.stderr, /geen lid/);
  });
});
