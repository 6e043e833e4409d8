-- Nothing per row (issue 16): every read operation of the registry (app.operaties, written from
-- src/registry.ts: the operations that do not write) and every resource definition
-- (app_hidden.def_*, found in the catalog) is run over an organisation, and again after its rows
-- of every kind have grown about twofold. With track_functions = 'all' the functions a statement
-- calls without inlining them are counted (pg_stat_xact_user_functions): a function called more
-- often with more rows is called per row, and fails. The call machinery runs the same number of
-- times whatever the rows. The diagnostics list what each operation and definition calls.
-- Every operation fails when it calls something per row.
begin;
set local track_functions = 'all';
set local koers.nu = '2026-05-14T10:00:00+02:00';

select tests.wereld('Per Rij BV') as org \gset
insert into app_private.api_sleutels (org_id, user_id, hash, hint)
select l.org_id, l.user_id, sha256(convert_to('Per Rij BV/' || l.rol, 'UTF8')), 'koers_live_…test'
from app.lidmaatschappen l where l.org_id = :'org';
-- organisaties is only on the AI connection: an access token per member.
insert into app_private.mcp_clients (client_id, soort, metadata, aangemaakt_op, opgehaald_op)
values ('per-rij', 'registratie', '{"client_name": "Test", "redirect_uris": ["http://127.0.0.1/cb"]}', now(), now());
with v as (
  insert into app_private.mcp_verbindingen (user_id, client_id, redirect_uri, scopes, bron, aangemaakt_op, verloopt_op)
  select l.user_id, 'per-rij', 'http://127.0.0.1/cb', '{}', 'http://koers.test/mcp', now(), now() + interval '1 day'
  from app.lidmaatschappen l where l.org_id = :'org'
  returning id, user_id)
insert into app_private.mcp_tokens (hash, verbinding_id, soort, aangemaakt_op, verloopt_op)
select sha256(convert_to('Per Rij BV/mcp/' || l.rol, 'UTF8')), v.id, 'toegang', now(), now() + interval '1 hour'
from v join app.lidmaatschappen l on l.user_id = v.user_id and l.org_id = :'org';

-- Everyone submits April: the round is open, so the team's reflections show (team_zichtbaar).
insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op)
select l.org_id, l.user_id, 'maand', '2026-04', 'Goed', now() from app.lidmaatschappen l
where l.org_id = :'org' and l.rol <> 'lid';

-- One more row of every kind the reads show, around a new member (who is in a team, holds a
-- role seat, owns a priority, a KPI, a project and a task, wrote hours, a reflection, ...).
create function pg_temp.groei(_org uuid, _i integer) returns void language plpgsql as $$
declare
  e uuid := tests.lid(_org, 'eigenaar');
  m uuid := (beheer.lid_aanmaken(_org, format('Extra %s', _i), format('extra%s@per-rij.test', _i), 'lid') ->> 'user_id')::uuid;
  team uuid; proces uuid; prio uuid; kpi uuid; project uuid; taak uuid; tag uuid; notitie uuid;
  eerste uuid := (select t.id from app.taken t where t.org_id = _org and t.nummer = 1);
