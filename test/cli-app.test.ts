// The CLI commands of issue 9 ("what happens in the app"). Each runs as a real process against
// the test database under a frozen clock: what it writes, the call-log row it leaves (door app,
// naming the person where there is one), a refusal (exit 1) and a usage error (exit 2). The
// rules behind the refusals are checked on the beheer.* functions directly, each naming its
// parameter. Processes that touch the database run one at a time (two migrations at once
// collide, see the report); usage errors stop before the database and run together.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { makeWorld, request, startKoers, testDatabase, type Koers, type TestDb, type World } from "./helpers.ts";
import { runKoers, runKoersJson, type Finished } from "./processes.ts";
import { values, type Role } from "../src/choices.ts";
import { operations } from "../src/registry.ts";

const strategy = operations.find((o) => o.name === "strategie_bijwerken")! as { rights: Partial<Record<Role, string>> };

const NOW = "2026-05-14T10:00:00+02:00";
let db: TestDb, koers: Koers, w: World;
/** The administrative connection as the CLI has it, with the frozen clock. */
let app: postgres.Sql;

function koersCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runKoers(args, { DATABASE_URL: db.url, KOERS_NOW: NOW, ...env });
}
function json(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runKoersJson(args, { DATABASE_URL: db.url, KOERS_NOW: NOW, ...env });
}
async function refused(args: string[], code: 1 | 2, message: RegExp) {
  const r = await koersCli(args);
  assert.equal(r.code, code, r.stdout + r.stderr);
  assert.match(r.stderr, message);
  assert.equal(r.stdout, "");
}
/** A refusal of a beheer.* function: the parameter it names and its message. */
async function refusedSql(call: Promise<unknown>, parameter: string, message: RegExp) {
  await assert.rejects(call, (e: postgres.PostgresError) => {
    assert.deepEqual([e.detail, e.hint], ["ongeldige_parameters", parameter], e.message);
    assert.match(e.message, message);
    return true;
  });
}
async function lastLog() {
  const [r] = await db.sql`select door, operatie, user_id, parameters from app_private.aanroepen
                           where org_id = ${w.org} order by tijdstip desc limit 1`;
  return r!;
}
const email = (role: string) => `${role}@bakkerijkoers.test`;
const org = () => ["--org", "Bakkerij Koers"];
const NIL = "00000000-0000-0000-0000-000000000000";

before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NOW });
  w = await makeWorld(db.sql, "Bakkerij Koers");
  app = postgres(db.url, { max: 1, onnotice: () => {}, connection: { "koers.nu": NOW } });
});
after(async () => {
  await app.end();
  await koers.stop();
  await db.drop();
});

