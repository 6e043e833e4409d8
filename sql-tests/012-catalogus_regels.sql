-- Rules of the catalog beyond tenancy (issue 19): no check constraint spells out a list of
-- values (each list is defined in src/choices.ts and derived into a <table>_<column>_keuze
-- constraint by db/005_keuzes.sql); a check constraint over several columns is named for its
-- rule, which app_hidden.regel maps to a parameter and a message, also for a door call that
-- breaks it; and every security-definer function that takes an organisation answers only
-- about the caller's own (app_hidden.eigen_org or app_hidden.huidige_org). Exceptions are
-- listed below, each with its reason.
begin;
select plan(11);

-- A check constraint of app or app_private that compares a column with a list of values.
create temp view lijst_checks as
  select c.conrelid::regclass::text as tabel, c.conname::text as naam,
         (regexp_match(pg_get_constraintdef(c.oid), '''(\{[^'']*\})''::text\[\]'))[1]::text[] as waarden
  from pg_constraint c join pg_namespace n on n.oid = c.connamespace
  where n.nspname in ('app', 'app_private') and c.contype = 'c'
    and pg_get_constraintdef(c.oid) ~* '= any \(|\min \(';

-- Lists that stay literal, with their reason.
create temp table lijst_uitzonderingen (naam text primary key, reden text not null);
insert into lijst_uitzonderingen values
  ('prioriteiten_kwartaal_start_check', 'a date rule (a quarter starts in month 1, 4, 7 or 10), not a list of values'),
  ('kpi_kwartaaldoelen_kwartaal_start_check', 'a date rule (a quarter starts in month 1, 4, 7 or 10), not a list of values');

create temp view literale_lijsten as
  select l.tabel, l.naam from lijst_checks l
  where l.naam not like '%\_keuze' and l.naam not in (select naam from lijst_uitzonderingen);
create temp view keuze_zonder_lijst as
  select l.tabel, l.naam from lijst_checks l
  where l.naam like '%\_keuze'
    and not exists (select 1 from (select array_agg(k.waarde order by k.volgorde) as waarden
                                   from app.keuzes k group by k.lijst) x where x.waarden = l.waarden);

select ok((select count(*) from lijst_checks where naam like '%\_keuze') >= 25,
  'the derived value-list constraints are found (' || (select count(*) from lijst_checks where naam like '%\_keuze') || ')');
select is_empty('select * from literale_lijsten', 'no check constraint spells out a list of values');
select is_empty('select * from keuze_zonder_lijst', 'every value-list constraint holds a list of app.keuzes, in its order');

-- Named rules: a check constraint over several columns has a name of its own, and every rule of
-- app_hidden.regels that names a constraint names one that exists.
create temp view regel_checks as
  select c.conrelid::regclass::text as tabel, c.conname::text as naam
  from pg_constraint c join pg_namespace n on n.oid = c.connamespace
  where n.nspname in ('app', 'app_private') and c.contype = 'c' and cardinality(c.conkey) > 1;
create temp table regels_zonder_constraint (naam text primary key, reden text not null);
insert into regels_zonder_constraint values
  ('gesprekken_met_een_ander', 'who and with whom are checked by the app and the import; no constraint yet holds it');
select is_empty($$ select * from regel_checks where naam ~ '_check\d*$' $$,
  'every check constraint over several columns is named for its rule');
select is_empty($$ select r.naam from app_hidden.regels() r
                   where not exists (select 1 from pg_constraint c where c.conname = r.naam and c.contype = 'c')
                     and r.naam not in (select naam from regels_zonder_constraint) $$,
  'every rule of app_hidden.regels names a check constraint that exists (or is listed without one)');

-- A door call that breaks a named rule the operation did not check first answers with the rule's
-- parameter and message. (Here a stand-in rule under a known name; rolled back.)
alter table app.taken drop constraint taken_grootte_of_inschatting;
alter table app.taken add constraint taken_grootte_of_inschatting check (omschrijving <> 'Verboden');
select tests.wereld('Regel BV') as regel_org \gset
create function pg_temp.roep_rest(_p jsonb) returns jsonb language plpgsql as $$
declare r jsonb;
begin
  set local role koers_door;
  r := api.aanroep('rest', sha256(convert_to('Regel BV', 'UTF8')), 'taak_toevoegen', _p);
  reset role;
  return r;
end $$;
select is(pg_temp.roep_rest(jsonb_build_object('org_id', :'regel_org', 'omschrijving', 'Verboden')) -> 'body' -> 'fout',
  jsonb_build_object('code', 'ongeldige_parameters', 'bericht', 'Geef grootte of inschatting_uren, niet allebei.',
                     'parameter', 'inschatting_uren'),
  'a check violation of a named rule answers with its parameter and message');
select is(pg_temp.roep_rest(jsonb_build_object('org_id', :'regel_org', 'omschrijving', 'Toegestaan')) #>> '{body,fout}', null,
  'the same call within the rule is answered');

-- Security-definer functions with an organisation among their arguments.
create temp view definer_met_org as
  select p.oid::regprocedure::text as functie, p.prosrc, has_function_privilege('koers_door', p.oid, 'execute') as deur
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where p.prosecdef and n.nspname in ('api', 'app_hidden', 'beheer', 'app')
    and exists (select 1 from unnest(p.proargnames[1:p.pronargs]) a where a ~ '^_?(gevraagde_)?org(_id)?$');

create temp table definer_uitzonderingen (functie text primary key, reden text not null);
insert into definer_uitzonderingen values
  ('app_hidden.recht(uuid,text,text)', 'a role''s right on an operation, read while a caller is being established '
    || '(app_hidden.aanroep_begin, handelen_namens) when there is no caller yet to compare with; no tenant rows'),
  ('app_hidden.zichtbare_secties(uuid,text,text)', 'the sections a role sees, read while a caller is being '
    || 'established (app_hidden.aanroep_begin) when there is no caller yet to compare with; no tenant rows'),
  ('app_hidden.beller_mcp(bytea,uuid)', 'the resolver of the AI connection: the access token decides which '
    || 'organisation, the asked one is refused unless the token''s member belongs to it'),
  -- Not executable by the doors (db/999_grants.sql); called by triggers and the app only.
  ('app_hidden.handelen_namens(uuid,uuid,text,text,jsonb)', 'establishes the caller for the app: it is what the '
    || 'fence compares with; the doors may not execute it'),
  ('app_hidden.verborgen_projecten_van(uuid,uuid)', 'the private projects hidden from a member, worked out while a '
    || 'caller is being established (app_hidden.aanroep_begin) and by the caller''s reader (verborgen_projecten); '
    || 'no door or warehouse login may execute it'),
  ('app_hidden.org_toestand_bijwerken(uuid)', 'recomputes an organisation''s row of switches from its own tables, '
    || 'for the triggers of those tables; the doors may not execute it'),
  ('app_hidden.gebeurtenis(uuid,text,uuid,jsonb,boolean,boolean)', 'writes an event for the row a trigger fired on; '
    || 'the doors may not execute it'),
  ('app_hidden.taak_gebeurtenis_samenvoegen(uuid,uuid,text,jsonb,boolean)', 'merges the event of a task a trigger fired '
    || 'on into its change''s earlier events; the doors may not execute it'),
  ('app_hidden.geschiedenis(uuid,uuid,text,jsonb,jsonb)', 'writes task history for the row a trigger fired on; '
    || 'the doors may not execute it'),
  ('app_hidden.taak_sommen_bijwerken(uuid,uuid[])', 'keeps the stored hours and subtask counts of the tasks a trigger '
    || 'fired on; the doors may not execute it'),
  ('app_hidden.taak_sommen_opnieuw(uuid)', 'works out an organisation''s stored hours and subtask counts anew, for the '
    || 'bench''s data set (made with triggers off); the doors may not execute it'),
  ('app_hidden.prioriteit_sommen_bijwerken(uuid,uuid[])', 'keeps the stored task sums of the priorities a trigger '
    || 'fired on; the doors may not execute it'),
  ('app_hidden.project_sommen_bijwerken(uuid,uuid[])', 'keeps the stored open tasks and hours of the projects a trigger '
    || 'fired on; the doors may not execute it'),
  ('app_hidden.sommen_van_taken(uuid,uuid[],uuid[],uuid[])', 'keeps the stored sums of the parents, priorities and '
    || 'projects of the tasks a trigger fired on; the doors may not execute it'),
  ('app_hidden.sommen_van_uren(uuid,uuid[],uuid[])', 'keeps the stored hours of the tasks and projects the hours a '
    || 'trigger fired on are booked on; the doors may not execute it'),
  ('app_hidden.sommen_opnieuw(uuid)', 'works out an organisation''s stored sums of its priorities and projects '
    || 'anew, when db/ is applied and for the bench''s data sets (made with triggers off); the doors may not execute it'),
  ('app_hidden.tag_tekst_bijwerken(uuid,uuid[])', 'keeps the searchable tag text of the tasks a trigger fired on; '
    || 'the doors may not execute it');

create temp view definer_zonder_hek as
  select d.functie from definer_met_org d
  where d.prosrc !~ 'app_hidden\.(eigen_org|huidige_org)\('
    and d.functie not in (select functie from definer_uitzonderingen);

select ok((select count(*) from definer_met_org) >= 10,
  'the security-definer functions that take an organisation are found (' || (select count(*) from definer_met_org) || ')');
select is_empty('select * from definer_zonder_hek',
  'every security-definer function that takes an organisation checks it is the caller''s, or is listed with its reason');
select is_empty($$ select d.functie from definer_met_org d join definer_uitzonderingen u on u.functie = d.functie
                   where d.deur and u.reden like '%the doors may not execute it' $$,
  'an exception that rests on the doors not executing it is not executable by the doors');

-- The checks can fail: a literal list and an unfenced definer function are both reported.
create table app.slordig (org_id uuid, kleur text check (kleur in ('rood', 'groen')));
create function app_hidden.slordig(_org uuid) returns bigint
language sql stable security definer set search_path = '' as $$
  select count(*) from app.taken t where t.org_id = _org $$;
grant execute on function app_hidden.slordig(uuid) to koers_door;
select results_eq(
  $$ select (select count(*) from literale_lijsten where tabel = 'app.slordig')
          + (select count(*) from definer_zonder_hek where functie = 'app_hidden.slordig(uuid)') $$,
  array[2::bigint], 'a literal list in a check and an unfenced security-definer function are reported');

select * from finish();
rollback;
