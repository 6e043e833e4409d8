// The benchmark's data set: 1,000 organisations of 50 people; one of them ("Bench Groot BV")
// with 100,000 tasks with history, two years of priorities with key results, 100 projects,
// and 25 KPIs with a quarter of measurements; the others with a little of everything; and a
// call log that has been in use for a month. Written with set-based SQL as the superuser, with
// triggers off (session_replication_role = replica): history and events are generated here as
// the triggers would have written them, and foreign keys are consistent by construction.
//
// The set is generated once per database and reused: bench.dataset says which version it is.
import type postgres from "postgres";

/** Bump when the generator changes: a database with another version is generated anew. */
export const DATASET_VERSION = "3";

export const BIG_ORG = "Bench Groot BV";
export const ORGS = 1000;
export const PEOPLE = 50;
export const BIG_TASKS = 100_000;

export interface Dataset {
  org: string;
  /** First day of the running quarter and of the previous one, as generated. */
  quarter: string;
  previousQuarter: string;
  /** Owners and task numbers the benchmark asks for. */
  owner: string;
  members: string[];
  taskNumber: number;
  priorityWithTasks: string;
}

type Step = [label: string, sql: string];

// The big organisation is number 1; org n has people p(n, 1..50), person 1 its owner.
const steps: Step[] = [
  ["organisations", `
    insert into app.organisaties (org_id, naam, volgend_taaknummer, aangemaakt_op)
    select bench.org_id(n), case when n = 1 then '${BIG_ORG}' else 'Bench ' || n || ' BV' end, 1,
           now() - interval '2 years'
    from generate_series(1, ${ORGS}) n`],
  ["people", `
    insert into app.accounts (id, email, naam, aangemaakt_op)
    select bench.user_id(n, i), 'p' || i || '@org' || n || '.bench.test',
           (array['Anna','Bram','Chris','Daan','Eva','Fleur','Gijs','Hanna','Ilse','Joost'])[1 + i % 10] || ' '
             || (array['de Vries','Jansen','Bakker','Visser','Smit','Meijer','de Boer','Mulder'])[1 + (i * 7 + n) % 8] || ' ' || i,
           now() - interval '2 years'
    from generate_series(1, ${ORGS}) n, generate_series(1, ${PEOPLE}) i`],
  ["teams and memberships", `
    insert into app.teams (org_id, id, naam, leider_user_id)
    select bench.org_id(n), bench.uuid('team', n, t), (array['Verkoop','Operatie','Product','Finance','Support'])[t],
           bench.user_id(n, 3 + t)
    from generate_series(1, ${ORGS}) n, generate_series(1, 5) t;
    insert into app.lidmaatschappen (org_id, user_id, rol, functietitel, team_id)
    select bench.org_id(n), bench.user_id(n, i),
           case when i = 1 then 'eigenaar' when i <= 3 then 'admin' when i <= 9 then 'mt' when i >= ${PEOPLE - 1} then 'coach' else 'lid' end,
           (array['Directeur','Accountmanager','Developer','Controller','Supportmedewerker'])[1 + i % 5],
           case when i % 10 = 0 then null else bench.uuid('team', n, 1 + i % 5) end
    from generate_series(1, ${ORGS}) n, generate_series(1, ${PEOPLE}) i`],
  ["processes and roles", `
    insert into app.processen (org_id, id, naam, eindverantwoordelijke_user_id, volgorde)
    select bench.org_id(n), bench.uuid('proces', n, p), (array['Verkopen','Leveren','Ontwikkelen','Financieren','Ondersteunen','Leiden'])[p],
           bench.user_id(n, 1 + p), p
    from generate_series(1, ${ORGS}) n, generate_series(1, 6) p;
    insert into app.rollen (org_id, id, proces_id, naam, user_id)
    select bench.org_id(n), bench.uuid('rol', n, p * 10 + r), bench.uuid('proces', n, p), 'Rol ' || p || '.' || r,
           case when r = 4 then null else bench.user_id(n, 8 + p * 4 + r) end
    from generate_series(1, ${ORGS}) n, generate_series(1, 6) p, generate_series(1, 4) r`],
  ["doors, sections, brand labels, keys", `
    insert into app.koppelingen (org_id, door, aan) select bench.org_id(n), 'rest', true from generate_series(1, ${ORGS}) n;
    insert into app.secties (org_id, sectie, vrijgegeven)
    select bench.org_id(n), s, true from generate_series(1, ${ORGS}) n, unnest(app_hidden.keuzes('sectie')) s;
    insert into app.brand_labels (org_id, id, naam)
    select bench.org_id(n), bench.uuid('label', n, b), 'Merk ' || b from generate_series(1, ${ORGS}) n, generate_series(1, 3) b;
    -- Keys nobody knows the secret of, so the hash index has the size of a real one.
    insert into app_private.api_sleutels (org_id, user_id, hash, hint)
    select bench.org_id(n), bench.user_id(n, i), sha256(convert_to('bench ' || n || ' ' || i || ' ' || random(), 'UTF8')), 'koers_live_…bnch'
    from generate_series(1, ${ORGS}) n, generate_series(1, 10) i`],
  ["priorities and key results", `
    -- The big organisation: 40 per quarter over two years; the others: 10 in the running quarter.
    insert into app.prioriteiten (org_id, id, soort, titel, eigenaar_user_id, kwartaal_start, startdatum, deadline, team_id,
                                  afgerond_op, aangemaakt_door, aangemaakt_op)
    select bench.org_id(n), bench.uuid('prio', n, q * 100 + k), case when k % 4 = 0 then 'okr' else 'rock' end,
           'Prioriteit ' || q || '.' || k, bench.user_id(n, 1 + k % 20), kw,
           case when k % 7 = 0 then kw + 14 end,
           case when k % 3 = 0 then kw + 60 end,
           case when k % 3 = 0 then null else bench.uuid('team', n, 1 + k % 5) end,
           case when q > 0 and k % 10 < 7 then (kw + 80)::timestamptz end,
           bench.user_id(n, 1), kw::timestamptz
    from generate_series(1, ${ORGS}) n,
         generate_series(0, 7) q,
         lateral (select (bench.kwartaal() - make_interval(months => 3 * q))::date as kw) x,
         generate_series(1, 40) k
    where (n = 1 or (q = 0 and k <= 10));
    insert into app.kernresultaten (org_id, prioriteit_id, titel, startwaarde, doelwaarde, huidige_waarde)
    select p.org_id, p.id, 'Kernresultaat ' || r, 0, 10 * r, (r * 3 + length(p.titel)) % (10 * r + 1)
    from app.prioriteiten p, generate_series(1, 3) r where p.soort = 'okr'`],
  ["projects", `
    insert into app.projecten (org_id, id, titel, eigenaar_user_id, startdatum, deadline, besloten, brand_label_id, aangemaakt_door)
    select bench.org_id(n), bench.uuid('project', n, j), 'Project ' || j, bench.user_id(n, 1 + j % 30),
           bench.kwartaal() - 200 + j, case when j % 2 = 0 then bench.kwartaal() + 180 end, j % 10 = 0,
           case when j % 3 = 0 then bench.uuid('label', n, 1 + j % 3) end, bench.user_id(n, 1)
    from generate_series(1, ${ORGS}) n, generate_series(1, 100) j where n = 1 or j <= 3;
    insert into app.project_leden (org_id, project_id, user_id)
    select p.org_id, p.id, bench.user_id(bench.org_nr(p.org_id), 10 + (abs(hashtext(p.id::text)) + m * 7) % 35)
    from app.projecten p, generate_series(1, 3) m
    on conflict do nothing`],
  ["tags", `
    insert into app.tags (org_id, id, naam)
    select bench.org_id(n), bench.uuid('tag', n, t), (array['Sales','Klant','Intern','Website','Urgent','Q-doel','Marketing',
      'Finance','Support','Product','Hiring','Onboarding','Juridisch','Partners','Data','Security','Facilitair','Inkoop','Event','Overig'])[t]
    from generate_series(1, ${ORGS}) n, generate_series(1, 20) t`],
  [`tasks (${BIG_TASKS} in the big organisation, 100 in each other)`, `
    -- Task i of org n was created (i / count) of the way through the last two years. Old tasks
    -- are mostly done; the last twelfth are open. Every twentieth is a subtask of the task five
    -- before it, under the same priority or project.
    insert into app.taken (org_id, id, nummer, omschrijving, prioriteit_id, project_id, ouder_id, eigenaar_user_id,
                           aangemaakt_door, stand, deadline, week, brand_label_id, grootte, inschatting_uren, herhalen,
                           afgerond_op, aangemaakt_op, bijgewerkt_op)
    select org, bench.uuid('taak', n, i), i, 'Taak ' || i || ' van ' || n,
           case when b % 10 / 3 = 0 then bench.uuid('prio', n, pq * 100 + 1 + (b / 7) % (case when n = 1 then 40 else 10 end)) end,
           case when b % 10 / 3 = 1 then bench.uuid('project', n, 1 + b % (case when n = 1 then 100 else 3 end)) end,
           case when b <> i then bench.uuid('taak', n, b) end,
           bench.user_id(n, 1 + (i * 13) % ${PEOPLE}), bench.user_id(n, 1 + (i * 7) % ${PEOPLE}),
           stand,
           case when i % 3 <> 0 then (gemaakt + interval '1 day' * (5 + i % 40))::date end,
           case when stand not in ('voltooid', 'vervallen') and i % 4 = 0 then to_char(now() + interval '1 week' * (i % 2), 'IYYY-"W"IW') end,
           case when i % 17 = 0 then bench.uuid('label', n, 1 + i % 3) end,
           case when i % 5 = 1 then (array['klein','middel','groot'])[1 + i % 3] end,
           case when i % 5 = 2 then 1 + i % 12 end,
           case when i % 97 = 0 and b = i then 'week' end,
           case when stand = 'voltooid' then gemaakt + interval '3 days' end,
           gemaakt, gemaakt
    from (
      select n, bench.org_id(n) as org, i, c,
             case when i % 20 = 5 and i > 10 then i - 5 else i end as b,
             now() - interval '730 days' * (1 - i::numeric / c) as gemaakt,
             -- The quarter of its parent's creation, counted back from the running one (0 .. 7);
             -- the small organisations have priorities in the running quarter only.
             case when n = 1 then least(7, ((c - (case when i % 20 = 5 and i > 10 then i - 5 else i end)) * 8 / c))::int else 0 end as pq,
             case when i > c - c / 12 then (array['open','open','open','in_uitvoering','wacht_op_feedback','voltooid'])[1 + i % 6]
                  when i % 20 = 7 then 'vervallen' when i % 50 = 3 then 'open' else 'voltooid' end as stand
      from generate_series(1, ${ORGS}) n,
           lateral (select case when n = 1 then ${BIG_TASKS} else 100 end as c) x,
           generate_series(1, c) i
    ) t;
    update app.organisaties o set volgend_taaknummer = 1 + (select max(nummer) from app.taken t where t.org_id = o.org_id)`],
  ["task tags", `
    insert into app.taak_tags (org_id, taak_id, tag_id)
    select t.org_id, t.id, bench.uuid('tag', bench.org_nr(t.org_id), 1 + (t.nummer * g) % 20)
    from app.taken t, generate_series(1, 2) g where t.nummer % 2 = 0 or g = 1
    on conflict do nothing`],
  ["task history", `
    insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, xid)
    select t.org_id, t.id, 'aangemaakt', t.aangemaakt_door, t.aangemaakt_op, null,
           jsonb_build_object('omschrijving', t.omschrijving), '1'
    from app.taken t;
    insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, xid)
    select t.org_id, t.id, 'stand', t.eigenaar_user_id, t.aangemaakt_op + interval '2 days', '"open"', to_jsonb(t.stand), '1'
    from app.taken t where t.stand <> 'open';
    insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, xid)
    select t.org_id, t.id, 'deadline', t.aangemaakt_door, t.aangemaakt_op + interval '1 day', 'null', to_jsonb(t.deadline), '1'
    from app.taken t where t.deadline is not null and t.nummer % 4 = 0`],
  ["hours", `
    insert into app.uren (org_id, user_id, datum, uren, taak_id)
    select t.org_id, t.eigenaar_user_id, t.aangemaakt_op::date + 1, 1 + t.nummer % 6, t.id
    from app.taken t where t.nummer % 5 = 0 and t.eigenaar_user_id is not null`],
  ["KPIs and a quarter of measurements", `
    insert into app.kpis (org_id, id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, team_id, aangemaakt_door)
    select bench.org_id(n), bench.uuid('kpi', n, k), 'KPI ' || k, (array['leads','euro','%','klanten','uren'])[1 + k % 5],
           bench.user_id(n, 1 + k % 15), case when k % 3 = 0 then 'stand' else 'teller' end,
           case when k <= 12 then 'week' when k <= 20 then 'month' else 'quarter' end,
           k % 6 = 5, case when k % 4 = 0 then null else bench.uuid('team', n, 1 + k % 5) end, bench.user_id(n, 1)
    from generate_series(1, ${ORGS}) n, generate_series(1, 25) k where n = 1 or k % 5 = 1;
    insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel)
    select k.org_id, k.id, q, case when k.meetsoort = 'stand' then 50 + length(k.naam) else 130 + 10 * length(k.naam) end
    from app.kpis k, unnest(array[bench.kwartaal(), (bench.kwartaal() - interval '3 months')::date]) q;
    -- The previous quarter measured in full, the running one so far.
    insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op)
    select k.org_id, k.id, p.periode, p.van, p.tot,
           case when k.meetsoort = 'stand' then 40 + (abs(hashtext(k.id::text || p.periode)) % 30)
                else 5 + (abs(hashtext(k.id::text || p.periode)) % 12) end,
           'Gemeten', k.eigenaar_user_id, p.tot
    from app.kpis k, lateral (
      select to_char(w, 'IYYY-"W"IW') as periode, w::date as van, (w + interval '6 days')::date as tot
      from generate_series(date_trunc('week', (bench.kwartaal() - interval '3 months')::date + 3), now() - interval '7 days', interval '1 week') w
      where k.cadans = 'week'
      union all
      select to_char(m, 'YYYY-MM'), m::date, (m + interval '1 month - 1 day')::date
      from generate_series((bench.kwartaal() - interval '3 months')::date, now() - interval '1 month', interval '1 month') m
      where k.cadans = 'month'
      union all
      select to_char(q, 'YYYY-"Q"Q'), q::date, (q + interval '3 months - 1 day')::date
      from (select (bench.kwartaal() - interval '3 months')::date as q) x where k.cadans = 'quarter'
    ) p`],
  ["weekly boards", `
    insert into app.weektaken (org_id, user_id, week, titel, prioriteit_id, aangemaakt_door)
    select bench.org_id(n), bench.user_id(n, i), to_char(now(), 'IYYY-"W"IW'), 'Weektaak ' || w, null, bench.user_id(n, i)
    from generate_series(1, ${ORGS}) n, generate_series(1, ${PEOPLE}) i, generate_series(1, 3) w where n = 1 or i <= 5`],
  ["a month of call log", `
    insert into app_private.aanroepen (org_id, xid, tijdstip, door, operatie, user_id, rol, parameters, status, duur_ms)
    select bench.org_id(n), '1', now() - interval '30 days' * random(), 'rest',
           (array['team','prioriteiten','kpi_scorebord','taken','wie_ben_ik'])[1 + (j % 5)],
           bench.user_id(n, 1 + j % ${PEOPLE}), 'lid', jsonb_build_object('org_id', bench.org_id(n)), 200, 3.5
    from generate_series(1, ${ORGS}) n, lateral generate_series(1, case when n = 1 then 200000 else 300 end) j`],
];