describe("koers team, proces, rol and lid", () => {
  it("team maken makes a team with its leader, as the app", async () => {
    const r = await json(["team", "maken", ...org(), "--naam", "Verkoop", "--leider", email("mt")]);
    assert.deepEqual([r.naam, r.leider.naam], ["Verkoop", "Mt Bakkerij Koers"]);
    assert.deepEqual(await lastLog(), { door: "app", operatie: "team_maken", user_id: null,
      parameters: { naam: "Verkoop", leider: email("mt") } });
    const text = await koersCli(["team", "maken", ...org(), "--naam", "Bakkerij"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^team created: Bakkerij \(id [0-9a-f-]{36}\)$/m);
    await refused(["team", "maken", ...org(), "--naam", "VERKOOP"], 1, /Team VERKOOP bestaat al/);
    await refused(["team", "maken", ...org()], 2, /--naam is required/);
    await refusedSql(app`select beheer.team_maken(${w.org}, 'X', 'niemand@x.nl')`, "leider", /niemand@x.nl is geen actief lid/);
    await refusedSql(app`select beheer.team_maken(${w.org}, '  ')`, "naam", /naam is verplicht/);
    assert.equal((await db.sql`select count(*)::int as n from app.teams where org_id = ${w.org}`)[0]!.n, 2);
  });

  it("finds a member one way (beheer.lid): one who left is found as whom a record is about, never given something to do", async () => {
    // In a transaction rolled back at the end, so the world stays as the other tests expect it.
    await assert.rejects(app.begin(async (tx) => {
      await tx`select beheer.lid_wijzigen(${w.org}, ${email("coach")}, _actief => false)`;
      // Each refusal in a savepoint, so the transaction goes on after it.
      await refusedSql(tx.savepoint((sp) => sp`select beheer.team_maken(${w.org}, 'Oud', ${email("coach")})`), "leider",
        new RegExp(`${email("coach")} is geen actief lid`));
      await refusedSql(tx.savepoint((sp) => sp`select beheer.proces_maken(${w.org}, 'Oud', ${email("coach")})`),
        "eindverantwoordelijke", /geen actief lid/);
      const [row] = await tx`select beheer.lid_wijzigen(${w.org}, ${" " + email("coach").toUpperCase()}, _actief => true) as r`;
      assert.equal(row!.r.actief, true, "the membership itself is found while inactive, by e-mail in any case");
      throw new Error("rolled back");
    }), /rolled back/);
  });

  it("proces maken and rol maken: seats occupied and open, as the team read shows them", async () => {
    const p = await json(["proces", "maken", ...org(), "--naam", "Verkopen", "--eindverantwoordelijke", email("eigenaar")]);
    assert.deepEqual([p.naam, p.volgorde, p.eindverantwoordelijke.naam], ["Verkopen", 1, "Eigenaar Bakkerij Koers"]);
    assert.equal((await lastLog()).operatie, "proces_maken");
    const seat = await json(["rol", "maken", ...org(), "--proces", "verkopen", "--naam", "Accountmanager", "--wie", email("lid")]);
    assert.deepEqual([seat.proces.id, seat.wie.naam], [p.id, "Lid Bakkerij Koers"]);
    assert.equal((await lastLog()).operatie, "rol_maken");
    const open = await json(["rol", "maken", ...org(), "--proces", p.id, "--naam", "Binnendienst"]);
    assert.equal(open.wie, null);
    const team = await request(koers.baseUrl, "GET", "/api/v1/team", { apiKey: w.members.eigenaar.apiKey, query: { org_id: w.org } });
    assert.equal(team.status, 200);
    assert.deepEqual(team.body.open_rollen.map((x: { naam: string; proces: string }) => [x.naam, x.proces]), [["Binnendienst", "Verkopen"]]);
    assert.deepEqual(team.body.processen[0].rollen.map((x: { naam: string }) => x.naam), ["Accountmanager", "Binnendienst"]);

    await refused(["proces", "maken", ...org(), "--naam", "verkopen", "--eindverantwoordelijke", email("eigenaar")], 1, /Proces verkopen bestaat al/);
    await refused(["rol", "maken", ...org(), "--proces", "Inkopen", "--naam", "Inkoper"], 1, /Proces Inkopen bestaat niet/);
    await Promise.all([
      refused(["proces", "maken", ...org(), "--naam", "Inkopen"], 2, /--eindverantwoordelijke is required/),
      refused(["rol", "maken", ...org(), "--naam", "Inkoper"], 2, /--proces is required/),
    ]);
    await refusedSql(app`select beheer.proces_maken(${w.org}, 'Inkopen', 'niemand@x.nl')`, "eindverantwoordelijke", /geen actief lid/);
    await refusedSql(app`select beheer.rol_maken(${w.org}, 'Verkopen', 'accountmanager')`, "naam", /Rol accountmanager bestaat al in dit proces/);
    await refusedSql(app`select beheer.rol_maken(${w.org}, 'Verkopen', 'X', 'niemand@x.nl')`, "wie", /geen actief lid/);
    await app`insert into app.processen (org_id, naam) values (${w.org}, 'Verkopen')`;
    await refusedSql(app`select beheer.rol_maken(${w.org}, 'Verkopen', 'X')`, "proces", /meerdere processen met de naam Verkopen; gebruik het id/);
  });

  it("lid wijzigen changes role, team, job title and active; keeps one active owner", async () => {
    const r = await json(["lid", "wijzigen", ...org(), "--user", email("lid"), "--rol", "mt", "--team", "verkoop", "--functietitel", "Hoofd verkoop"]);
    assert.deepEqual([r.rol, r.team.naam, r.functietitel, r.actief], ["mt", "Verkoop", "Hoofd verkoop", true]);
    assert.equal((await lastLog()).operatie, "lid_wijzigen");
    const cleared = await json(["lid", "wijzigen", ...org(), "--user", email("lid"), "--team", "geen", "--functietitel", "", "--rol", "lid"]);
    assert.deepEqual([cleared.rol, cleared.team, cleared.functietitel], ["lid", null, null]);
    const [m] = await db.sql`select rol, team_id, functietitel from app.lidmaatschappen where org_id = ${w.org} and user_id = ${w.members.lid.user_id}`;
    assert.deepEqual({ ...m }, { rol: "lid", team_id: null, functietitel: null });

    const off = await json(["lid", "wijzigen", ...org(), "--user", email("coach"), "--actief", "nee"]);
    assert.equal(off.actief, false);
    const key = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: w.members.coach.apiKey });
    assert.equal(key.body.fout.code, "sleutel_ingetrokken", "an inactive member's key stops working");
    await app`select beheer.lid_wijzigen(${w.org}, ${email("coach")}, _actief => true)`;

    await refused(["lid", "wijzigen", ...org(), "--user", email("eigenaar"), "--rol", "admin"], 1, /enige actieve eigenaar/);
    await Promise.all([
      refused(["lid", "wijzigen", ...org(), "--user", email("lid")], 2, /give at least one of --rol, --team, --functietitel and --actief/),
      refused(["lid", "wijzigen", ...org(), "--user", email("lid"), "--actief", "misschien"], 2, /--actief must be ja or nee/),
    ]);
    await refusedSql(app`select beheer.lid_wijzigen(${w.org}, ${email("eigenaar")}, _actief => false)`, "actief", /enige actieve eigenaar/);
    await refusedSql(app`select beheer.lid_wijzigen(${w.org}, ${email("lid")}, 'baas')`, "rol",
      new RegExp(`rol moet een van ${values("rol").join(", ")} zijn`));
    await refusedSql(app`select beheer.lid_wijzigen(${w.org}, ${email("lid")}, _team => 'Inkoop')`, "team", /Team Inkoop bestaat niet/);
    await refusedSql(app`select beheer.lid_wijzigen(${w.org}, 'niemand@x.nl', 'lid')`, "user", /geen lid van deze organisatie/);
    await refusedSql(app`select beheer.lid_wijzigen(${w.org}, ${email("lid")})`, "user", /Geef minstens één wijziging/);
    // With a second owner, the first may step down.
    await app`select beheer.lid_wijzigen(${w.org}, ${email("admin")}, 'eigenaar')`;
    assert.equal((await app`select beheer.lid_wijzigen(${w.org}, ${email("eigenaar")}, 'admin') as r`)[0]!.r.rol, "admin");
    await app`select beheer.lid_wijzigen(${w.org}, ${email("eigenaar")}, 'eigenaar')`;
    await app`select beheer.lid_wijzigen(${w.org}, ${email("admin")}, 'admin')`;
  });
});