begin
  insert into app.teams (org_id, naam, leider_user_id) values (_org, format('Team %s', _i), m) returning id into team;
  update app.lidmaatschappen set team_id = team where org_id = _org and user_id = m;
  insert into app.processen (org_id, naam, eindverantwoordelijke_user_id, volgorde) values (_org, format('Proces %s', _i), m, _i)
    returning id into proces;
  insert into app.rollen (org_id, proces_id, naam, user_id) values (_org, proces, format('Rol %s', _i), m), (_org, proces, format('Open %s', _i), null);
  insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start, team_id, aangemaakt_door)
    values (_org, 'rock', format('Prioriteit %s', _i), m, date '2026-04-01', team, e) returning id into prio;
  insert into app.kernresultaten (org_id, prioriteit_id, titel, doelwaarde) values (_org, prio, format('Resultaat %s', _i), 10);
  insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans, team_id) values (_org, format('KPI %s', _i), m, 'teller', 'week', team)
    returning id into kpi;
  insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (_org, kpi, date '2026-04-01', 100);
  insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde)
    values (_org, kpi, '2026-W20', date '2026-05-11', date '2026-05-17', 7);
  insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door)
    values (_org, format('Project %s', _i), m, date '2026-05-01', e) returning id into project;
  insert into app.project_leden (org_id, project_id, user_id) values (_org, project, m);
  insert into app.taken (org_id, nummer, omschrijving, prioriteit_id, eigenaar_user_id, aangemaakt_door)
    values (_org, 100 + _i, format('Offerte %s', _i), prio, m, e) returning id into taak;
  insert into app.taken (org_id, nummer, omschrijving, project_id, eigenaar_user_id, aangemaakt_door)
    values (_org, 200 + _i, format('Offerte project %s', _i), project, m, e);
  insert into app.tags (org_id, naam) values (_org, format('Tag %s', _i)) returning id into tag;
  insert into app.taak_tags (org_id, taak_id, tag_id) values (_org, taak, tag), (_org, eerste, tag);
  insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id) values (_org, eerste, format('Offerte opmerking %s', _i), m);
  insert into app.taak_geschiedenis (org_id, taak_id, soort, tijdstip, nieuw, door_user_id)
    values (_org, eerste, 'titel', now(), '{}', m);
  insert into app.uren (org_id, user_id, datum, uren, taak_id) values (_org, m, date '2026-05-12', 2, taak);
  insert into app.uren (org_id, user_id, datum, uren, project_id) values (_org, m, date '2026-05-13', 1, project);
  insert into app.uren (org_id, user_id, datum, uren, prioriteit_id) values (_org, e, date '2026-05-13', 1, prio);
  insert into app.weektaken (org_id, user_id, week, titel, prioriteit_id) values (_org, m, '2026-W20', format('Bellen %s', _i), prio);
  insert into app.dagprioriteiten (org_id, user_id, datum, prioriteit_1) values (_org, m, date '2026-05-14', 'Bellen');
  -- Rows every role sees of its own: day priorities and a weekly task of each first member.
  insert into app.dagprioriteiten (org_id, user_id, datum, prioriteit_1)
    select _org, tests.lid(_org, r), date '2026-05-14' - _i, 'Plannen' from unnest(app_hidden.keuzes('rol')) r;
  insert into app.weektaken (org_id, user_id, week, titel)
    select _org, tests.lid(_org, r), '2026-W20', format('Eigen %s', _i) from unnest(app_hidden.keuzes('rol')) r;
  insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values (_org, m, 'maand', '2026-04', 'Veel', now());
  insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum)
    values (_org, m, e, 'functionering', date '2026-03-01' + _i);
  insert into app.waarderingen (org_id, periode, omzet) values (_org, (2024 - _i)::text, 1000 * _i);
  insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, geschreven_door, status)
    values (_org, date '2026-05-01' - _i, format('Sessie %s', _i), 'kwartaal', 'Samen', tests.lid(_org, 'coach'),
            case when _i % 2 = 0 then 'vastgesteld' else 'concept' end) returning id into notitie;
  insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, volgorde)
    values (_org, notitie, 'Plan maken', m, 1), (_org, notitie, 'Plan delen', null, 2);
  insert into app.strategie_voorstellen (org_id, velden, ingediend_door) values (_org, '{}', e);
end
$$;

-- The parameters each read operation is run with (besides org_id): enough to reach its rows.
create function pg_temp.parameters(_operatie text) returns jsonb language sql immutable as $$
  select case _operatie
    when 'taak_geschiedenis' then '{"nummer": 1}'
    when 'reflecties' then '{"soort": "maand", "periode": "2026-04"}'
    when 'taken' then '{"ook_afgesloten": true}'
    when 'zoeken' then '{"tekst": "Offerte"}'
    when 'waardering' then '{"aantal": 100}'
    when 'sessienotities' then '{"aantal": 100}'
    else '{}' end::jsonb
$$;

-- The calls of every function this transaction counted so far.
create function pg_temp.tellingen() returns table (functie text, calls bigint) language sql volatile as $$
  select f.funcid::regprocedure::text, f.calls from pg_stat_xact_user_functions f
$$;

create temp table gemeten (ronde integer, soort text, naam text, rol text, status integer, rijen bigint,
                           functie text, calls bigint);

