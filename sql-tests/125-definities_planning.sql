-- The planning definitions under RLS for every role (owner, admin, mt, lid, coach): what a role
-- sees through a definition is what the read operation shows that role (the same rows, the same
-- figures), and a role that may not read a resource sees nothing through its definition. The
-- world adds a private project (its task only for those who work on it), a deleted task, hours
-- of two members on one task, a completed priority and a second KPI.
begin;
select plan(95);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Definities BV') as org \gset
select * from tests.leden(:'org') \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select id as taak from app.taken where org_id = :'org' and nummer = 1 \gset

-- A private project of the owner that the member works on; admin, mt and coach do not.
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door, besloten)
values (:'org', 'Geheim', :'eigenaar', date '2026-05-01', :'eigenaar', true) returning id as geheim \gset
insert into app.project_leden (org_id, project_id, user_id) values (:'org', :'geheim', :'lid');
insert into app.taken (org_id, omschrijving, project_id, eigenaar_user_id, aangemaakt_door, deadline)
values (:'org', 'Geheime taak', :'geheim', :'lid', :'eigenaar', date '2026-06-01');
insert into app.taken (org_id, omschrijving, eigenaar_user_id, aangemaakt_door, verwijderd_op)
values (:'org', 'Weg', :'mt', :'mt', now());
insert into app.taken (org_id, omschrijving, prioriteit_id, eigenaar_user_id, stand, grootte)
values (:'org', 'Klaar', :'prio', :'mt', 'voltooid', 'middel');
insert into app.uren (org_id, user_id, datum, uren, taak_id) values (:'org', :'admin', date '2026-05-13', 3, :'taak');
insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start, aangemaakt_door, afgerond_op)
values (:'org', 'okr', 'Afgerond', :'mt', date '2026-04-01', :'mt', now());
insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans, lager_is_beter)
values (:'org', 'Klachten', :'mt', 'stand', 'month', true) returning id as klachten \gset
insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (:'org', :'klachten', date '2026-04-01', 5);
insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde)
values (:'org', :'klachten', '2026-04', date '2026-04-01', date '2026-04-30', 6);

-- A query's jsonb answer as a member of that role reads it through the door role.
create function pg_temp.als(_org uuid, _rol text, _sql text) returns jsonb language plpgsql as $$
declare r jsonb;
begin
  reset role;
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  set local role koers_door;
  execute _sql into r;
  reset role;
  return r;
end
$$;
-- The fields of an answer's list, per element, in the answer's order.
create function pg_temp.velden(_lijst jsonb, _velden text[]) returns jsonb language sql immutable as $$
  select coalesce(jsonb_agg((select jsonb_object_agg(v, x -> v) from unnest(_velden) v) order by o), '[]')
  from jsonb_array_elements(_lijst) with ordinality e (x, o)