describe("koers reflectie, uren, waardering, gesprek", () => {
  it("reflectie indienen submits; a second submission of the period replaces it; content stays out of the log", async () => {
    const args = ["reflectie", "indienen", ...org(), "--user", email("lid"), "--soort", "kwartaal", "--periode", "Q1-2026",
      "--goed", "Veel verkocht", "--beter", "Minder haast", "--geleerd", "Plannen", "--focus", "Klanten", "--energie", "7"];
    const r = await json(args);
    assert.deepEqual([r.wie.naam, r.soort, r.periode, r.energie, r.overschreven], ["Lid Bakkerij Koers", "kwartaal", "Q1-2026", 7, false]);
    const log = await lastLog();
    assert.deepEqual([log.door, log.operatie, log.user_id], ["app", "reflectie_indienen", w.members.lid.user_id]);
    assert.deepEqual(log.parameters, { soort: "kwartaal", periode: "Q1-2026" });
    const again = await json([...args.slice(0, -4), "--focus", "Marge", "--energie", "9"], { KOERS_NOW: "2026-05-15T10:00:00+02:00" });
    assert.deepEqual([again.overschreven, again.energie], [true, 9]);
    assert.equal(Date.parse(again.ingediend_op), Date.parse("2026-05-15T10:00:00+02:00"), "submitted anew");
    const rows = await db.sql`select periode, focus, energie from app.reflecties where org_id = ${w.org} and user_id = ${w.members.lid.user_id}`;
    assert.deepEqual(rows.map((x) => ({ ...x })), [{ periode: "2026-Q1", focus: "Marge", energie: 9 }]);

    await refused([...args.slice(0, -2), "--energie", "11"], 1, /energie moet een geheel getal van 1 tot en met 10 zijn/);
    await Promise.all([
      refused([...args.slice(0, -2), "--energie", "veel"], 2, /--energie must be a whole number/),
      refused(args.filter((a, i) => a !== "--goed" && args[i - 1] !== "--goed"), 2, /--goed is required/),
    ]);
    const submit = (soort: string, periode: string, energie = 5, wie = email("mt")) =>
      app`select beheer.reflectie_indienen(${w.org}, ${wie}, ${soort}, ${periode}, 'a', 'b', 'c', 'd', ${energie}) as r`;
    assert.equal((await submit("maand", "2026-05"))[0]!.r.periode, "2026-05", "the running month");
    assert.equal((await submit("jaar", "2025", 1))[0]!.r.periode, "2025");
    assert.equal((await submit("kwartaal", "Q2-2026", 10))[0]!.r.periode, "Q2-2026");
    await refusedSql(submit("week", "2026-W20"), "soort", new RegExp(`soort moet een van ${values("reflectie_soort").join(", ")} zijn`));
    await refusedSql(submit("maand", "Q2-2026"), "periode", /periode past niet bij soort maand: gebruik <jjjj>-<mm>/);
    await refusedSql(submit("kwartaal", "2026-Q2"), "periode", /gebruik Q<n>-<jjjj>/);
    await refusedSql(submit("maand", "2026-13"), "periode", /periode past niet bij soort maand/);
    await refusedSql(submit("maand", "0000-01"), "periode", /periode past niet bij soort maand/);
    await refusedSql(submit("maand", "2026-06"), "periode", /Periode 2026-06 is nog niet begonnen/);
    await refusedSql(submit("maand", "2026-05", 0), "energie", /energie moet een geheel getal van 1 tot en met 10 zijn/);
    await refusedSql(app`select beheer.reflectie_indienen(${w.org}, ${email("mt")}, 'maand', '2026-05', 'a', ' ', 'c', 'd', 5)`,
      "beter", /beter is verplicht/);
    await assert.rejects(submit("maand", "2026-05", 5, "niemand@x.nl"), /niemand@x.nl is geen lid van deze organisatie/);
  });

  it("uren schrijven for a task, a priority, a project or nothing; at most 24 a day, never ahead", async () => {
    const [p] = await db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${w.org}, 'rock', 'Omzet', ${w.members.eigenaar.user_id}, '2026-04-01') returning id`;
    const [j] = await db.sql`insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum)
      values (${w.org}, 'Website', ${w.members.eigenaar.user_id}, '2026-04-01') returning id`;
    const [t] = await db.sql`insert into app.taken (org_id, omschrijving, prioriteit_id) values (${w.org}, 'Bellen', ${p!.id}) returning nummer`;
    const onTask = await json(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "2.5", "--taak", String(t!.nummer)]);
    assert.deepEqual([onTask.uren, onTask.taak.omschrijving, onTask.dag_totaal], [2.5, "Bellen", 2.5]);
    const log = await lastLog();
    assert.deepEqual([log.door, log.operatie, log.user_id], ["app", "uren_schrijven", w.members.lid.user_id]);
    assert.equal((await json(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "1", "--project", j!.id])).project.titel, "Website");
    const text = await koersCli(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "0.5"]);
    assert.match(text.stdout, /^0.5 h written for Lid Bakkerij Koers on 2026-05-13 \(4 h that day\)$/m);
    const write = (datum: string, uren: number, taak: number | null = null, prioriteit: string | null = null, project: string | null = null) =>
      app`select beheer.uren_schrijven(${w.org}, ${email("lid")}, ${datum}, ${uren}, ${taak}, ${prioriteit}, ${project}) as r`;
    assert.equal((await write("2026-05-13", 3, null, p!.id))[0]!.r.prioriteit.titel, "Omzet");
    const loose = (await write("2026-05-14", 8))[0]!.r;
    assert.deepEqual([loose.taak, loose.prioriteit, loose.project], [null, null, null]);
    const [sum] = await db.sql`select sum(uren)::float as s from app.uren where org_id = ${w.org} and user_id = ${w.members.lid.user_id}`;
    assert.equal(sum!.s, 15);

    await refused(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-15", "--uren", "1"], 1, /2026-05-15 ligt in de toekomst/);
    await Promise.all([
      refused(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "1", "--taak", "1", "--project", j!.id], 2,
        /give at most one of --taak, --prioriteit and --project/),
      refused(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "veel"], 2, /--uren must be a number/),
      refused(["uren", "schrijven", ...org(), "--user", email("lid"), "--datum", "2026-05-13", "--uren", "1", "--prioriteit", "omzet"], 2,
        /--prioriteit must be an id/),
    ]);
    await refusedSql(write("2026-05-13", 17.5), "uren", /komt Lid Bakkerij Koers op 24.5 uur op 2026-05-13; een dag heeft er 24/);
    await refusedSql(write("2026-02-30", 1), "datum", /datum is geen bestaande datum: 2026-02-30/);
    await refusedSql(write("2026-05-13", 0), "uren", /uren moet meer dan 0 en hoogstens 24 zijn/);
    await refusedSql(write("2026-05-13", 1, 999), "taak", /Taak #999 bestaat niet/);
    await refusedSql(write("2026-05-13", 1, null, NIL), "prioriteit", /Prioriteit .* bestaat niet/);
    await refusedSql(write("2026-05-13", 1, null, null, NIL), "project", /Project .* bestaat niet/);
    await refusedSql(write("2026-05-13", 1, t!.nummer, p!.id), "prioriteit", /niet bij meer tegelijk/);
  });

  it("waardering meten: an open invitation, then the figures; one valuation per period", async () => {
    const invitation = await json(["waardering", "meten", ...org(), "--periode", "Q1-2026"]);
    assert.deepEqual([invitation.periode, invitation.open_uitnodiging, invitation.omzet], ["Q1-2026", true, null]);
    assert.deepEqual((await lastLog()).operatie, "waardering_meten");
    const figures = ["--omzet", "4400000", "--ebitda", "495000", "--multiple", "5", "--aandelenwaarde", "2125000"];
    const measured = await json(["waardering", "meten", ...org(), "--periode", "Q1-2026", ...figures]);
    assert.deepEqual([measured.id, measured.overschreven, measured.aandelenwaarde, measured.genormaliseerde_ebitda],
      [invitation.id, true, 2125000, 495000]);
    await refused(["waardering", "meten", ...org(), "--periode", "Q1-2026"], 1, /Voor Q1-2026 zijn al cijfers gemeten/);
    await Promise.all([
      refused(["waardering", "meten", ...org(), "--periode", "Q2-2026", "--omzet", "1"], 2, /together, or none/),
      refused(["waardering", "meten", ...org(), "--periode", "Q2-2026", ...figures.slice(0, 6), "--aandelenwaarde", "veel"], 2,
        /--aandelenwaarde must be a number/),
    ]);
    const measure = (periode: string, f: (number | null)[] = [null, null, null, null]) =>
      app`select beheer.waardering_meten(${w.org}, ${periode}, ${f[0]!}, ${f[1]!}, ${f[2]!}, ${f[3]!}) as r`;
    assert.equal((await measure("2025", [1, 2, 3, 4]))[0]!.r.periode, "2025");
    assert.equal((await measure("2026-05"))[0]!.r.open_uitnodiging, true, "the running month");
    const rows = await db.sql`select periode from app.waarderingen where org_id = ${w.org} order by periode`;
    assert.deepEqual(rows.map((x) => x.periode), ["2025", "2026-05", "Q1-2026"]);
    for (const bad of ["2026-Q1", "2026-13", "Q5-2026", "0000", "mei"]) {
      await refusedSql(measure(bad), "periode", /periode moet een maand \(2026-05\), een kwartaal \(Q2-2026\) of een jaar \(2026\) zijn/);
    }
    await refusedSql(measure("Q3-2026"), "periode", /Periode Q3-2026 is nog niet begonnen/);
    await refusedSql(measure("2026-06"), "periode", /Periode 2026-06 is nog niet begonnen/);
    await refusedSql(measure("Q2-2026", [1, null, 3, 4]), "ebitda", /samen, of geen van vieren/);
  });

  it("gesprek vastleggen records a conversation; the same again updates it; unknown kinds list the allowed ones", async () => {
    const args = ["gesprek", "vastleggen", ...org(), "--wie", email("lid"), "--met", email("mt"), "--soort", "functionering", "--datum", "2026-03-10"];
    const first = await json(args);
    assert.deepEqual([first.wie.naam, first.met.naam, first.afgerond, first.eindoordeel, first.bijgewerkt],
      ["Lid Bakkerij Koers", "Mt Bakkerij Koers", false, null, false]);
    assert.equal((await lastLog()).operatie, "gesprek_vastleggen");
    const done = await json([...args, "--afgerond", "--eindoordeel", "b"]);
    assert.deepEqual([done.id, done.afgerond, done.eindoordeel, done.bijgewerkt], [first.id, true, "B", true]);
    assert.equal((await db.sql`select count(*)::int as n from app.gesprekken where org_id = ${w.org}`)[0]!.n, 1);

    await refused([...args.slice(0, 8), "--soort", "praatje", "--datum", "2026-03-10"], 1,
      new RegExp(`soort moet een van ${values("gesprek_soort").join(", ")} zijn`));
    await refused(["gesprek", "vastleggen", ...org(), "--wie", email("lid"), "--soort", "functionering", "--datum", "2026-03-10"], 2, /--met is required/);
    const record = (wie: string, met: string, datum = "2026-03-10", afgerond = false, eindoordeel: string | null = null) =>
      app`select beheer.gesprek_vastleggen(${w.org}, ${wie}, ${met}, 'planning', ${datum}, ${afgerond}, ${eindoordeel})`;
    await refusedSql(record(email("lid"), email("mt"), "2026-03-10", false, "A"), "eindoordeel", /Een eindoordeel hoort bij een afgerond gesprek/);
    await refusedSql(record(email("lid"), email("mt"), "2026-03-10", true, "E"), "eindoordeel",
      new RegExp(`eindoordeel moet een van ${values("eindclassificatie").join(", ")} zijn`));
    await refusedSql(record(email("lid"), email("lid")), "met", /wie en met zijn dezelfde persoon/);
    await refusedSql(record(email("lid"), "niemand@x.nl"), "met", /geen actief lid/);
    await refusedSql(record(email("lid"), email("mt"), "10-03-2026"), "datum", /datum is geen bestaande datum/);
  });
});

describe("koers sessienotitie and strategie", () => {
  it("sessienotitie vaststellen establishes a concept note once", async () => {
    const [n] = await db.sql`insert into app.sessienotities (org_id, datum, titel, soort, samenvatting)
      values (${w.org}, '2026-05-12', 'Maandsessie', 'maand', 'Cijfers') returning id`;
    const r = await json(["sessienotitie", "vaststellen", ...org(), "--id", n!.id]);
    assert.deepEqual([r.id, r.status, Date.parse(r.vastgesteld_op)], [n!.id, "vastgesteld", Date.parse(NOW)]);
    const log = await lastLog();
    assert.deepEqual([log.operatie, log.door], ["sessienotitie_vaststellen", "app"]);
    await refused(["sessienotitie", "vaststellen", ...org(), "--id", n!.id], 1, /is al vastgesteld/);
    await refused(["sessienotitie", "vaststellen", ...org(), "--id", "3"], 2, /--id must be an id/);
    await refusedSql(app`select beheer.sessienotitie_vaststellen(${w.org}, ${NIL})`, "id", /Sessienotitie .* bestaat niet/);
  });

  it("strategie goedkeuren applies an open proposal's fields to the canvas; afwijzen leaves it", async () => {
    const propose = async (velden: unknown) => (await db.sql`insert into app.strategie_voorstellen (org_id, velden, ingediend_door)
      values (${w.org}, ${db.sql.json(velden as never)}, ${w.members.mt.user_id}) returning id`)[0]!.id as string;
    const a = await propose({ bhag: { nu: null, wordt: "Marktleider in 2030" }, jaarthema: "Groei" });
    const r = await json(["strategie", "goedkeuren", ...org(), "--id", a, "--user", email("admin")]);
    assert.deepEqual([r.status, r.beoordeeld_door.naam, r.velden], ["goedgekeurd", "Admin Bakkerij Koers",
      { bhag: "Marktleider in 2030", jaarthema: "Groei" }]);
    const log = await lastLog();
    assert.deepEqual([log.operatie, log.user_id], ["strategie_goedkeuren", w.members.admin.user_id]);
    const [s] = await db.sql`select bhag, jaarthema, purpose from app.strategie where org_id = ${w.org}`;
    assert.deepEqual({ ...s }, { bhag: "Marktleider in 2030", jaarthema: "Groei", purpose: null });

    const b = await propose({ bhag: "Iets anders" });
    const rejected = await json(["strategie", "afwijzen", ...org(), "--id", b]);
    assert.deepEqual([rejected.status, rejected.beoordeeld_door], ["afgewezen", null]);
    assert.equal((await lastLog()).operatie, "strategie_afwijzen");
    assert.equal((await db.sql`select bhag from app.strategie where org_id = ${w.org}`)[0]!.bhag, "Marktleider in 2030");

    await refused(["strategie", "goedkeuren", ...org(), "--id", b], 1, /Strategievoorstel .* is al afgewezen/);
    await refused(["strategie", "keuren", ...org(), "--id", b], 2, /unknown command "strategie keuren"/);
    const c = await propose({ dna: "Eerlijk" });
    const review = (id: string, user: string | null, approve = true) =>
      app`select beheer.strategie_beoordelen(${w.org}, ${id}, ${approve}, ${user}) as r`;
    for (const role of ["lid", "coach"]) {
      await refusedSql(review(c, email(role)), "user", new RegExp(`Alleen een ${values("rol").filter((r) => (strategy.rights[r as Role] ?? "alles") !== "geen").join(", ")} beoordeelt een strategievoorstel`));
    }
    await refusedSql(review(NIL, null), "id", /Strategievoorstel .* bestaat niet/);
    assert.equal((await review(c, email("mt")))[0]!.r.status, "goedgekeurd");
    await refusedSql(review(c, email("eigenaar"), false), "id", /is al goedgekeurd/);
    assert.equal((await db.sql`select dna from app.strategie where org_id = ${w.org}`)[0]!.dna, "Eerlijk");
  });

  it("--help names every command", async () => {
    const h = await koersCli(["--help"]);
    assert.equal(h.code, 0);
    for (const c of ["team create", "proces create", "rol create", "user update", "reflectie submit", "uren write",
      "waardering measure", "gesprek record", "sessienotitie establish", "strategie approve", "strategie reject", "import", "demo"]) {
      assert.ok(h.stdout.includes(`koers ${c}`), c);
    }
    // The older Dutch spellings still work, and the help says so.
    for (const c of ["team maken", "proces maken", "rol maken", "lid wijzigen", "reflectie indienen", "uren schrijven",
      "waardering meten", "gesprek vastleggen", "sessienotitie vaststellen", "strategie goedkeuren", "strategie afwijzen"]) {
      assert.ok(h.stdout.replace(/\s+/g, " ").includes(`${c} (`), c);
    }
    assert.ok(h.stdout.includes(values("gesprek_soort").join(", ")));
  });
});