-- Every read operation as every role that may run it, through api.aanroep as a door calls.
create function pg_temp.meet_operaties(_org uuid, _ronde integer) returns void language plpgsql as $$
declare o record; r text; a jsonb; voor jsonb; na jsonb; sleutel bytea;
begin
  for o in select * from app.operaties x where not x.schrijft order by x.naam loop
    foreach r in array app_hidden.keuzes('rol') loop
      continue when app_hidden.recht(_org, r, o.naam) = 'geen';
      sleutel := sha256(convert_to('Per Rij BV/' || case when o.alleen_mcp then 'mcp/' else '' end || r, 'UTF8'));
      select coalesce(jsonb_object_agg(t.functie, t.calls), '{}') into voor from pg_temp.tellingen() t;
      set local role koers_door;
      a := api.aanroep(case when o.alleen_mcp then 'mcp' else 'rest' end, sleutel, o.naam,
                       pg_temp.parameters(o.naam)
                       || case when o.vereist_org then jsonb_build_object('org_id', _org) else '{}' end);
      reset role;
      select coalesce(jsonb_object_agg(t.functie, t.calls), '{}') into na from pg_temp.tellingen() t;
      insert into gemeten
      select _ronde, 'operatie', o.naam, r, (a ->> 'status')::integer, length(a ->> 'body'), n.key,
             n.value::bigint - coalesce((voor ->> n.key)::bigint, 0)
      from jsonb_each_text(na) n
      where n.value::bigint > coalesce((voor ->> n.key)::bigint, 0);
      -- A call that counted nothing still counts as measured.
      insert into gemeten select _ronde, 'operatie', o.naam, r, (a ->> 'status')::integer, length(a ->> 'body'), null, 0
      where not exists (select from gemeten g where g.ronde = _ronde and g.naam = o.naam and g.rol = r);
    end loop;
  end loop;
end
$$;

