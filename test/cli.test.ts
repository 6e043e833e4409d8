// Every `koers` CLI command, run as a real process against the test database.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { request, startKoers, testDatabase, type Koers, type TestDb } from "./helpers.ts";
import { runKoers, runKoersJson, type Finished } from "./processes.ts";

let db: TestDb, koers: Koers;

function koersCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runKoers(args, { DATABASE_URL: db.url, ...env });
}
function json(args: string[]) {
  return runKoersJson(args, { DATABASE_URL: db.url });
}

before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url);
});
after(async () => {
  await koers.stop();
  await db.drop();
});

describe("koers CLI", () => {
  let org: string, anna: string, apiKey: string, keyId: string;

  it("org create", async () => {
    const r = await json(["org", "create", "--naam", "Bakkerij Koers"]);
    assert.equal(r.naam, "Bakkerij Koers");
    assert.equal(r.tijdzone, "Europe/Amsterdam");
    org = r.org_id;
    const text = await koersCli(["org", "create", "--naam", "Tweede BV", "--tijdzone", "Europe/London"]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /organisation created: Tweede BV \(org_id [0-9a-f-]{36}\)/);
  });

  it("user create, with team and function title; by organisation name too", async () => {
    const r = await json(["user", "create", "--org", org, "--naam", "Anna de Vries", "--email", "anna@bakkerij.nl",
      "--rol", "eigenaar", "--functietitel", "Directeur", "--team", "Directie", "--wachtwoord", "geheim123"]);
    assert.deepEqual({ ...r, user_id: undefined }, { user_id: undefined, naam: "Anna de Vries", email: "anna@bakkerij.nl",
      rol: "eigenaar", functietitel: "Directeur", team: "Directie" });
    anna = r.user_id;
    const [acc] = await db.sql`select wachtwoord_hash from app.accounts where id = ${anna}`;
    assert.match(acc!.wachtwoord_hash, /^scrypt\$/);
    const bram = await json(["user", "create", "--org", "Bakkerij Koers", "--naam", "Bram", "--email", "bram@bakkerij.nl", "--rol", "lid"]);
    assert.equal(bram.team, null);
  });

  it("key create prints the key once; only its hash is stored", async () => {
    const r = await json(["key", "create", "--org", org, "--user", "anna@bakkerij.nl"]);
    assert.match(r.sleutel, /^koers_live_[0-9A-Za-z]{38}$/);
    apiKey = r.sleutel;
    keyId = r.key_id;
    const [row] = await db.sql`select encode(hash, 'hex') as h, hint from app_private.api_sleutels where id = ${keyId}`;
    assert.equal(row!.h.length, 64);
    assert.ok(!JSON.stringify(row).includes(apiKey.slice(11, 40)));
    assert.equal(row!.hint, `koers_live_…${apiKey.slice(-4)}`);
  });

  it("org list, user list and key list recover ids, never a secret", async () => {
    const orgs = await json(["org", "list"]);
    const mine = orgs.find((x: { org_id: string }) => x.org_id === org);
    assert.deepEqual({ ...mine, aangemaakt_op: undefined }, { org_id: org, naam: "Bakkerij Koers", tijdzone: "Europe/Amsterdam",
      aangemaakt_op: undefined, leden: 2, koppelingen: [], secties: [] });
    assert.ok(orgs.some((x: { naam: string }) => x.naam === "Tweede BV"));
    assert.match((await koersCli(["org", "list"])).stdout, new RegExp(`^${org}  Bakkerij Koers  \\(2 members; doors off; released: none\\)$`, "m"));

    const members = await json(["user", "list", "--org", "Bakkerij Koers"]);
    assert.deepEqual(members.map((m: Record<string, unknown>) => [m.naam, m.email, m.rol, m.functietitel, m.team, m.actief]), [
      ["Anna de Vries", "anna@bakkerij.nl", "eigenaar", "Directeur", "Directie", true],
      ["Bram", "bram@bakkerij.nl", "lid", null, null, true]]);
    assert.equal(members[0].user_id, anna);
    assert.match((await koersCli(["user", "list", "--org", org])).stdout,
      new RegExp(`^${anna}  eigenaar  Anna de Vries <anna@bakkerij.nl>, Directeur, team Directie$`, "m"));

    await json(["key", "create", "--org", org, "--user", "bram@bakkerij.nl"]);
    const keys = await json(["key", "list", "--org", org]);
    assert.equal(keys.length, 2);
    const annas = keys.find((k: { key_id: string }) => k.key_id === keyId);
    assert.deepEqual(Object.keys(annas).sort(), ["aangemaakt_op", "email", "hint", "ingetrokken_op", "key_id", "naam", "user_id"]);
    assert.deepEqual([annas.user_id, annas.hint, annas.ingetrokken_op], [anna, `koers_live_…${apiKey.slice(-4)}`, null]);
    assert.deepEqual((await json(["key", "list", "--org", org, "--user", "anna@bakkerij.nl"])).map((k: { key_id: string }) => k.key_id), [keyId]);
    const text = await koersCli(["key", "list", "--org", "Bakkerij Koers", "--user", anna]);
    assert.match(text.stdout, new RegExp(`^${keyId}  koers_live_…${apiKey.slice(-4)}  Anna de Vries <anna@bakkerij.nl>  created \\S+, active$`, "m"));
    for (const out of [JSON.stringify(keys), text.stdout]) assert.ok(!out.includes(apiKey.slice(11, 30)), "no secret in a list");
    const stranger = await koersCli(["key", "list", "--org", org, "--user", "niemand@x.nl"]);
    assert.deepEqual([stranger.code, /geen lid/.test(stranger.stderr)], [1, true]);
  });

  it("door set and section release make the key work; withdraw and --alleen-lezen change it", async () => {
    assert.equal((await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey })).body.fout.code, "koppeling_uit");
    assert.deepEqual(await json(["door", "set", "--org", org, "--door", "rest", "--aan"]),
      { org_id: org, door: "rest", aan: true, alleen_lezen: false });
    assert.equal((await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey })).status, 200);
    assert.deepEqual(await json(["section", "release", "--org", org, "team", "prioriteiten"]), { team: true, prioriteiten: true });
    assert.equal((await request(koers.baseUrl, "GET", "/api/v1/team", { apiKey, query: { org_id: org } })).status, 200);
    assert.deepEqual(await json(["section", "withdraw", "--org", org, "team"]), { team: false, prioriteiten: true });
    assert.equal((await request(koers.baseUrl, "GET", "/api/v1/team", { apiKey, query: { org_id: org } })).body.fout.code, "onderdeel_uit");
    assert.deepEqual(await json(["door", "set", "--org", org, "--door", "rest", "--aan", "--alleen-lezen"]),
      { org_id: org, door: "rest", aan: true, alleen_lezen: true });
    const w = await request(koers.baseUrl, "POST", "/api/v1/project-aanmaken",
      { apiKey, body: { org_id: org, titel: "X", eigenaar_user_id: anna } });
    assert.equal(w.body.fout.code, "alleen_lezen");
    assert.deepEqual(await json(["door", "set", "--org", org, "--door", "rest", "--aan"]),
      { org_id: org, door: "rest", aan: true, alleen_lezen: true }, "read only stays unless --schrijven");
    assert.equal((await json(["door", "set", "--org", org, "--door", "rest", "--aan", "--schrijven"])).alleen_lezen, false);
  });

  it("log shows the calls, refused ones included, newest first", async () => {
    const rows = await json(["log", "--org", org, "--limit", "3"]);
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r: { operatie: string; fout_code: string | null }) => [r.operatie, r.fout_code]), [
      ["project_aanmaken", "alleen_lezen"], ["team", "onderdeel_uit"], ["team", null],
    ]);
    const text = await koersCli(["log", "--org", org]);
    assert.match(text.stdout, /rest 403 alleen_lezen\s+project_aanmaken/);
  });

  it("key revoke", async () => {
    const r = await json(["key", "revoke", "--key-id", keyId]);
    assert.equal(r.key_id, keyId);
    const listed = (await json(["key", "list", "--org", org])).find((k: { key_id: string }) => k.key_id === keyId);
    assert.equal(listed.ingetrokken_op, r.ingetrokken_op);
    assert.match((await koersCli(["key", "list", "--org", org])).stdout, new RegExp(`^${keyId} .*, revoked \\S+$`, "m"));
    assert.equal((await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey })).body.fout.code, "sleutel_ingetrokken");
  });

  it("migrate and --help", async () => {
    assert.deepEqual(await json(["migrate"]), { gemigreerd: true });
    const h = await koersCli(["--help"]);
    assert.equal(h.code, 0);
    for (const c of ["org create", "user create", "key create", "key revoke", "door set", "section release", "log",
      "taak complete", "prioriteit complete", "kpi set", "kernresultaat add", "kernresultaat update"]) {
      assert.ok(h.stdout.includes(`koers ${c}`), c);
    }
    // The older Dutch spellings still work, and the help says so.
    for (const c of ["taak klaar", "prioriteit afronden", "kpi doel", "kernresultaat toevoegen", "kernresultaat bijwerken"]) {
      assert.ok(h.stdout.replace(/\s+/g, " ").includes(`${c} (`), c);
    }
  });

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8"));
    const r = await koersCli(["--version"]);
    assert.deepEqual([r.code, r.stdout], [0, `koers ${version}\n`]);
    assert.deepEqual(await json(["--version"]), { versie: version });
  });

  it("every command has its own --help: usage, what it does, each option explained; no database needed", async () => {
    const offline = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const usage = (await koersCli(["--help"], offline)).stdout;
    const commands = [...usage.matchAll(/^  koers ((?:[a-z]+(?:\|[a-z]+)?)(?: [a-z]+(?:\|[a-z]+)?)?)(?= |$)/gm)]
      .flatMap((m) => { const [a, b] = m[1]!.split(" "); return a!.split("|").flatMap((x) => (b ? b.split("|").map((y) => `${x} ${y}`) : [x])); });
    for (const c of ["org list", "user list", "key list", "key create", "section withdraw", "serve", "log"]) assert.ok(commands.includes(c), c);
    // Four at a time: each is a process of its own.
    for (let i = 0; i < commands.length; i += 4) {
      await Promise.all(commands.slice(i, i + 4).map(async (c) => {
        const r = await koersCli([...c.split(" "), "--help"], offline);
        assert.equal(r.code, 0, `${c}: ${r.stderr}`);
        const [first, ...lines] = r.stdout.split("\n");
        assert.ok(first!.startsWith(`Usage: koers ${c.split(" ")[0]}`), `${c}: ${first}`);
        assert.ok(lines[0] === "" && lines[1] && lines[1] !== "Options:", `${c} says what it does`);
        for (const option of new Set([...first!.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!))) {
          assert.match(r.stdout, new RegExp(`^  --${option} +\\S`, "m"), `${c} explains --${option}`);
        }
        assert.match(r.stdout, /^  --json +machine-readable/m, c);
      }));
    }
  });

  it("key create --help, help key create and a group's --help", async () => {
    const r = await koersCli(["key", "create", "--help"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: koers key create --org O --user U\n/);
    assert.match(r.stdout, /printed once/);
    assert.match(r.stdout, /^  --org +organisation: its id or name, letter case aside/m);
    assert.match(r.stdout, /^  --user +member: user id or e-mail address/m);
    assert.equal((await koersCli(["help", "key", "create"])).stdout, r.stdout);
    const group = await koersCli(["key", "--help"]);
    assert.match(group.stdout, /^Commands of koers key:\n  koers key create .*\n  koers key list .*\n  koers key revoke /);
    const unknown = await koersCli(["frobnicate", "--help"]);
    assert.deepEqual([unknown.code, /unknown command "frobnicate"/.test(unknown.stderr)], [2, true]);
  });

  it("taak klaar ticks a task off as the app, named in its history and the log", async () => {
    await db.sql`insert into app.taken (org_id, omschrijving, eigenaar_user_id) values (${org}, 'Brood bakken', ${anna})`;
    const r = await json(["taak", "klaar", "--org", org, "--nummer", "1", "--user", "anna@bakkerij.nl"]);
    assert.deepEqual([r.nummer, r.stand], [1, "klaar"]);
    const [g] = await db.sql`select door_user_id from app.taak_geschiedenis where soort = 'stand'`;
    assert.equal(g!.door_user_id, anna);
    const [e] = await db.sql`select soort from app.gebeurtenissen where org_id = ${org} and soort = 'taak.klaar'`;
    assert.ok(e);
    const log = await json(["log", "--org", org, "--limit", "1"]);
    assert.deepEqual([log[0].door, log[0].operatie], ["app", "taak_afvinken"]);
  });

  it("kernresultaat toevoegen and bijwerken drive an OKR's progress; prioriteit afronden completes it", async () => {
    const [p] = await db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${org}, 'okr', 'Meer klanten', ${anna}, date_trunc('quarter', now())::date) returning id`;
    const k = await json(["kernresultaat", "toevoegen", "--org", org, "--prioriteit", p!.id, "--titel", "Nieuwe klanten", "--doel", "20", "--start", "10"]);
    assert.equal(k.prioriteit.voortgang, 0);
    const b = await json(["kernresultaat", "bijwerken", "--org", org, "--id", k.id, "--waarde", "15"]);
    assert.equal(b.prioriteit.voortgang, 50);
    const a = await json(["prioriteit", "afronden", "--org", org, "--id", p!.id]);
    assert.deepEqual([a.afgerond, a.voortgang], [true, 100]);
    const [e] = await db.sql`select soort from app.gebeurtenissen where org_id = ${org} and soort = 'prioriteit.afgerond'`;
    assert.ok(e);
  });

  it("kpi doel sets a KPI's quarter target", async () => {
    const [k] = await db.sql`insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans)
      values (${org}, 'Broden', ${anna}, 'teller', 'week') returning id`;
    const r = await json(["kpi", "doel", "--org", org, "--kpi", k!.id, "--kwartaal", "Q3-2026", "--doel", "1300"]);
    assert.deepEqual([r.kwartaal, r.kwartaaldoel], ["Q3-2026", 1300]);
    assert.equal((await json(["kpi", "doel", "--org", org, "--kpi", k!.id, "--kwartaal", "Q3-2026", "--doel", "1400"])).kwartaaldoel, 1400);
  });

  const refusals: [string, string[], number, RegExp][] = [
    ["an unknown task number", ["taak", "klaar", "--org", "Bakkerij Koers", "--nummer", "99"], 1, /Taak #99 bestaat niet/],
    ["a task number that is no number", ["taak", "klaar", "--org", "Bakkerij Koers", "--nummer", "een"], 2, /--nummer must be a whole number/],
    ["a key result for a rock", ["kernresultaat", "toevoegen", "--org", "Bakkerij Koers", "--prioriteit", "00000000-0000-0000-0000-000000000000", "--titel", "x", "--doel", "1"], 1, /geen OKR/],
    ["a quarter in the wrong shape", ["kpi", "doel", "--org", "Bakkerij Koers", "--kpi", "00000000-0000-0000-0000-000000000000", "--kwartaal", "2026-Q3", "--doel", "1"], 1, /Q2-2026/],
    ["an unknown command", ["frobnicate"], 2, /unknown command "frobnicate"/],
    ["an unknown option", ["org", "create", "--nam", "X"], 2, /Unknown option '--nam'/],
    ["a missing required option", ["org", "create"], 2, /--naam is required/],
    ["an unknown organisation", ["user", "create", "--org", "Niemand BV", "--naam", "X", "--email", "x@y.nl", "--rol", "lid"], 1, /Organisatie Niemand BV bestaat niet/],
    ["an unknown role", ["user", "create", "--org", "Bakkerij Koers", "--naam", "X", "--email", "x@y.nl", "--rol", "baas"], 1, /Rol moet een van eigenaar, admin, mt, lid, coach/],
    ["a bad e-mail address", ["user", "create", "--org", "Bakkerij Koers", "--naam", "X", "--email", "x", "--rol", "lid"], 1, /geen e-mailadres/],
    ["a member added twice", ["user", "create", "--org", "Bakkerij Koers", "--naam", "A", "--email", "ANNA@bakkerij.nl", "--rol", "lid"], 1, /al lid/],
    ["a key for a non-member", ["key", "create", "--org", "Bakkerij Koers", "--user", "niemand@x.nl"], 1, /geen lid/],
    ["an unknown key id", ["key", "revoke", "--key-id", "00000000-0000-0000-0000-000000000000"], 1, /bestaat niet/],
    ["a key id that is no uuid", ["key", "revoke", "--key-id", "abc"], 2, /uuid/],
    ["both --aan and --uit", ["door", "set", "--org", "Bakkerij Koers", "--door", "rest", "--aan", "--uit"], 2, /exactly one/],
    ["an unknown door", ["door", "set", "--org", "Bakkerij Koers", "--door", "soap", "--aan"], 1, /rest, mcp of warehouse/],
    ["an unknown section", ["section", "release", "--org", "Bakkerij Koers", "geheimen"], 1, /Onbekend onderdeel geheimen/],
    ["no section", ["section", "release", "--org", "Bakkerij Koers"], 2, /at least one section/],
    ["a bad --limit", ["log", "--org", "Bakkerij Koers", "--limit", "nul"], 2, /--limit/],
  ];
  for (const [label, args, code, message] of refusals) {
    it(`refuses ${label} with a clear message and exit ${code}`, async () => {
      const r = await koersCli(args);
      assert.equal(r.code, code, r.stdout + r.stderr);
      assert.match(r.stderr, message);
    });
  }
});