$$;
create function pg_temp.roep(_org uuid, _rol text, _op text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep(_org, _rol, _op, _p)
$$;

-- def_taken: every task the role may see; taken shows those not deleted, with the same figures.
select is(pg_temp.als(:'org', r, $$
            select coalesce(jsonb_agg(jsonb_build_object('id', id, 'stand', stand, 'besteed_uren', besteed_uren,
                                        'inschatting_uren', inschatting_uren, 'brand_label', brand_label, 'tags', tags,
                                        'subtaken', subtaken) order by deadline nulls last, nummer), '[]')
            from app_hidden.def_taken where verwijderd_op is null$$),
          pg_temp.velden(pg_temp.roep(:'org', r, 'taken', '{"ook_afgesloten": true}') -> 'taken',
                         array['id', 'stand', 'besteed_uren', 'inschatting_uren', 'brand_label', 'tags', 'subtaken']),
          format('def_taken as %s: the tasks and figures taken shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', r, $$select to_jsonb(count(*)) from app_hidden.def_taken where omschrijving = 'Geheime taak'$$),
          to_jsonb(case when r in ('eigenaar', 'lid') then 1 else 0 end),
          format('def_taken as %s: a private project''s task only for who works on it', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', r, format($$select to_jsonb(besteed_uren) from app_hidden.def_taken where id = %L$$, :'taak')),
          '5'::jsonb, format('def_taken as %s: besteed_uren counts every member''s hours', r))
from unnest(array['eigenaar', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', 'eigenaar', $$select to_jsonb(count(*)) from app_hidden.def_taken where verwijderd_op is not null$$),
          '1'::jsonb, 'def_taken holds deleted tasks too (the read filters them)');

-- def_taak_geschiedenis: the history taak_geschiedenis shows.
select is(pg_temp.als(:'org', r, format($$
            select coalesce(jsonb_agg(jsonb_build_object('soort', soort, 'tijdstip', tijdstip) order by tijdstip desc, id desc), '[]')
            from app_hidden.def_taak_geschiedenis where taak_id = %L$$, :'taak')),
          pg_temp.velden(pg_temp.roep(:'org', r, 'taak_geschiedenis', '{"nummer": 1}') -> 'geschiedenis', array['soort', 'tijdstip']),
          format('def_taak_geschiedenis as %s: the entries taak_geschiedenis shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;

-- def_prioriteiten: the quarter's priorities prioriteiten shows, with the same figures.
select is(pg_temp.als(:'org', r, $$
            select coalesce(jsonb_agg(jsonb_build_object('id', id, 'voortgang', voortgang, 'verstreken', verstreken,
                                        'stand', stand, 'afgerond', afgerond, 'kwartaal', kwartaal, 'deadline', deadline)
                                      order by deadline, eigenaar_naam, titel), '[]')
            from app_hidden.def_prioriteiten where kwartaal_start = '2026-04-01'$$),
          pg_temp.velden(pg_temp.roep(:'org', r, 'prioriteiten', '{"kwartaal": "Q2-2026"}') -> 'prioriteiten',
                         array['id', 'voortgang', 'verstreken', 'stand', 'afgerond', 'kwartaal', 'deadline']),
          format('def_prioriteiten as %s: the priorities and figures prioriteiten shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', 'lid', format($$select jsonb_build_object('voortgang', voortgang, 'stand', stand)
                                            from app_hidden.def_prioriteiten where id = %L$$, :'prio')),
          '{"voortgang": 80.0, "stand": "op koers"}'::jsonb,
          'def_prioriteiten: a rock''s progress weighs its tasks (8 h done of 10 h)');
-- def_kernresultaten: the key results every role sees, also inside the priority.
select is(pg_temp.als(:'org', r, format($$select jsonb_build_object('n', count(*), 'in', (select kernresultaten -> 0 -> 'titel'
                                           from app_hidden.def_prioriteiten where id = %L)) from app_hidden.def_kernresultaten$$, :'prio')),
          '{"n": 1, "in": "10 nieuwe klanten"}'::jsonb, format('def_kernresultaten as %s: the key result, in its priority too', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;

-- def_kpi_scorebord: the active KPIs kpi_scorebord shows for the quarter, with the same figures.
select is(pg_temp.als(:'org', r, $$
            select coalesce(jsonb_agg(jsonb_build_object('id', id, 'kwartaaldoel', kwartaaldoel, 'huidige_stand', huidige_stand,
                                        'lijn', lijn, 'stoplicht', stoplicht, 'bereikt', bereikt, 'laatste_periode', laatste_periode)
                                      order by naam, id), '[]')
            from app_hidden.def_kpi_scorebord('2026-04-01') where actief$$),
          pg_temp.velden(pg_temp.roep(:'org', r, 'kpi_scorebord', '{"kwartaal": "Q2-2026"}') -> 'kpis',
                         array['id', 'kwartaaldoel', 'huidige_stand', 'lijn', 'stoplicht', 'bereikt', 'laatste_periode']),
          format('def_kpi_scorebord as %s: the KPIs and figures kpi_scorebord shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', 'coach', format($$select jsonb_agg(kwartaal order by kwartaal_start)
                                              from app_hidden.def_kpi_scorebord() where id = %L$$, :'klachten')),
          '["Q2-2026"]'::jsonb, 'def_kpi_scorebord(): every quarter of a KPI (its target and measurement are in the running one)');
select is(pg_temp.als(:'org', r, $$select to_jsonb(count(*)) from app_hidden.def_kpi_metingen$$), '2'::jsonb,
          format('def_kpi_metingen as %s: every measurement', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;

-- def_projecten: the running projects projecten shows; the private one only for who works on it.
select is(pg_temp.als(:'org', r, $$
            select coalesce(jsonb_agg(jsonb_build_object('id', id, 'open_taken', open_taken, 'uren', uren, 'besloten', besloten)
                                      order by deadline nulls last, titel, id), '[]')
            from app_hidden.def_projecten where lopend$$),
          pg_temp.velden(pg_temp.roep(:'org', r, 'projecten') -> 'projecten', array['id', 'open_taken', 'uren', 'besloten']),
          format('def_projecten as %s: the projects projecten shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;
select is(pg_temp.als(:'org', r, format($$select to_jsonb(count(*)) from app_hidden.def_projecten where id = %L$$, :'geheim')),
          to_jsonb(case when r in ('eigenaar', 'lid') then 1 else 0 end),
          format('def_projecten as %s: the private project only for who works on it', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;

-- def_weektaken: the boards weektaken shows; a coach (no weektaken) sees nothing.
select is(pg_temp.als(:'org', r, $$
            select coalesce(jsonb_agg(id order by persoon_naam, aangemaakt_op, id), '[]') from app_hidden.def_weektaken
            where week = '2026-W20'$$),
          (select coalesce(jsonb_agg(t -> 'id'), '[]') from jsonb_array_elements(pg_temp.roep(:'org', r, 'weektaken', '{"week": "2026-W20"}') -> 'borden') b,
                  jsonb_array_elements(b -> 'taken') t),
          format('def_weektaken as %s: the board tasks weektaken shows', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid']) r;
select is(pg_temp.als(:'org', 'coach', $$select to_jsonb(count(*)) from app_hidden.def_weektaken$$), '0'::jsonb,
          'def_weektaken as coach: nothing (no access to weekly boards)');
-- def_dagprioriteiten: only one's own.
select is(pg_temp.als(:'org', r, $$select to_jsonb(count(*)) from app_hidden.def_dagprioriteiten$$),
          to_jsonb(case when r = 'lid' then 1 else 0 end), format('def_dagprioriteiten as %s: only their own day', r))
from unnest(array['eigenaar', 'admin', 'mt', 'lid', 'coach']) r;

-- Another organisation sees none of it, through any planning definition.
select tests.wereld('Ander BV') as ander \gset
select is(pg_temp.als(:'ander', 'eigenaar', format($$select to_jsonb(
            (select count(*) from app_hidden.def_taken where org_id = %1$L) + (select count(*) from app_hidden.def_prioriteiten where org_id = %1$L)
          + (select count(*) from app_hidden.def_kpi_scorebord() where org_id = %1$L) + (select count(*) from app_hidden.def_projecten where org_id = %1$L)
          + (select count(*) from app_hidden.def_weektaken where org_id = %1$L) + (select count(*) from app_hidden.def_taak_geschiedenis where org_id = %1$L)
          + (select count(*) from app_hidden.def_kernresultaten where org_id = %1$L) + (select count(*) from app_hidden.def_kpi_metingen where org_id = %1$L)
          + (select count(*) from app_hidden.def_dagprioriteiten where org_id = %1$L) + (select count(*) from app_hidden.project_sommen_alle where org = %1$L)
          + (select count(*) from app_hidden.taak_sommen_alle where org_id = %1$L)
          + (select count(*) from app_hidden.prioriteit_sommen_alle where org = %1$L)
          + (select count(*) from app_hidden.taak_verborgen_subtaken where org_id = %1$L))$$,
            :'org')),
          '0'::jsonb, 'another organisation''s owner sees no row of this one through the planning definitions');
select ok((pg_temp.als(:'org', 'eigenaar', format($$select to_jsonb(count(*)) from app_hidden.prioriteit_sommen_alle where org = %L$$,
            :'org')))::int > 0,
          'while its own owner sees its rocks'' task sums (so the line above is not empty by chance)');
select ok((pg_temp.als(:'org', 'eigenaar', format($$select to_jsonb(count(*)) from app_hidden.project_sommen_alle where org = %L$$,
            :'org')))::int > 0,
          'and its projects'' sums');

-- What def_taken reads from stored sums (tag names on the task, hours and subtasks beside it)
-- equals what a count over the rows gives, after every kind of change; a task's stored sums name
-- its project (what the project's sums add up).
create function pg_temp.sommen_fout(_org uuid) returns bigint language sql as $$
  select count(*) from app.taken t
  left join app_private.taak_sommen s on s.org_id = t.org_id and s.taak_id = t.id
  where t.org_id = _org
    and ((coalesce(s.besteed_uren, 0), coalesce(s.subtaken, 0), t.tag_namen)
         is distinct from
         (coalesce((select sum(u.uren) from app.uren u where u.org_id = t.org_id and u.taak_id = t.id), 0),
          (select count(*)::integer from app.taken c where c.org_id = t.org_id and c.ouder_id = t.id),
          coalesce((select jsonb_agg(g.naam order by lower(g.naam)) from app.taak_tags tt
                    join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
                    where tt.org_id = t.org_id and tt.taak_id = t.id), '[]'))
         or s.taak_id is not null and s.project_id is distinct from t.project_id)
$$;
select is(pg_temp.sommen_fout(:'org'), 0::bigint, 'stored sums: as counted, for the world as set up');
select tests.taak(:'org', :'prio', 'open') as som \gset
insert into app.uren (org_id, user_id, datum, uren, taak_id)
values (:'org', :'lid', date '2026-05-12', 1.50, :'som'), (:'org', :'mt', date '2026-05-12', 2, :'som');
insert into app.uren (org_id, user_id, datum, uren, taak_id) values (:'org', :'lid', date '2026-05-13', 0.25, :'som');
select is(pg_temp.als(:'org', 'eigenaar', format($$select to_jsonb(besteed_uren) from app_hidden.def_taken where id = %L$$, :'som')),
          '3.75'::jsonb, 'def_taken: hours booked in two statements, by two members, all count');
delete from app.uren where org_id = :'org' and taak_id = :'som' and uren = 1.50;
select is(pg_temp.als(:'org', 'eigenaar', format($$select to_jsonb(besteed_uren) from app_hidden.def_taken where id = %L$$, :'som')),
          '2.25'::jsonb, 'def_taken: a deleted hour no longer counts');
update app.uren set taak_id = :'taak' where org_id = :'org' and taak_id = :'som' and uren = 0.25;
select is(pg_temp.als(:'org', 'eigenaar', format($$select to_jsonb(besteed_uren) from app_hidden.def_taken where id = %L$$, :'som')),
          '2'::jsonb, 'def_taken: an hour moved to another task counts there, and the total is a sum''s (no trailing decimals)');
-- Subtasks: one visible to all, one in the private project (only its members count it).
select tests.taak(:'org', :'prio', 'open', _ouder => :'som') is not null as sub1 \gset
insert into app.taken (org_id, omschrijving, project_id, ouder_id, eigenaar_user_id, aangemaakt_door)
values (:'org', 'Geheime subtaak', :'geheim', :'som', :'lid', :'eigenaar');
select is(pg_temp.als(:'org', r, format($$select to_jsonb(subtaken) from app_hidden.def_taken where id = %L$$, :'som')),
          to_jsonb(case when r = 'admin' then 1 else 2 end), format('def_taken as %s: the subtasks that role sees', r))
from unnest(array['lid', 'admin']) r;
-- A subtask whose parent is in the private project (as when an import moved the parent there):
-- its parent's number only for who sees the parent.
insert into app.taken (org_id, omschrijving, project_id, eigenaar_user_id, aangemaakt_door)
values (:'org', 'Geheime ouder', :'geheim', :'lid', :'eigenaar') returning id as geheime_ouder, nummer as geheime_ouder_nummer \gset
insert into app.taken (org_id, omschrijving, prioriteit_id, ouder_id, eigenaar_user_id, aangemaakt_door)
values (:'org', 'Open subtaak', :'prio', :'geheime_ouder', :'lid', :'eigenaar') returning id as open_subtaak \gset
select is(pg_temp.als(:'org', r, format($$select jsonb_build_array(count(*), max(onder_taak_nummer)) from app_hidden.def_taken where id = %L$$, :'open_subtaak')),
          jsonb_build_array(1, case when r = 'lid' then :'geheime_ouder_nummer'::integer end),
          format('def_taken as %s: a subtask shows its parent''s number only to who sees the parent', r))
from unnest(array['lid', 'admin']) r;
-- def_taken reads the tasks once: what it shows of other tasks (a parent's number, the count of
-- subtasks) is kept with the task or beside it, not read from a second scan of the tasks.
create function pg_temp.taak_scans(_plan jsonb) returns bigint language sql as $$
  with recursive n (knoop) as (
    select _plan -> 0 -> 'Plan'
    union all
    select k from n, jsonb_array_elements(n.knoop -> 'Plans') k
    where coalesce(k ->> 'Parent Relationship', '') not in ('InitPlan', 'SubPlan'))
  select count(*) from n where n.knoop ->> 'Relation Name' = 'taken'
$$;
select is(pg_temp.taak_scans(pg_temp.als(:'org', r, $$explain (format json) select * from app_hidden.def_taken$$)), 1::bigint,
          format('def_taken as %s: one read of the tasks', r))
from unnest(array['lid', 'admin']) r;
-- The policy helpers run once per init plan, and each read policy repeating the organisation
-- fence was one more: a whole read of def_taken enters huidige_org() once per relation it reads
-- (the tasks, priorities, projects, brand labels; the fenced definer views of people, sums,
-- hidden subtasks and parents), not twice per table.
create function pg_temp.org_aanroepen(_org uuid, _rol text) returns bigint language plpgsql as $$
declare voor bigint; r bigint;
begin
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  voor := coalesce((select f.calls from pg_stat_xact_user_functions f where f.funcid = 'app_hidden.huidige_org()'::regprocedure), 0);
  set local role koers_door;
  perform count(*), sum(length(d::text)) from app_hidden.def_taken d;
  reset role;
  -- No row at all when it was never called: the policies read the caller inline (mijn_org), and
  -- fall back on huidige_org only without a call.
  return coalesce((select f.calls from pg_stat_xact_user_functions f where f.funcid = 'app_hidden.huidige_org()'::regprocedure), 0) - voor;
end
$$;
set local track_functions = 'pl';
select cmp_ok(pg_temp.org_aanroepen(:'org', 'admin'), '<=', 10::bigint,
              'def_taken read whole: at most ten entries of huidige_org (one per relation read)');
reset track_functions;
-- Tags: added, renamed, removed.
insert into app.tags (org_id, naam) values (:'org', 'zeta'), (:'org', 'Alfa');
insert into app.taak_tags (org_id, taak_id, tag_id) select :'org', :'som', g.id from app.tags g where g.org_id = :'org' and g.naam in ('zeta', 'Alfa');
update app.tags set naam = 'Bèta' where org_id = :'org' and naam = 'zeta';
select is(pg_temp.als(:'org', 'mt', format($$select tags from app_hidden.def_taken where id = %L$$, :'som')),
          '["Alfa", "Bèta"]'::jsonb, 'def_taken: tags as named now, in order');
delete from app.taak_tags tt using app.tags g where tt.org_id = :'org' and tt.taak_id = :'som' and g.org_id = tt.org_id and g.id = tt.tag_id and g.naam = 'Alfa';
select is(pg_temp.sommen_fout(:'org'), 0::bigint, 'stored sums: as counted, after hours, subtasks and tags changed');
select is((select count(*) from app.taken s left join app.taken o on o.org_id = s.org_id and o.id = s.ouder_id
           where s.org_id = :'org' and s.ouder_nummer is distinct from o.nummer), 0::bigint,
          'stored parent numbers: each subtask''s is its parent''s number (none for a task without a parent)');

-- A full read of def_taken may run in parallel (bench part 3b: the plain select it is compared
-- with does): with parallel plans made cheap (and these few rows read by scans, not indexes), the
-- tasks are scanned by parallel workers (nothing in the definition or its policies is parallel
-- unsafe, no subquery runs per row), and the rows the workers read are the rows a read without
-- them gives, for each role (RLS, the hidden subtask).
-- The tasks analysed first, in this transaction, so the plan rests on these rows: autovacuum may
-- have analysed the table while they were not yet committed, and with statistics of no rows the
-- planner sees nothing worth scanning in parallel.
analyze app.taken;
create temp table zonder_workers as
  select r as rol, pg_temp.als(:'org', r, $$select jsonb_agg(to_jsonb(d) order by d.id) from app_hidden.def_taken d$$) as rijen
  from unnest(array['eigenaar', 'admin', 'lid']) r;
set local parallel_setup_cost = 0;
set local parallel_tuple_cost = 0;
set local min_parallel_table_scan_size = 0;
set local max_parallel_workers_per_gather = 2;
set local enable_indexscan = off;
set local enable_indexonlyscan = off;
set local enable_bitmapscan = off;
select ok(jsonb_path_exists(pg_temp.als(:'org', z.rol, $$explain (format json) select * from app_hidden.def_taken$$),
                            'strict $.** ? (@."Node Type" == "Seq Scan" && @."Parallel Aware" == true && @."Alias" == "t")'),
          format('def_taken as %s: a full read scans the tasks with parallel workers', z.rol))
from zonder_workers z;
select is(pg_temp.als(:'org', z.rol, $$select jsonb_agg(to_jsonb(d) order by d.id) from app_hidden.def_taken d$$), z.rijen,
          format('def_taken as %s: read by parallel workers, the same rows', z.rol))
from zonder_workers z;
reset parallel_setup_cost;
reset parallel_tuple_cost;
reset min_parallel_table_scan_size;
reset max_parallel_workers_per_gather;
reset enable_indexscan;
reset enable_indexonlyscan;
reset enable_bitmapscan;

-- What def_projecten reads from stored sums (open tasks, hours) equals what a count over the rows
-- gives, after every kind of change: tasks added, completed, deleted, moved between projects;
-- hours booked on a project and on a task, moved and removed.
create function pg_temp.project_sommen_fout(_org uuid) returns bigint language sql as $$
  select count(*) from app.projecten p
  left join app_hidden.project_sommen s on s.org = p.org_id and s.project = p.id
  where p.org_id = _org
    and (coalesce(s.open_taken, 0), coalesce(s.uren, 0))
        is distinct from
        ((select count(*)::integer from app.taken t where t.org_id = p.org_id and t.project_id = p.id
            and t.verwijderd_op is null and t.stand not in ('voltooid', 'vervallen')),
         coalesce((select sum(u.uren) from app.uren u where u.org_id = p.org_id
                     and (u.project_id = p.id
                          or exists (select 1 from app.taken t where t.org_id = u.org_id and t.id = u.taak_id and t.project_id = p.id))), 0))
$$;
select is(pg_temp.project_sommen_fout(:'org'), 0::bigint, 'project sums: as counted, for the world as set up');
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door)
values (:'org', 'Verbouwing', :'eigenaar', date '2026-05-01', :'eigenaar') returning id as verbouwing \gset
insert into app.taken (org_id, omschrijving, project_id, aangemaakt_door)
select :'org', 'Stap ' || i, :'verbouwing', :'eigenaar' from generate_series(1, 3) i;
insert into app.uren (org_id, user_id, datum, uren, project_id) values (:'org', :'mt', date '2026-05-12', 1.25, :'verbouwing');
insert into app.uren (org_id, user_id, datum, uren, taak_id)
select :'org', :'lid', date '2026-05-12', 2, t.id from app.taken t where t.org_id = :'org' and t.omschrijving = 'Stap 1';
select is(pg_temp.als(:'org', 'eigenaar', format($$select jsonb_build_array(open_taken, uren) from app_hidden.def_projecten where id = %L$$,
            :'verbouwing')),
          '[3, 3.25]'::jsonb, 'def_projecten: three open tasks, hours on the project and on one of its tasks');
update app.taken set stand = 'voltooid' where org_id = :'org' and omschrijving = 'Stap 2';
update app.taken set verwijderd_op = now() where org_id = :'org' and omschrijving = 'Stap 3';
update app.taken set project_id = :'geheim' where org_id = :'org' and omschrijving = 'Stap 1';
select is(pg_temp.als(:'org', 'eigenaar', format($$select jsonb_build_array(open_taken, uren) from app_hidden.def_projecten where id = %L$$,
            :'verbouwing')),
          '[0, 1.25]'::jsonb, 'def_projecten: a task done, one deleted and one moved (with its hours) no longer count');
select is(pg_temp.project_sommen_fout(:'org'), 0::bigint, 'project sums: as counted after tasks changed and moved');
update app.uren set uren = 4 where org_id = :'org' and project_id = :'verbouwing';
delete from app.uren where org_id = :'org' and taak_id in (select id from app.taken where org_id = :'org' and omschrijving = 'Stap 1');
update app.taken set project_id = null where org_id = :'org' and omschrijving = 'Stap 2';
select is(pg_temp.project_sommen_fout(:'org'), 0::bigint, 'project sums: as counted after hours changed and removed');
select is(pg_temp.sommen_fout(:'org'), 0::bigint, 'stored sums: as counted, each naming its task''s project, after tasks moved');
delete from app.uren where org_id = :'org' and project_id = :'verbouwing';
select is(pg_temp.als(:'org', 'eigenaar', format($$select jsonb_build_array(open_taken, uren) from app_hidden.def_projecten where id = %L$$,
            :'verbouwing')),
          '[0, 0]'::jsonb, 'def_projecten: no open task and no hour left, zeros');
select is(pg_temp.project_sommen_fout(:'org'), 0::bigint, 'project sums: as counted after its last hours were removed');
-- A task's stored sums without its project (written while migration 0030 ran, by the code before
-- it): counting the organisation again (as applying db/ does) names the project and counts its hours.
insert into app.uren (org_id, user_id, datum, uren, taak_id)
select :'org', :'lid', date '2026-05-13', 3, t.id from app.taken t where t.org_id = :'org' and t.omschrijving = 'Stap 1';
update app_private.taak_sommen s set project_id = null
from app.taken t where t.org_id = s.org_id and t.id = s.taak_id and t.org_id = :'org' and t.omschrijving = 'Stap 1';
select app_hidden.sommen_opnieuw(:'org');
select is(array[pg_temp.sommen_fout(:'org'), pg_temp.project_sommen_fout(:'org')], array[0, 0]::bigint[],
          'stored sums and project sums: as counted after an organisation is counted again');

-- A session that reads past row-level security (here the superuser running the tests, acting for
-- the admin, who does not work on the private project) reads the definitions past the members'
-- policies, within its caller's organisation; the same caller through the door role does not.
select app_hidden.handelen_namens(:'org', tests.lid(:'org', 'admin'), 'rest') is not null as gezet \gset
select is((select count(*)::int from app_hidden.def_taken where org_id = :'org' and omschrijving = 'Geheime taak'), 1,
          'a session past row-level security sees the private project''s task through def_taken');
select is(pg_temp.als(:'org', 'admin', $$select to_jsonb(count(*)::int) from app_hidden.def_taken where omschrijving = 'Geheime taak'$$),
          '0'::jsonb, 'the admin through the door role does not');

select * from finish();
rollback;
