// koers import and koers demo against the test database: a valid file loads and loads again
// without duplicates, a malformed one changes nothing and names every fault with its place, a
// large one reports progress; the demo file is valid, moves to any day, and loads twice.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { Ajv2020 } from "ajv/dist/2020.js";
import { request, startKoers, testDatabase, type Koers, type TestDb } from "./helpers.ts";
import { runKoers, type Finished } from "./processes.ts";
import { importSchema } from "../src/import/schema.ts";
import { checkShape } from "../src/import/validate.ts";
import { importData } from "../src/import/run.ts";
import { DEMO_OWNER, isoWeek, readDemo, shiftDemo, weekMonday } from "../src/import/demo.ts";
import { values } from "../src/choices.ts";
import { createApiKey } from "../src/api-key.ts";

const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "koers-import-"));
const NOW = "2026-05-14T10:00:00+02:00";
let db: TestDb, koers: Koers;

function koersCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runKoers(args, { DATABASE_URL: db.url, KOERS_NOW: NOW, ...env });
}
function writeFile(name: string, content: unknown): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}
async function newOrg(name: string): Promise<string> {
  return (await db.sql`select beheer.org_aanmaken(${name}) ->> 'org_id' as id`)[0]!.id;
}
/** Rows per tenant table of an organisation (the call log included). */
async function snapshot(org: string): Promise<Record<string, number>> {
  const rows = await db.sql`
    select t.naam, (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %s where org_id = %L', t.tabel, ${org}::uuid),
                                                       false, true, '')))[1]::text::int as n
    from app_hidden.tenant_tabellen t order by t.naam`;
  return Object.fromEntries(rows.map((r) => [r.naam, r.n]));
}

const ANNA = "anna@acme.nl", BRAM = "bram@acme.nl";
/** A small file with every kind of item. */
function sample(): Record<string, any> {
  return {
    mensen: [
      { email: "Anna@Acme.nl", naam: "Anna de Vries", rol: "eigenaar", team: "Directie", functietitel: "Directeur" },
      { email: BRAM, naam: "Bram Jansen", rol: "lid", functietitel: "Verkoper", team: "Verkoop" },
      { email: "cees@acme.nl", naam: "Cees Oud", rol: "lid", actief: false },
    ],
    teams: [{ naam: "Directie", leider: ANNA }, { naam: "Verkoop", leider: BRAM }],
    processen: [{ naam: "Verkopen", eindverantwoordelijke: ANNA, rollen: [{ naam: "Accountmanager", wie: BRAM }, { naam: "Binnendienst" }] }],
    projecten: [{ sleutel: "web", titel: "Nieuwe website", eigenaar: ANNA, startdatum: "2026-04-01", deadline: "2026-09-30", leden: [BRAM], besloten: true }],
    prioriteiten: [
      { sleutel: "omzet", titel: "Omzet +10%", soort: "rock", eigenaar: ANNA, kwartaal: "Q2-2026", team: "Verkoop" },
      { titel: "Meer klanten", soort: "okr", eigenaar: BRAM, kwartaal: "Q2-2026",
        kernresultaten: [{ titel: "Nieuwe klanten", doel: 20, waarde: 8 }] },
    ],
    kpis: [{ sleutel: "leads", naam: "Leads", eigenaar: BRAM, meetsoort: "teller", cadans: "week",
      doelen: [{ kwartaal: "Q2-2026", doel: 130 }],
      metingen: [{ periode: "2026-W15", waarde: 9 }, { periode: "2026-W16", waarde: 2, toelichting: "Vakantie" }] }],
    taken: [
      { sleutel: "t1", omschrijving: "Offerte sturen", prioriteit: "omzet", eigenaar: BRAM, stand: "in_uitvoering",
        tags: ["Sales", "klant"], opmerkingen: [{ door: ANNA, tekst: "Goed bezig" }],
        subtaken: [{ omschrijving: "Prijzen checken", stand: "voltooid" }] },
      { omschrijving: "Homepage teksten", project: "Nieuwe website", grootte: "middel", eigenaar: "cees@acme.nl" },
      { omschrijving: "Koffie bestellen", herhalen: "maand", deadline: "2026-05-20", week: "2026-W21" },
      { omschrijving: "Klantenlijst opschonen", prioriteit: "Meer klanten", stand: "vervallen" },
    ],
    uren: [{ wie: BRAM, datum: "2026-04-14", uren: 3, taak: "t1" }, { wie: ANNA, datum: "2026-04-14", uren: 2, project: "web" },
      { wie: ANNA, datum: "2026-04-15", uren: 1.5, omschrijving: "Administratie" }],
    weektaken: [{ wie: BRAM, week: "2026-W20", titel: "Bellen", kolom: "bezig", prioriteit: "omzet" }, { wie: BRAM, week: "2026-W20", titel: "Mailen" }],
    reflecties: [{ wie: BRAM, soort: "maand", periode: "2026-04", goed: "Veel", beter: "Minder", geleerd: "Iets", focus: "Bellen", energie: 7 },
      { wie: ANNA, soort: "kwartaal", periode: "Q1-2026", goed: "Groei", energie: 8 }],
    waarderingen: [{ periode: "2025", omzet: 1000000, genormaliseerde_ebitda: 150000, multiple: 5, aandelenwaarde: 750000 }, { periode: "Q2-2026" }],
    gesprekken: [{ wie: BRAM, met: ANNA, soort: "functionering", datum: "2026-03-10", afgerond: true, eindoordeel: "B" }],
    sessienotities: [{ datum: "2026-04-02", titel: "Kwartaalsessie", soort: "kwartaal", samenvatting: "Q2 gepland",
      highlights: ["Omzet Q1 boven plan"], besluiten: ["Twee rocks per persoon"],
      actiepunten: [{ tekst: "Plan maken", eigenaar: ANNA, deadline: "2026-04-30" }, { tekst: "Iets regelen" }] },
      { sleutel: "concept", datum: "2026-05-12", titel: "Maandsessie", soort: "maand", samenvatting: "Cijfers", vastgesteld: false }],
    strategie: { bhag: "Marktleider in 2030", jaarthema: "Groei" },
  };
}
/** The items of sample(): mensen, teams, processen, rollen, projecten, prioriteiten, kernresultaten, kpis, doelen, metingen,
 * taken with subtaken, opmerkingen, uren, weektaken, reflecties, waarderingen, gesprekken, sessienotities, strategie fields. */