-- The resource definitions: views, and functions (called without arguments when every parameter
-- has a default, else with the test's day for each date parameter; a definition with a required
-- parameter of another type fails here until it gets one).
create temp table definities as
  select c.oid::regclass::text as naam, null::text as aanroep
  from pg_class c where c.relnamespace = 'app_hidden'::regnamespace and c.relname like 'def\_%' and c.relkind in ('v', 'm', 'r')
  union all
  select 'app_hidden.' || p.proname || '()',
         case when p.pronargs = p.pronargdefaults then format('app_hidden.%I()', p.proname)
              when bool_and(t = 'date'::regtype)
              then format('app_hidden.%I(%s)', p.proname, string_agg('''2026-05-14''::date', ', ')) end
  from pg_proc p left join unnest(p.proargtypes::regtype[]) t on true
  where p.pronamespace = 'app_hidden'::regnamespace and p.proname like 'def\_%'
  group by p.oid, p.proname, p.pronargs, p.pronargdefaults;

create function pg_temp.meet_definities(_org uuid, _ronde integer) returns void language plpgsql as $$
declare d record; r text; n bigint; voor jsonb; na jsonb;
begin
  for d in select * from definities order by naam loop
    continue when d.naam like '%()' and d.aanroep is null;
    foreach r in array app_hidden.keuzes('rol') loop
      perform app_hidden.handelen_namens(_org, tests.lid(_org, r), 'rest');
      select coalesce(jsonb_object_agg(t.functie, t.calls), '{}') into voor from pg_temp.tellingen() t;
      set local role koers_door;
      -- Every column of every row (a whole-row reference: no column left out of the plan).
      execute format('select count(*) from %s x where length(x::text) > 0', coalesce(d.aanroep, d.naam)) into n;
      reset role;
      select coalesce(jsonb_object_agg(t.functie, t.calls), '{}') into na from pg_temp.tellingen() t;
      insert into gemeten
      select _ronde, 'definitie', d.naam, r, 200, n, k.key, k.value::bigint - coalesce((voor ->> k.key)::bigint, 0)
      from jsonb_each_text(na) k
      where k.value::bigint > coalesce((voor ->> k.key)::bigint, 0);
      insert into gemeten select _ronde, 'definitie', d.naam, r, 200, n, null, 0
      where not exists (select from gemeten g where g.ronde = _ronde and g.naam = d.naam and g.rol = r);
    end loop;
  end loop;
end
$$;

-- Round 1 over the world and two more of everything; round 2 after four more.
select pg_temp.groei(:'org', i) from generate_series(1, 2) i;
select pg_temp.meet_operaties(:'org', 1);
select pg_temp.meet_definities(:'org', 1);
select pg_temp.groei(:'org', i) from generate_series(3, 6) i;
select pg_temp.meet_operaties(:'org', 2);
select pg_temp.meet_definities(:'org', 2);

-- Per operation or definition: the functions called more often in round 2, as 'function:
-- calls in round 1 -> round 2 (roles)'. Round 2 shows at least four more rows of each kind to
-- the roles that see everyone's; one call more is a subplan that runs once when there are rows
-- at all, not a call per row.
create temp table groei as
  select x.soort, x.naam, array_agg(format('%s: %s -> %s (%s)', x.functie, x.c1, x.c2, x.rollen) order by x.functie) as functies
  from (select g2.soort, g2.naam, g2.functie, coalesce(g1.calls, 0) as c1, g2.calls as c2,
               string_agg(g2.rol, ', ' order by g2.rol) as rollen
        from gemeten g2
        left join gemeten g1 on g1.ronde = 1 and g1.soort = g2.soort and g1.naam = g2.naam and g1.rol = g2.rol
                                and g1.functie = g2.functie
        where g2.ronde = 2 and g2.functie is not null and g2.calls > coalesce(g1.calls, 0) + 1
        group by 1, 2, 3, 4, 5) x
  group by x.soort, x.naam;

select plan(4 + (select count(distinct naam)::int from gemeten where soort = 'operatie')
               + (select count(*)::int from definities));

-- What each operation and definition calls (round 2, the most any role made it call).
select diag(format('%s %s calls: %s', x.soort, x.naam, coalesce(string_agg(x.f, ', ' order by x.f), 'nothing')))
from (select soort, naam, format('%s x%s', functie, max(calls)) as f from gemeten
      where ronde = 2 and functie is not null group by soort, naam, functie
      union all select distinct soort, naam, null from gemeten g
      where ronde = 2 and not exists (select from gemeten h where h.ronde = 2 and h.naam = g.naam and h.functie is not null)) x
group by x.soort, x.naam order by x.soort, x.naam;

select set_eq($$select naam from app.operaties where not schrijft$$,
              $$select distinct naam from gemeten where soort = 'operatie'$$,
              'every read operation of the registry is measured');
select is_empty($$select distinct format('%s as %s: %s', naam, rol, status) from gemeten
                  where soort = 'operatie' and status <> 200$$,
                'every read operation answers 200 for every role that may run it (the test reaches its rows)');
-- Every definition but those of one row per organisation (the canvas) or per organisation of the
-- caller (def_organisaties).
select is_empty($$select g1.naam from (select distinct naam, rol, rijen from gemeten where ronde = 1 and soort = 'definitie') g1
                  join (select distinct naam, rol, rijen from gemeten where ronde = 2 and soort = 'definitie') g2 using (naam, rol)
                  where g1.naam not in ('app_hidden.def_strategie', 'app_hidden.def_organisaties')
                  group by g1.naam having max(g2.rijen - g1.rijen) < 2$$,
          'some role sees at least two more rows in round 2 through every definition (the rows grew)');
-- The test can fail: a person looked up per row of def_leden is seen.
create temp table controle as select * from pg_temp.tellingen();
select count(app_hidden.persoon(:'org', l.user_id)) from app.lidmaatschappen l where l.org_id = :'org' \gset
select cmp_ok((select t.calls - coalesce(c.calls, 0) from pg_temp.tellingen() t left join controle c using (functie)
               where t.functie like 'app_hidden.persoon(%'),
              '>=', 11::bigint, 'a PL/pgSQL function called per row is counted once per row');

select ok(g.naam is null, format('operation %s: no function called per row', o.naam))
from (select distinct naam from gemeten where soort = 'operatie') o
left join groei g on g.soort = 'operatie' and g.naam = o.naam
order by o.naam;
select diag(format('%s %s calls per row: %s', g.soort, g.naam, array_to_string(g.functies, '; ')))
from groei g order by g.soort, g.naam;

select ok(false, format('definition %s: the test has no argument for a required parameter', d.naam))
from definities d where d.naam like '%()' and d.aanroep is null;
select ok(g.naam is null, format('definition %s: no function called per row', d.naam))
from definities d left join groei g on g.soort = 'definitie' and g.naam = d.naam
where d.naam not like '%()' or d.aanroep is not null
order by d.naam;

select * from finish();
rollback;
