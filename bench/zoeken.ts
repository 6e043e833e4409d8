// What `zoeken` costs on a large organisation. Prints figures; not a timed test.
//   npm run bench:zoeken                       (own throwaway cluster)
//   BENCH_DATABASE_URL=postgres://... npm run bench:zoeken   (a server of your choice)
//   BENCH_TASKS=100000 BENCH_RUNS=30           (defaults)
// Loads one organisation with BENCH_TASKS tasks over two years (history, comments, tags, a few
// thousand attachments with text, priorities with key results, projects of which some private,
// KPIs, 200 people), plus a small second organisation, then calls `zoeken` through
// api.aanroep as the door role (koers_door, under RLS) and over HTTP, as a member who does not
// work on the private projects and as the owner, and prints latency per query and overall.
import os from "node:os";
import postgres from "postgres";
import type { AddressInfo } from "node:net";
import { migrate } from "../src/db/migrate.ts";
import { doorUrl, connect } from "../src/db/connection.ts";
import { buildRestDoor } from "../src/rest.ts";
import { createApiKey } from "../src/api-key.ts";
import { benchDatabase } from "./database.ts";

const TASKS = Number(process.env.BENCH_TASKS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const ATTACHMENTS = Math.max(100, Math.round(TASKS * 0.03));
const PEOPLE = 200;

const started = performance.now();
const progress = (what: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${what}`);

const database = await benchDatabase(progress);
const dbName = database.name, url = database.url;

// Words to build text from, most common first: picking index floor(n * random()^3) makes the
// first words common (in a fifth of all tasks) and the last ones rare (a few dozen).
const WORDS = [
  "klant", "offerte", "planning", "overleg", "website", "levering", "factuur", "rapportage", "contract",
  "campagne", "training", "onderhoud", "budget", "nieuwsbrief", "vacature", "installatie", "storing",
  "onboarding", "evaluatie", "presentatie", "leverancier", "voorraad", "magazijn", "prijslijst", "beurs",
  "subsidie", "jaarverslag", "kwaliteitscontrole", "certificering", "klanttevredenheid", "servicecontract",
  "bakkerij", "café", "taak", "tandartspraktijk", "zonnepanelen", "warmtepomp", "kozijnen", "dakgoot", "vloerverwarming",
  "accountantsverklaring", "btw-aangifte", "personeelsuitje", "koffieautomaat", "parkeervergunning",
  "brandblusser", "ergonomie", "verzuimbeleid", "privacyverklaring", "datalek", "penetratietest",
];
const VERBS = ["bellen", "mailen", "voorbereiden", "controleren", "afronden", "plannen", "bespreken", "versturen",
  "bijwerken", "opstellen", "nakijken", "regelen", "uitzoeken", "aanvragen", "inplannen"];
const CLIENTS = ["Jansen", "De Vries", "Bakker", "Visser", "Smit", "Meijer", "De Boer", "Mulder", "De Groot", "Bos",
  "Vos", "Peters", "Hendriks", "Van Leeuwen", "Dekker", "Brouwer", "De Wit", "Dijkstra", "Smits", "De Graaf"];
const FIRST = ["Anna", "Bram", "Chantal", "Daan", "Eva", "Femke", "Gijs", "Hanna", "Iris", "Jeroen", "Kees", "Lotte",
  "Mila", "Noah", "Olga", "Pieter", "Renée", "Sem", "Tess", "Zoë"];
const TITLES = ["accountmanager", "projectleider", "monteur", "planner", "boekhouder", "marketeer", "ontwikkelaar",
  "binnendienst", "office manager", "directeur"];

const sqlArray = (a: string[]) => `array[${a.map((w) => `'${w.replaceAll("'", "''")}'`).join(",")}]`;

try {
  progress(`migrating ${dbName}`);
  await migrate(url);
  const admin = postgres(url, { max: 1, onnotice: () => {}, connection: { work_mem: "64MB" } });
  const [{ r: org }] = await admin`select beheer.org_aanmaken('Zoek Bench BV') as r` as unknown as [{ r: { org_id: string } }];
  const o = org.org_id;
  const other = (await admin`select beheer.org_aanmaken('Ander Bench BV') as r`)[0]!.r.org_id as string;

  progress(`${PEOPLE} people in 10 teams`);
  const members: { user_id: string; rol: string }[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const rol = i === 0 ? "eigenaar" : i < 5 ? "mt" : "lid";
    const name = `${FIRST[i % FIRST.length]} ${CLIENTS[Math.floor(i / FIRST.length) % CLIENTS.length]} ${i}`;
    const [{ r }] = await admin`select beheer.lid_aanmaken(${o}, ${name}, ${`p${i}@bench.test`}, ${rol},
      ${TITLES[i % TITLES.length]!}, ${`Team ${i % 10}`}) as r` as unknown as [{ r: { user_id: string } }];
    members.push({ user_id: r.user_id, rol });
  }
  await admin`select beheer.lid_aanmaken(${other}, 'Andere Eigenaar', 'ander@bench.test', 'eigenaar')`;
  const owner = members[0]!;
  const member = members[10]!;
  const keys: Record<string, string> = {};
  for (const [who, m] of [["eigenaar", owner], ["lid", member]] as const) {
    const k = createApiKey();
    await admin`select beheer.sleutel_aanmaken(${o}, ${m.user_id}, ${k.hash}, ${k.hint})`;
    keys[who] = k.key;
    (keys as Record<string, unknown>)[`${who}_hash`] = k.hash;
  }
  await admin`select beheer.koppeling_zetten(${o}, 'rest', true, false)`;
  await admin`select beheer.secties_zetten(${o}, array['team', 'prioriteiten', 'kpis'], true)`;

  // Bulk load without triggers (as a restore would); what the triggers derive is filled in here.
  await admin.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx.unsafe(`
      create temp table w as select ${sqlArray(WORDS)} as woorden, ${sqlArray(VERBS)} as werkwoorden,
        ${sqlArray(CLIENTS)} as klanten;
      create temp table mensen as select row_number() over (order by l.aangemaakt_op, l.user_id) - 1 as i, l.user_id
        from app.lidmaatschappen l where l.org_id = '${o}';
      create function pg_temp.woord(r float8) returns text language sql as
        'select woorden[1 + floor(array_length(woorden, 1) * r ^ 3)::int] from w';
      create function pg_temp.mens(r float8) returns uuid language sql as
        'select user_id from mensen where i = floor(r * ${PEOPLE})::int';
      create function pg_temp.zin(n int, seed float8) returns text language sql as
        'select string_agg(pg_temp.woord(random()), '' '') from generate_series(1, n)';`);
    progress("priorities (8 quarters) with key results, projects (some private), KPIs, tags");
    await tx.unsafe(`
      insert into app.prioriteiten (org_id, soort, titel, omschrijving, eigenaar_user_id, kwartaal_start, aangemaakt_door,
                                    afgerond_op, aangemaakt_op, bijgewerkt_op)
      select '${o}', case when i % 3 = 0 then 'okr' else 'rock' end,
        initcap(pg_temp.woord(random())) || ' ' || pg_temp.woord(random()) || ' op orde',
        pg_temp.zin(12, i), pg_temp.mens(random()), (date '2025-01-01' + ((i % 8) * interval '3 months'))::date,
        pg_temp.mens(random()), case when i % 8 < 6 then timestamptz '2025-01-01' + (i % 8) * interval '3 months' + interval '80 days' end,
        timestamptz '2025-01-01' + (i % 8) * interval '3 months', timestamptz '2025-01-01' + (i % 8) * interval '3 months' + interval '10 days'
      from generate_series(1, 400) i;
      insert into app.kernresultaten (org_id, prioriteit_id, titel, doelwaarde)
      select p.org_id, p.id, initcap(pg_temp.woord(random())) || ' ' || g || ' keer', 10
      from app.prioriteiten p, generate_series(1, 3) g where p.org_id = '${o}' and p.soort = 'okr';
      insert into app.projecten (org_id, titel, omschrijving, eigenaar_user_id, startdatum, besloten, aangemaakt_door,
                                 aangemaakt_op, bijgewerkt_op)
      select '${o}', 'Project ' || initcap(pg_temp.woord(random())) || ' ' || i, pg_temp.zin(15, i),
        pg_temp.mens(random() * 0.04), date '2025-01-01' + (i * 2), i % 15 = 0, pg_temp.mens(random() * 0.04),
        timestamptz '2025-01-01' + i * interval '2 days', timestamptz '2025-01-01' + i * interval '2 days'
      from generate_series(1, 300) i;
      insert into app.project_leden (org_id, project_id, user_id)
      select p.org_id, p.id, p.eigenaar_user_id from app.projecten p where p.org_id = '${o}';
      insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, aangemaakt_door, aangemaakt_op, bijgewerkt_op)
      select '${o}', 'Aantal ' || pg_temp.woord(random()) || ' ' || i, 'stuks', pg_temp.mens(random()),
        case when i % 2 = 0 then 'teller' else 'stand' end, 'week', pg_temp.mens(random()),
        timestamptz '2025-01-01', timestamptz '2025-01-01'
      from generate_series(1, 50) i;
      insert into app.tags (org_id, naam) select '${o}', t from unnest(${sqlArray(
        ["Sales", "Marketing", "Urgent", "Klant", "Intern", "Finance", "HR", "IT", "Juridisch", "Inkoop", "Logistiek",
          "Service", "Kwaliteit", "Strategie", "Website", "Social", "Beurs", "Subsidie", "Audit", "Privacy"])}) t;
      create temp table ids as select
        array(select id from app.prioriteiten where org_id = '${o}' order by id) as p,
        array(select id from app.projecten where org_id = '${o}' order by id) as j;`);
    progress(`${TASKS} tasks over two years (a third under priorities, a third in projects)`);
    for (let done = 0; done < TASKS; done += 20_000) {
      const n = Math.min(20_000, TASKS - done);
      await tx.unsafe(`
        insert into app.taken (org_id, nummer, omschrijving, toelichting, prioriteit_id, project_id, eigenaar_user_id,
                               aangemaakt_door, stand, deadline, afgerond_op, aangemaakt_op, bijgewerkt_op)
        select '${o}', ${done} + i,
          initcap((select werkwoorden[1 + (i * 7) % array_length(werkwoorden, 1)] from w)) || ' ' || pg_temp.woord(random())
            || ' ' || pg_temp.woord(random()) || ' voor ' || (select klanten[1 + (i * 13) % array_length(klanten, 1)] from w),
          case when i % 3 = 0 then pg_temp.zin(10 + i % 30, i) end,
          case when i % 3 = 1 then (select p[1 + (i / 3) % 400] from ids) end,
          case when i % 3 = 2 then (select j[1 + (i / 3) % 300] from ids) end,
          pg_temp.mens(random()), pg_temp.mens(random()),
          case when i % 10 < 5 then 'voltooid' when i % 10 = 5 then 'vervallen' when i % 10 = 6 then 'in_uitvoering' else 'open' end,
          date '2025-01-01' + (i % 700),
          case when i % 10 < 5 then t end, t - interval '20 days', t
        from (select i, timestamptz '2025-01-01' + ((${done} + i)::float8 / ${TASKS}) * interval '690 days' as t
              from generate_series(1, ${n}) i) x;`);
      progress(`  ${done + n} tasks`);
    }
    await tx.unsafe(`update app.organisaties set volgend_taaknummer = ${TASKS + 1} where org_id = '${o}'`);
    progress("tags on tasks, history entries, comments");
    await tx.unsafe(`
      insert into app.taak_tags (org_id, taak_id, tag_id)
      select distinct t.org_id, t.id, g.id from app.taken t cross join generate_series(1, 2) k
      join lateral (select id from app.tags where org_id = t.org_id order by hashtext(id::text || (t.nummer * 31 + k)::text) limit 1) g on true
      where t.org_id = '${o}' and t.nummer % 3 <> 0;
      update app.taken t set tag_tekst = x.namen, tag_sleutels = x.sleutels
      from (select tt.taak_id, string_agg(g.naam, ' ' order by lower(g.naam)) as namen,
                   array_agg(lower(g.naam) order by lower(g.naam)) as sleutels
            from app.taak_tags tt join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
            where tt.org_id = '${o}' group by tt.taak_id) x
      where t.org_id = '${o}' and t.id = x.taak_id;
      insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw)
      select t.org_id, t.id, s.soort, t.aangemaakt_door, t.aangemaakt_op + s.n * interval '1 day',
             '"open"'::jsonb, to_jsonb(t.stand)
      from app.taken t, (values ('aangemaakt', 0), ('stand', 3), ('deadline', 5)) s (soort, n) where t.org_id = '${o}';
      insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id, geplaatst_op)
      select t.org_id, t.id, 'Ik heb ' || pg_temp.zin(6 + t.nummer % 10, t.nummer) || ' besproken met ' ||
        (select klanten[1 + (t.nummer * 17) % array_length(klanten, 1)] from w), pg_temp.mens(random()), t.bijgewerkt_op
      from app.taken t where t.org_id = '${o}';`);
    progress(`${ATTACHMENTS} attachments with a few thousand characters of text each`);
    await tx.unsafe(`
      insert into app.bijlagen (org_id, taak_id, naam, mimetype, tekst, tekst_status, bytes, geupload_door, geupload_op)
      select t.org_id, t.id, pg_temp.woord(random()) || '_' || t.nummer || '.pdf', 'application/pdf',
        (select string_agg(pg_temp.zin(300, t.nummer * 10 + p), E'\\f') from generate_series(1, 1 + t.nummer % 4) p),
        'gelezen', 50000, pg_temp.mens(random()), t.bijgewerkt_op
      from app.taken t where t.org_id = '${o}' and t.nummer % ${Math.floor(TASKS / ATTACHMENTS)} = 1;
      insert into app.bijlage_delen (org_id, bijlage_id, nr, taak_id, geupload_op, plek, tekst)
      select b.org_id, b.id, d.nr, b.taak_id, b.geupload_op, 'pagina ' || d.nr, d.tekst
      from app.bijlagen b, app_hidden.tekst_delen(b.tekst, null) d where b.org_id = '${o}';`);
    // What triggers keep from these rows for the definitions (a task's hours and subtasks, a
    // rock's and a project's sums: db/165, db/135, db/115).
    await tx`select app_hidden.taak_sommen_opnieuw(${o}), app_hidden.sommen_opnieuw(${o})`;
  });
  progress("vacuum analyze");
  await admin.unsafe("vacuum analyze");
  const [counts] = await admin`select
    (select count(*) from app.taken) as taken, (select count(*) from app.opmerkingen) as opmerkingen,
    (select count(*) from app.bijlagen) as bijlagen, (select count(*) from app.bijlage_delen) as delen,
    (select count(*) from app.taak_geschiedenis) as geschiedenis, (select count(*) from app.taak_tags) as tags,
    pg_size_pretty(pg_database_size(current_database())) as grootte`;
  progress(`loaded: ${JSON.stringify(counts)}`);

  const [priority] = await admin`select id from app.prioriteiten where org_id = ${o} order by titel limit 1`;
  const [project] = await admin`select id from app.projecten where org_id = ${o} and not besloten order by titel limit 1`;
  const queries: [string, Record<string, unknown>][] = [
    ["rare word", { tekst: "penetratietest" }],
    ["medium word", { tekst: "subsidie" }],
    ["common word", { tekst: "klant" }],
    ["most common word", { tekst: "offerte" }],
    ["two words", { tekst: "offerte planning" }],
    ["client name", { tekst: "Dijkstra" }],
    ["stemming (taken)", { tekst: "taken" }],
    ["accent (cafe)", { tekst: "cafe" }],
    ["phrase", { tekst: "\"offerte voor\"" }],
    ["#number", { tekst: `#${Math.floor(TASKS / 2)}` }],
    ["person", { tekst: "Femke" }],
    ["attachments only", { tekst: "levering", soorten: ["bijlage"] }],
    ["text + owner", { tekst: "factuur", eigenaar_user_id: member.user_id }],
    ["text + priority", { tekst: "klant", hoort_bij_id: priority!.id }],
    ["text + project", { tekst: "planning", hoort_bij_id: project!.id }],
    ["text + open + tags", { tekst: "website", alleen_open: true, tags: ["Sales"] }],
    ["text + na/voor", { tekst: "contract", na: "2026-01-01", voor: "2026-04-01" }],
    ["no text: open tasks", { soorten: ["taak"], alleen_open: true }],
    ["no text: tags", { tags: ["Privacy", "Audit"] }],
    ["no text: done, creator", { alleen_klaar: true, aangemaakt_door_user_id: member.user_id }],
    ["no text: all kinds", { soorten: ["taak", "bijlage", "opmerking", "prioriteit", "project", "kpi", "persoon"] }],
  ];

  const doorSql = connect(await doorUrl(url), { now: null, name: "bench-zoeken", max: 2 });
  const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`\nzoeken through api.aanroep as koers_door, ${RUNS} runs per query after one warm-up; load average ${load()}`);
  console.log(`${"query".padEnd(26)} ${"role".padEnd(9)} ${"hits".padStart(4)}  ${"p50".padStart(7)}  ${"p95".padStart(7)}  ${"max".padStart(7)}`);
  const all: number[] = [];
  for (const role of ["lid", "eigenaar"]) {
    const hash = (keys as Record<string, unknown>)[`${role}_hash`] as Buffer;
    for (const [label, input] of queries) {
      const params = { org_id: o, ...input };
      const call = () => doorSql`select api.aanroep('rest', ${hash}, 'zoeken', ${doorSql.json(params as postgres.JSONValue)}, null) as r`;
      const first = (await call())[0]!.r;
      if (first.status !== 200) throw new Error(`${label}: ${JSON.stringify(first)}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
      all.push(...times);
      console.log(`${label.padEnd(26)} ${role.padEnd(9)} ${String(first.body.resultaten.length).padStart(4)}  ` +
        `${pct(times, 0.5).toFixed(1).padStart(5)} ms  ${pct(times, 0.95).toFixed(1).padStart(5)} ms  ` +
        `${Math.max(...times).toFixed(1).padStart(5)} ms`);
    }
  }
  console.log(`all queries, api.aanroep: p50 ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms, ` +
    `p99 ${pct(all, 0.99).toFixed(1)} ms (${all.length} calls); load average ${load()}`);
  await doorSql.end();

  // The same over HTTP: the REST door on loopback.
  const httpSql = connect(await doorUrl(url), { now: null, name: "bench-zoeken-http", max: 2 });
  const app = buildRestDoor(httpSql, { bodyLimit: 256 * 1024 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const http: number[] = [];
  for (const [label, input] of queries) {
    const u = new URL("/api/v1/zoeken", base);
    u.searchParams.set("org_id", o);
    for (const [k, v] of Object.entries(input)) u.searchParams.set(k, Array.isArray(v) ? v.join(",") : String(v));
    const get = async () => {
      const r = await fetch(u, { headers: { authorization: `Bearer ${keys.lid}` } });
      if (r.status !== 200) throw new Error(`${label} over HTTP: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    await get();
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await get();
      http.push(performance.now() - t);
    }
  }
  console.log(`all queries over HTTP (GET /api/v1/zoeken, as lid): p50 ${pct(http, 0.5).toFixed(1)} ms, ` +
    `p95 ${pct(http, 0.95).toFixed(1)} ms, p99 ${pct(http, 0.99).toFixed(1)} ms (${http.length} requests); load average ${load()}`);
  await app.close();
  await httpSql.end();
  await admin.end();
} finally {
  await database.drop();
}