/** Deterministic ids, so the generator can refer to what it made without looking it up. */
const helpers = `
  create schema if not exists bench;
  create table if not exists bench.dataset (versie text primary key, gegevens jsonb not null, gemaakt_op timestamptz not null default now());
  create or replace function bench.uuid(soort text, n int, i int) returns uuid language sql immutable as
    $$ select md5(soort || '/' || n || '/' || i)::uuid $$;
  create or replace function bench.org_id(n int) returns uuid language sql immutable as $$ select bench.uuid('org', n, 0) $$;
  create or replace function bench.user_id(n int, i int) returns uuid language sql immutable as $$ select bench.uuid('user', n, i) $$;
  create or replace function bench.org_nr(org uuid) returns int language sql stable as
    $$ select case when o.naam = '${BIG_ORG}' then 1 else substr(o.naam, 7, length(o.naam) - 9)::int end
       from app.organisaties o where o.org_id = org $$;
  create or replace function bench.kwartaal() returns date language sql stable as $$ select date_trunc('quarter', now())::date $$;`;

/** The data set in this database: generated when missing or of another version. */
export async function ensureDataset(sql: postgres.Sql, log: (line: string) => void): Promise<Dataset> {
  await sql.unsafe(helpers);
  const [have] = await sql`select gegevens from bench.dataset where versie = ${DATASET_VERSION}`;
  if (!have) {
    const [other] = await sql`select count(*)::int as n from app.organisaties`;
    if (other!.n > 0) {
      throw new Error("the benchmark database holds another data set; drop it (or point BENCH_DATA_DIR elsewhere) and run again");
    }
    const started = Date.now();
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`set local synchronous_commit = off`;
      for (const [i, [label, text]] of steps.entries()) {
        const t = Date.now();
        process.stdout.write(`  data set ${i + 1}/${steps.length}: ${label} ...`);
        await tx.unsafe(text);
        process.stdout.write(` ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
      }
      // With the triggers off, the organisations' rows of switches (app_hidden.org_toestand,
      // kept by triggers) are made here, as the triggers would have made them.
      await tx`select app_hidden.org_toestand_bijwerken(o.org_id) from app.organisaties o`;
      // Likewise what each task's other rows add to it (tag names, hours, subtasks: kept by
      // triggers for the task definition, db/255_zoektekst.sql and db/165_taken_sommen.sql), and
      // what a priority's and a project's tasks add up to (db/135_prioriteit_sommen.sql,
      // db/115_project_sommen.sql).
      await tx`select app_hidden.tag_tekst_bijwerken(o.org_id, array(select t.id from app.taken t where t.org_id = o.org_id)),
                      app_hidden.taak_sommen_opnieuw(o.org_id), app_hidden.sommen_opnieuw(o.org_id)
               from app.organisaties o`;
      // And a subtask's parent's number (kept by a trigger when it is added, db/160_taken.sql).
      await tx`update app.taken s set ouder_nummer = o.nummer from app.taken o where o.org_id = s.org_id and o.id = s.ouder_id`;
      const [d] = await tx`
        select (select org_id from app.organisaties where naam = ${BIG_ORG}) as org,
               bench.kwartaal()::text as quarter, (bench.kwartaal() - interval '3 months')::date::text as "previousQuarter",
               bench.user_id(1, 20)::text as owner,
               (select array_agg(bench.user_id(1, i)::text order by i) from generate_series(1, ${PEOPLE}) i) as members,
               ${Math.floor(BIG_TASKS * 0.97)}::int as "taskNumber",
               bench.uuid('prio', 1, 1)::text as "priorityWithTasks"`;
      await tx`insert into bench.dataset (versie, gegevens) values (${DATASET_VERSION}, ${tx.json(d as never)})`;
    });
    log(`data set generated in ${((Date.now() - started) / 1000).toFixed(0)} s; analysing`);
    await sql`vacuum analyze`;
  }
  const [row] = await sql`select gegevens from bench.dataset where versie = ${DATASET_VERSION}`;
  return row!.gegevens as Dataset;
}