const ITEMS = 3 + 2 + 1 + 2 + 1 + 2 + 1 + 1 + 1 + 2 + 5 + 1 + 3 + 2 + 2 + 2 + 1 + 2 + 2;

before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NOW });
});
after(async () => {
  await koers.stop();
  await db.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the import format", () => {
  it("docs/import.schema.json is the schema the CLI checks against, and koers import --schema prints it", async () => {
    const doc = fs.readFileSync(path.join(root, "docs/import.schema.json"), "utf8");
    assert.equal(doc, `${JSON.stringify(importSchema, null, 2)}\n`, "regenerate it: npx koers import --schema > docs/import.schema.json");
    const r = await koersCli(["import", "--schema"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, doc);
    assert.deepEqual(JSON.parse(doc).$defs.persoon.properties.rol.enum, values("rol"), "lists come from src/choices.ts");
  });

  it("docs/demo.json is valid against the schema", () => {
    const validate = new Ajv2020({ allErrors: true, strict: true })
      .compile(JSON.parse(fs.readFileSync(path.join(root, "docs/import.schema.json"), "utf8")));
    assert.equal(validate(readDemo()), true, JSON.stringify(validate.errors?.slice(0, 3)));
    assert.deepEqual(checkShape(readDemo()).faults, []);
  });

  it("the demo moves to any day: valid, this week's board filled, nothing measured ahead of the day", () => {
    const demo = readDemo();
    const days: string[] = [];
    for (let t = Date.parse("2026-01-01T00:00:00Z"); t <= Date.parse("2028-12-31T00:00:00Z"); t += 86_400_000) {
      const d = new Date(t).toISOString().slice(0, 10);
      if (/-(01-0[1-4]|03-3[01]|04-0[1-4]|06-30|07-0[1-4]|09-30|10-0[1-4]|12-3[01])$/.test(d) || t % (7 * 86_400_000) === 0) days.push(d);
    }
    for (const day of days) {
      const moved = shiftDemo(demo, day) as Record<string, any>;
      assert.deepEqual(checkShape(moved).faults, [], day);
      assert.ok(moved.weektaken.some((x: { week: string }) => x.week === isoWeek(Date.parse(`${day}T00:00:00Z`))), day);
      for (const k of moved.kpis) {
        for (const m of k.metingen) {
          if (/W/.test(m.periode)) assert.ok(new Date(weekMonday(m.periode)).toISOString().slice(0, 10) <= day, `${day} ${m.periode}`);
        }
        const weeks = k.metingen.filter((m: { periode: string }) => /W/.test(m.periode)).map((m: { periode: string }) => m.periode);
        assert.equal(new Set(weeks).size, weeks.length, `${day}: one measurement per week`);
      }
      const quarter = `Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}-${day.slice(0, 4)}`;
      assert.equal(moved.prioriteiten.filter((p: { kwartaal: string }) => p.kwartaal === quarter).length, 8, day);
      assert.ok(moved.uren.every((u: { datum: string }) => u.datum <= day), day);
    }
  });

  it("the moved demo imports on the days where leaving out the future matters", async () => {
    for (const day of ["2026-07-01", "2026-12-31", "2027-01-01", "2027-01-04", "2026-08-13"]) {
      const now = `${day}T12:00:00+01:00`;
      const sql = postgres(db.url, { max: 1, onnotice: () => {}, connection: { "koers.nu": now } });
      try {
        const org = (await sql`select beheer.org_aanmaken(${`Demo ${day}`}) ->> 'org_id' as id`)[0]!.id;
        const outcome = await importData(sql, org, shiftDemo(readDemo(), day));
        assert.ok(outcome.ok, `${day}: ${JSON.stringify(!outcome.ok && outcome.fouten.slice(0, 3))}`);
      } finally {
        await sql.end();
      }
    }
  });
});

describe("koers import", () => {
  let org: string;
  let file: string;

  it("loads every kind of item through the tables: history, events and one call-log row", async () => {
    org = await newOrg("Acme BV");
    file = writeFile("acme.json", sample());
    const r = await koersCli(["import", "--org", "Acme BV", file, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.totaal, { nieuw: ITEMS, bijgewerkt: 0, ongewijzigd: 0 });
    assert.deepEqual(out.aantallen.taken, { nieuw: 5 });
    assert.deepEqual(out.aantallen.strategie, { nieuw: 2 });
    const counts = await snapshot(org);
    for (const [table, n] of Object.entries({ lidmaatschappen: 3, teams: 2, processen: 1, rollen: 2, projecten: 1, project_leden: 2,
      prioriteiten: 2, kernresultaten: 1, kpis: 1, kpi_kwartaaldoelen: 1, kpi_metingen: 2, taken: 5, tags: 2, taak_tags: 2,
      opmerkingen: 1, uren: 3, weektaken: 2, reflecties: 2, waarderingen: 2, gesprekken: 1, sessienotities: 2, sessie_actiepunten: 2,
      strategie: 1, aanroepen: 1 })) {
      assert.equal(counts[table], n, table);
    }
    const [call] = await db.sql`select door, operatie, user_id, parameters from app_private.aanroepen where org_id = ${org}`;
    assert.deepEqual({ ...call }, { door: "app", operatie: "importeren", user_id: null, parameters: { items: ITEMS } });
    const history = await db.sql`select soort, door_user_id from app.taak_geschiedenis where org_id = ${org} and soort = 'aangemaakt'`;
    assert.equal(history.length, 5);
    assert.ok(history.every((h) => h.door_user_id === null), "the app itself created them");
    const events = await db.sql`select soort, count(*)::int as n, bool_or(besloten) as besloten from app.gebeurtenissen
                                where org_id = ${org} and soort in ('prioriteit.aangemaakt', 'taak.aangemaakt')
                                group by soort order by soort`;
    assert.deepEqual(events.map((e) => ({ ...e })), [
      { soort: "prioriteit.aangemaakt", n: 2, besloten: false },
      { soort: "taak.aangemaakt", n: 5, besloten: true },  // the task in the private project is marked
    ]);
    const [anna] = await db.sql`select a.email, l.rol, t.naam as team from app.accounts a join app.lidmaatschappen l on l.user_id = a.id
      left join app.teams t on t.org_id = l.org_id and t.id = l.team_id where l.org_id = ${org} and lower(a.email) = ${ANNA}`;
    assert.deepEqual({ ...anna }, { email: "Anna@Acme.nl", rol: "eigenaar", team: "Directie" });
    const [sub] = await db.sql`select s.eigenaar_user_id = p.eigenaar_user_id as zelfde, s.prioriteit_id = p.prioriteit_id as zelfde_prio,
      s.stand from app.taken s join app.taken p on p.org_id = s.org_id and p.id = s.ouder_id where s.org_id = ${org}`;
    assert.deepEqual({ ...sub }, { zelfde: true, zelfde_prio: true, stand: "voltooid" }, "a subtask belongs where its parent does");
    const [refl] = await db.sql`select periode, ingediend_op is not null as ingediend from app.reflecties where org_id = ${org} and soort = 'kwartaal'`;
    assert.deepEqual({ ...refl }, { periode: "2026-Q1", ingediend: true });
    const notes = await db.sql`select titel, status from app.sessienotities where org_id = ${org} order by datum`;
    assert.deepEqual(notes.map((n) => [n.titel, n.status]), [["Kwartaalsessie", "vastgesteld"], ["Maandsessie", "concept"]]);
  });

  it("what it loaded is what the REST door shows", async () => {
    const k = createApiKey();
    await db.sql`select beheer.sleutel_aanmaken(${org}, beheer.lid(${org}, ${ANNA}), ${k.hash}, ${k.hint})`;
    await db.sql`select beheer.koppeling_zetten(${org}, 'rest', true, false)`;
    await db.sql`select beheer.secties_zetten(${org}, ${values("sectie") as string[]}::text[], true)`;
    const apiKey = k.key;
    const p = await request(koers.baseUrl, "GET", "/api/v1/prioriteiten", { apiKey, query: { org_id: org } });
    assert.equal(p.status, 200);
    assert.deepEqual(p.body.prioriteiten.map((x: { titel: string }) => x.titel).sort(), ["Meer klanten", "Omzet +10%"]);
    const okr = p.body.prioriteiten.find((x: { soort: string }) => x.soort === "okr");
    assert.equal(okr.voortgang, 40, "the key result is at 8 of 20");
    const t = await request(koers.baseUrl, "GET", "/api/v1/team", { apiKey, query: { org_id: org } });
    assert.deepEqual(t.body.open_rollen.map((x: { naam: string }) => x.naam), ["Binnendienst"]);
    assert.equal(t.body.leden.length, 2, "the inactive member is not listed");
    const s = await request(koers.baseUrl, "GET", "/api/v1/kpi-scorebord", { apiKey, query: { org_id: org } });
    assert.deepEqual([s.body.kpis[0].naam, s.body.kpis[0].huidige_stand, s.body.kpis[0].kwartaaldoel], ["Leads", 11, 130]);
  });

  it("running it again adds nothing and changes nothing", async () => {
    const before = await snapshot(org);
    const r = await koersCli(["import", "--org", org, file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^imported .*acme.json: 0 new, 0 updated, ${ITEMS} unchanged$`, "m"));
    assert.match(r.stdout, /^ {2}taken: 0 new, 0 updated, 5 unchanged$/m);
    const afterwards = await snapshot(org);
    assert.deepEqual({ ...afterwards, aanroepen: 0, audit_log: 0 }, { ...before, aanroepen: 0, audit_log: 0 });
    assert.equal(afterwards.aanroepen, before.aanroepen! + 1, "a second call-log row");
    assert.equal(afterwards.audit_log, before.audit_log, "no row was touched");
  });

  it("a changed file updates what changed and adds what is new; what it leaves out stays", async () => {
    const changed = sample();
    changed.taken[0].stand = "voltooid";
    changed.taken[0].tags = ["sales"];
    delete changed.taken[1].grootte;
    changed.taken.push({ omschrijving: "Nieuwe taak", prioriteit: "omzet" });
    changed.kpis[0].metingen[1].waarde = 4;
    changed.mensen[1].rol = "mt";
    const r = await koersCli(["import", "--org", org, writeFile("changed.json", changed), "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.aantallen.taken, { nieuw: 1, bijgewerkt: 1, ongewijzigd: 4 });
    assert.deepEqual(out.aantallen.kpi_metingen, { bijgewerkt: 1, ongewijzigd: 1 });
    assert.deepEqual(out.aantallen.mensen, { bijgewerkt: 1, ongewijzigd: 2 });
    assert.equal(out.totaal.nieuw, 1);
    const [t1] = await db.sql`select stand, (select jsonb_agg(g.naam order by g.naam) from app.taak_tags tt join app.tags g
      on g.org_id = tt.org_id and g.id = tt.tag_id where tt.org_id = t.org_id and tt.taak_id = t.id) as tags
      from app.taken t where org_id = ${org} and omschrijving = 'Offerte sturen'`;
    assert.deepEqual({ ...t1 }, { stand: "voltooid", tags: ["Sales"] });
    const [t2] = await db.sql`select grootte from app.taken where org_id = ${org} and omschrijving = 'Homepage teksten'`;
    assert.equal(t2!.grootte, "middel", "a field the file leaves out keeps its value");
    const done = await db.sql`select count(*)::int as n from app.gebeurtenissen where org_id = ${org} and soort = 'taak.klaar'`;
    assert.equal(done[0]!.n, 1, "ticking a task off through the import is a taak.klaar");
  });

  it("a malformed file changes nothing and names every fault with its place, in the order of the file", async () => {
    const bad = sample();
    bad.onbekend = true;
    bad.mensen.push({ email: "geen-adres", naam: "X", rol: "lid" }, { email: "d@acme.nl", naam: "D" }, { email: BRAM, naam: "Bram", rol: "lid" });
    bad.teams[1].leider = "niemand@acme.nl";
    bad.prioriteiten[0].deadline = "2026-07-01";
    bad.prioriteiten[0].kernresultaten = [{ titel: "x", doel: 1 }];
    bad.kpis.push({ naam: "Omzet", eigenaar: ANNA, meetsoort: "teller", cadans: "jaar" },
      { naam: "Marge", eigenaar: ANNA, meetsoort: "stand", cadans: "quarter", metingen: [{ periode: "2026-Q2", waarde: 30 }, { periode: "2026-05", waarde: 1 }] });
    bad.taken[0].prioriteit = "bestaat niet";
    bad.taken[1].subtaken = [{ omschrijving: "Sub", herhalen: "week" }];
    bad.taken[2].deadline = "2026-02-30";
    bad.taken[3].eigenaar = "x@y.nl";
    bad.taken.push({ omschrijving: "koffie BESTELLEN" });
    bad.uren[0].uren = 25;
    bad.uren[1].datum = "2026-05-15";
    bad.reflecties[0].energie = 0;
    bad.gesprekken[0].afgerond = false;
    bad.waarderingen[0].multiple = undefined;
    bad.strategie.visie = "x";
    const org2 = await newOrg("Leeg BV");
    const before = await snapshot(org2);
    const r = await koersCli(["import", "--org", "Leeg BV", writeFile("bad.json", bad), "--json"]);
    assert.equal(r.code, 1, r.stderr);
    const faults: { pad: string; bericht: string }[] = JSON.parse(r.stdout).fouten;
    assert.deepEqual(faults.map((f) => f.pad), [
      "/mensen/3/email", "/mensen/4/rol", "/mensen/5/email", "/teams/1/leider", "/prioriteiten/0/deadline",
      "/prioriteiten/0/kernresultaten", "/kpis/1/cadans", "/kpis/2/metingen/0/periode", "/kpis/2/metingen/1/periode",
      "/taken/0/prioriteit", "/taken/1/subtaken/0/herhalen", "/taken/2/deadline", "/taken/3/eigenaar", "/taken/4/omschrijving",
      "/uren/0/uren", "/uren/1/datum", "/reflecties/0/energie", "/waarderingen/0", "/gesprekken/0/eindoordeel",
      "/strategie/visie", "/onbekend",
    ]);
    const says = (pad: string) => faults.find((f) => f.pad === pad)!.bericht;
    assert.equal(says("/mensen/3/email"), "moet een e-mailadres zijn.");
    assert.equal(says("/mensen/4/rol"), "is verplicht.");
    assert.match(says("/mensen/5/email"), /bram@acme.nl staat al in het bestand op \/mensen\/1/);
    assert.equal(says("/taken/3/eigenaar"), "x@y.nl staat niet in mensen en is geen lid van deze organisatie.");
    assert.match(says("/taken/4/omschrijving"), /Dezelfde taak als \/taken\/2/);
    assert.equal(says("/kpis/1/cadans"), `moet een van ${values("cadans").join(", ")} zijn.`);
    assert.match(says("/kpis/2/metingen/0/periode"), /Kwartaal 2026-Q2 loopt nog/);
    assert.match(says("/kpis/2/metingen/1/periode"), /periode past niet bij de cadans quarter/);
    assert.match(says("/prioriteiten/0/deadline"), /ligt niet in Q2-2026/);
    assert.equal(says("/uren/0/uren"), "mag hoogstens 24 zijn.");
    assert.equal(says("/onbekend"), "bestaat niet in het importformaat (zie docs/import.md).");
    assert.deepEqual(await snapshot(org2), before, "nothing was written, not even a call-log row");

    const text = await koersCli(["import", "--org", "Leeg BV", path.join(tmp, "bad.json")]);
    assert.equal(text.code, 1);
    assert.match(text.stderr, /bad.json has 21 faults; nothing was imported\.\n {2}\/mensen\/3\/email: moet een e-mailadres zijn\./);
    assert.equal(text.stdout, "");
  });

  it("names an item that repeats an earlier one, and a date that does not exist, at its place in every kind", async () => {
    const bad = sample();
    bad.projecten.push({ titel: "Intranet", eigenaar: ANNA, startdatum: "2026-02-30" },
      { titel: "intranet", eigenaar: ANNA, deadline: "2026-06-31" }, { sleutel: "web", titel: "Webshop", eigenaar: ANNA });
    bad.prioriteiten.push({ titel: "omzet +10%", soort: "rock", eigenaar: ANNA, kwartaal: "Q3-2026" },
      { titel: "Omzet +10%", soort: "rock", eigenaar: ANNA, kwartaal: "Q3-2026" });
    bad.kpis.push({ sleutel: "leads", naam: "Andere leads", eigenaar: BRAM, meetsoort: "teller", cadans: "week" },
      { naam: "Marge", eigenaar: ANNA, meetsoort: "stand", cadans: "month" }, { naam: "marge", eigenaar: ANNA, meetsoort: "stand", cadans: "month" });
    bad.gesprekken[0].datum = "2026-02-29";
    bad.sessienotities[0].actiepunten[0].deadline = "2026-04-31";
    bad.sessienotities.push({ datum: "2026-04-02", titel: "kwartaalsessie", soort: "kwartaal", samenvatting: "Nog eens" },
      { sleutel: "concept", datum: "2026-13-01", titel: "Andere sessie", soort: "maand", samenvatting: "x" });
    const r = await koersCli(["import", "--org", await newOrg("Dubbel BV"), writeFile("dubbel.json", bad), "--json"]);
    assert.equal(r.code, 1, r.stderr);
    const faults: { pad: string; bericht: string }[] = JSON.parse(r.stdout).fouten;
    const says = (pad: string) => faults.filter((f) => f.pad === pad).map((f) => f.bericht);
    assert.deepEqual(says("/projecten/1/startdatum"), ["2026-02-30 is geen bestaande datum."]);
    assert.deepEqual(says("/projecten/2/deadline"), ["2026-06-31 is geen bestaande datum."]);
    assert.deepEqual(says("/projecten/2/titel"),
      ["Hetzelfde project als /projecten/1 (zelfde titel); geef elk project een eigen sleutel of titel."]);
    assert.deepEqual(says("/projecten/3/sleutel"),
      ["Hetzelfde project als /projecten/0 (zelfde sleutel); geef elk project een eigen sleutel of titel."]);
    assert.deepEqual(says("/prioriteiten/3/titel"),
      ["Dezelfde prioriteit als /prioriteiten/2 (zelfde titel in hetzelfde kwartaal); geef een van beide een eigen sleutel."]);
    assert.deepEqual(says("/kpis/1/sleutel"), ["Dezelfde KPI als /kpis/0 (zelfde sleutel); geef een van beide een eigen sleutel."]);
    assert.deepEqual(says("/kpis/3/naam"), ["Dezelfde KPI als /kpis/2 (zelfde naam); geef een van beide een eigen sleutel."]);
    assert.deepEqual(says("/gesprekken/0/datum"), ["2026-02-29 is geen bestaande datum."]);
    assert.deepEqual(says("/sessienotities/0/actiepunten/0/deadline"), ["2026-04-31 is geen bestaande datum."]);
    assert.deepEqual(says("/sessienotities/2/titel"),
      ["Dezelfde sessienotitie als /sessienotities/0 (zelfde datum en titel); geef een van beide een eigen sleutel."]);
    assert.deepEqual(says("/sessienotities/3/datum"), ["2026-13-01 is geen bestaande datum."]);
    assert.deepEqual(says("/sessienotities/3/sleutel"),
      ["Dezelfde sessienotitie als /sessienotities/1 (zelfde sleutel); geef een van beide een eigen sleutel."]);
  });

  it("text that PostgreSQL cannot hold and nesting beyond the format are faults, not errors", async () => {
    const org3 = await newOrg("Rare Tekens BV");
    const before = await snapshot(org3);
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const raw = `{"mensen": [{"email": "a@b.nl", "naam": "Nul\\u0000byte", "rol": "lid"}, {"email": "c@d.nl", "naam": "Los \\ud800", "rol": "lid"}],
                  "toelichting": ${deep}, "taken": [{"omschrijving": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": {"k": 1}}}}}}}}}}}}]}`;
    const r = await koersCli(["import", "--org", org3, writeFile("rare.json", raw), "--json"]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).fouten.map((f: { pad: string }) => f.pad),
      ["/mensen/0/naam", "/mensen/1/naam", "/toelichting", "/taken/0/omschrijving"]);
    assert.deepEqual(await snapshot(org3), before);
    const notJson = await koersCli(["import", "--org", org3, writeFile("kapot.json", "{\"mensen\": [")]);
    assert.equal(notJson.code, 1);
    assert.match(notJson.stderr, /kapot.json has 1 fault; nothing was imported\.\n {2}\/: Het bestand is geen geldige JSON/);
  });

  it("refuses usage errors with exit 2 and an unknown organisation with exit 1", async () => {
    // Usage errors stop before the database, so they may run at once.
    const cases: [string[], RegExp][] = [
      [["import", "--org", "Acme BV"], /name the file to import/],
      [["import", file], /--org is required/],
      [["import", "--org", "Acme BV", path.join(tmp, "bestaat-niet.json")], /cannot read .*bestaat-niet.json/],
      [["import", "--org", "Acme BV", file, file], /import takes one file/],
      [["demo", "extra"], /demo takes no arguments/],
    ];
    await Promise.all(cases.map(async ([args, message]) => {
      const r = await koersCli(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }));
    const r = await koersCli(["import", "--org", "Niemand BV", file]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /Organisatie Niemand BV bestaat niet/);
  });

  it("a large file reports progress on stderr and loads in one go", async () => {
    const org4 = await newOrg("Groot BV");
    const big = { mensen: [{ email: "g@groot.nl", naam: "G", rol: "eigenaar" }],
      taken: Array.from({ length: 1_500 }, (_, i) => ({ omschrijving: `Taak ${i + 1}`, eigenaar: "g@groot.nl", tags: [`t${i % 7}`] })) };
    const r = await koersCli(["import", "--org", org4, writeFile("groot.json", big)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^koers: import: checking 1501 items$/m);
    assert.match(r.stderr, /^koers: import: 1000 of 1501 items written$/m);
    assert.match(r.stderr, /^koers: import: 1501 of 1501 items written$/m);
    const [n] = await db.sql`select count(*)::int as n, max(nummer) as hoogste from app.taken where org_id = ${org4}`;
    assert.deepEqual({ ...n }, { n: 1_500, hoogste: 1_500 });
  });

  it("two imports of one file at once take turns and make each row once", async () => {
    const org5 = await newOrg("Tegelijk BV");
    const connections = [0, 1].map(() => postgres(db.url, { max: 1, onnotice: () => {}, connection: { "koers.nu": NOW } }));
    try {
      const outcomes = await Promise.all(connections.map((c) => importData(c, org5, sample())));
      const created = outcomes.map((o) => {
        assert.ok(o.ok);
        return Object.values(o.aantallen).reduce((n, c) => n + (c.nieuw ?? 0), 0);
      });
      assert.deepEqual(created.sort((x, y) => x - y), [0, ITEMS]);
    } finally {
      await Promise.all(connections.map((c) => c.end()));
    }
    const counts = await snapshot(org5);
    assert.deepEqual([counts.taken, counts.lidmaatschappen, counts.uren, counts.aanroepen], [5, 3, 3, 2]);
  });
});

describe("koers demo", () => {
  it("loads the demo organisation, switches REST on, releases every section and prints a key that works; twice is harmless", async () => {
    const first = await koersCli(["demo", "--json"]);
    assert.equal(first.code, 0, first.stderr);
    const d = JSON.parse(first.stdout);
    assert.match(d.sleutel, /^koers_live_/);
    assert.ok(d.curl.some((c: string) => c.includes(`/api/v1/prioriteiten?org_id=${d.org_id}`) && c.includes(d.sleutel)));
    const before = await snapshot(d.org_id);

    const second = await koersCli(["demo"]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`demo organisation: .* \\(org_id ${d.org_id}\\): 0 new, 0 updated, \\d+ unchanged`));
    const key2 = /^(koers_live_\w+)$/m.exec(second.stdout)![1]!;
    assert.notEqual(key2, d.sleutel, "a new key each time");
    assert.match(second.stdout, /^ {2}curl -H "Authorization: Bearer koers_live_\w+" "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/team\?org_id=/m);
    const afterwards = await snapshot(d.org_id);
    // The door switch and the section releases are written again (audit rows); nothing imported changes.
    assert.deepEqual({ ...afterwards, aanroepen: 0, api_sleutels: 0, audit_log: 0 }, { ...before, aanroepen: 0, api_sleutels: 0, audit_log: 0 });
    assert.equal((await db.sql`select count(*)::int as n from app.organisaties where naam = ${d.organisatie}`)[0]!.n, 1);

    const get = (p: string, query: Record<string, string> = {}) =>
      request(koers.baseUrl, "GET", `/api/v1/${p}`, { apiKey: d.sleutel, query: { org_id: d.org_id, ...query } });
    const me = await request(koers.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: key2 });
    assert.equal(me.body.gebruiker.naam, d.namens);
    const team = await get("team");
    assert.equal(team.body.leden.length, 12);
    assert.ok(team.body.open_rollen.length > 0);
    const prio = await get("prioriteiten");
    assert.equal(prio.body.kwartaal, "Q2-2026");
    const stands = new Set(prio.body.prioriteiten.map((p: { stand: string }) => p.stand));
    for (const s of ["op koers", "loopt achter", "nog niet gestart", "geen taken"]) assert.ok(stands.has(s), `${s} in ${[...stands]}`);
    const kpis = await get("kpi-scorebord");
    assert.ok(kpis.body.kpis.some((k: { stoplicht: string }) => k.stoplicht === "achter"), "a red KPI");
    assert.ok(kpis.body.kpis.some((k: { stoplicht: string }) => k.stoplicht === "op koers"));
    const tasks = await get("taken", { ook_afgesloten: "ja" });
    assert.deepEqual(new Set(tasks.body.taken.map((t: { stand: string }) => t.stand)),
      new Set(Object.values({ open: "open", in_uitvoering: "bezig", wacht_op_feedback: "wacht op feedback", voltooid: "klaar", vervallen: "vervallen" })));
    const board = await get("weektaken");
    assert.ok(board.body.borden.filter((b: { taken: unknown[] }) => b.taken.length > 0).length >= 5, "this week's boards");
    assert.equal((await get("projecten")).body.projecten.length, 3);
    const [owner] = await db.sql`select l.rol from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
                                 where l.org_id = ${d.org_id} and a.email = ${DEMO_OWNER}`;
    assert.equal(owner!.rol, "eigenaar");
  });
});
