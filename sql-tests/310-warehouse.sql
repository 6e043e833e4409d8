-- The warehouse door: a login (db/930_warehouse.sql) acts for one member of one organisation,
-- like an API key, and reads only the views of rapportage (db/940_rapportage.sql), which
-- koers_lezer owns and reads (db/950_lezer.sql): the login itself may read no table of the app.
-- Tested as the login itself (set session authorization: session_user is the login, as when it
-- connects).
begin;
select plan(71);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
select * from tests.leden(:'alfa') \gset
select beheer.koppeling_zetten(:'alfa', 'warehouse', true, null) is not null as aan \gset
select beheer.koppeling_zetten(:'beta', 'warehouse', true, null) is not null as aan \gset
-- The verifier of the password koers-test-wachtwoord (src/warehouse/scram.ts, a fixed salt).
\set verifier 'SCRAM-SHA-256$4096:a29lcnMtdGVzdC1zYWx0IQ==$qFQa46XzNrHcRKajp78CtkxMgfxQ3joU5rgDTW2BL9E=:7yQVZbQLWx1TN30F4YR9hIMdY7avCGf1TChHPtbRKus='
select r ->> 'gebruiker' as wh_lid, r ->> 'id' as wh_lid_id
from beheer.warehouse_aanmaken(:'alfa', :'lid', :'verifier') r \gset
select r ->> 'gebruiker' as wh_coach from beheer.warehouse_aanmaken(:'alfa', :'coach', :'verifier', 2) r \gset
select r ->> 'gebruiker' as wh_beta
from beheer.warehouse_aanmaken(:'beta', tests.lid(:'beta', 'eigenaar'), :'verifier') r \gset

-- The login as made: what PostgreSQL stored is the verifier the app sent; a password is refused.
select is((select rolpassword from pg_authid where rolname = :'wh_lid'), :'verifier',
  'the role holds the SCRAM verifier the app made, as given');
select throws_ok(format('select beheer.warehouse_aanmaken(%L, %L, %L)', :'alfa', :'lid', 'geheim-wachtwoord'),
  'KOERS', 'Geef een SCRAM-SHA-256-verifier, nooit een wachtwoord.', 'a plaintext password is refused');
select throws_ok(format('select beheer.warehouse_aanmaken(%L, %L, %L, 0)', :'alfa', :'lid', :'verifier'),
  'KOERS', 'De limiet is een geheel getal van 1 tot en met 100.', 'a connection limit below 1 is refused');
select results_eq(format($$ select r.rolcanlogin, r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcreatedb, r.rolreplication,
                                   r.rolconnlimit from pg_roles r where r.rolname = %L $$, :'wh_lid'),
  $$ values (true, false, false, false, false, false, 5) $$,
  'a login: no superuser, no BYPASSRLS, no role or database creation, no replication, at most 5 connections');
select is((select rolconnlimit from pg_roles where rolname = :'wh_coach'), 2, 'the limit is the one asked for');
select is((select array_agg(g.rolname::text) from pg_auth_members m join pg_roles g on g.oid = m.roleid
           join pg_roles r on r.oid = m.member where r.rolname = :'wh_lid'),
  array['koers_warehouse'], 'its only membership is koers_warehouse: not koers_door');
select is((select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
           where r.rolname = :'wh_lid' and s.setdatabase = (select oid from pg_database where datname = current_database())),
  array['search_path=rapportage', 'default_transaction_read_only=on', 'statement_timeout=5min',
        'idle_in_transaction_session_timeout=60s', 'enable_nestloop=off', 'jit=off'],
  'its defaults: rapportage, read only, a statement timeout, hash joins for whole reads, no JIT');

-- The logins' group holds no power beyond reading under the doors' policies, through the views.
select is_empty($$ select rolname from pg_roles where rolname = 'koers_warehouse'
                   and (rolsuper or rolbypassrls or rolcreaterole or rolcreatedb or rolcanlogin or rolreplication
                        or pg_has_role(oid, 'koers_door', 'member')) $$,
  'koers_warehouse: no login, no BYPASSRLS, no member of koers_door');
select is_empty($$ select n.nspname::text from pg_namespace n
                   where n.nspname not in ('rapportage', 'app_hidden', 'pg_catalog', 'information_schema', 'public')
                     and n.nspname !~ '^pg_(toast_)?temp_'
                     and (has_schema_privilege('koers_warehouse', n.oid, 'usage') or has_schema_privilege('koers_warehouse', n.oid, 'create')) $$,
  'koers_warehouse names nothing outside rapportage and the helpers the views call (app_hidden): not app, app_private, api, beheer');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace, 'app_hidden'::regnamespace)
                     and has_any_column_privilege('koers_warehouse', c.oid, 'select')
                     -- The policies' inlined reader of the current call's caller (db/030, db/950):
                     -- a login reads it as itself, and it shows a backend its own call only.
                     and c.oid <> 'app_hidden.beller_nu'::regclass $$,
  'koers_warehouse reads no table or view of app, app_private or app_hidden (no definition either): only the views of rapportage');
select is_empty($$ select p.oid::regprocedure::text from pg_proc p
                   where p.pronamespace = 'app_hidden'::regnamespace and p.proname like 'def\_%'
                     and has_function_privilege('koers_warehouse', p.oid, 'execute') $$,
  'nor executes a definition that is a function');
-- koers_lezer, as which the definitions and the views are read: no login, no power, no write.
select is_empty($$ select rolname from pg_roles where rolname = 'koers_lezer'
                   and (rolsuper or rolbypassrls or rolcreaterole or rolcreatedb or rolcanlogin or rolreplication or rolinherit
                        or exists (select 1 from pg_auth_members m where m.member = oid)) $$,
  'koers_lezer: no login, no BYPASSRLS, noinherit, a member of nothing');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
                     and c.relkind in ('r', 'p') and c.relpersistence <> 't'
                     and (has_table_privilege('koers_lezer', c.oid, 'insert, update, delete, truncate, references, trigger')
                          or has_any_column_privilege('koers_lezer', c.oid, 'insert, update, references')) $$,
  'koers_lezer writes to no table');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace) and c.relkind in ('r', 'p')
                     and has_any_column_privilege('koers_lezer', c.oid, 'select')
                     and not has_any_column_privilege('koers_door', c.oid, 'select') $$,
  'koers_lezer reads no table the doors may not read (nothing of app_private)');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace) and c.relkind in ('r', 'p')
                     and has_table_privilege('koers_lezer', c.oid, 'select') $$,
  'koers_lezer holds no grant on a whole table: only the columns the definitions and policies read');
select ok(has_column_privilege('koers_lezer', 'app.taken', 'omschrijving', 'select')
          and not has_column_privilege('koers_lezer', 'app.accounts', 'email', 'select'),
  'such as a task''s description, never an account''s e-mail address');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace = 'app_hidden'::regnamespace and c.relkind = 'v' and c.relname like 'def\_%'
                     and (c.relowner not in ('koers_lezer'::regrole, 'koers_definer'::regrole)
                          or coalesce(c.reloptions, '{}') && array['security_invoker=true']) $$,
  'every definition that is a view is koers_lezer''s (or a definer''s that fences itself), none security_invoker');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace in ('app_hidden'::regnamespace, 'api'::regnamespace, 'beheer'::regnamespace)
                     and c.relkind in ('r', 'p') and has_any_column_privilege('koers_warehouse', c.oid, 'select') $$,
  'and no table of app_hidden (the caller, the switches)');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
                     and c.relpersistence <> 't'
                     and (has_table_privilege('koers_warehouse', c.oid, 'insert, update, delete, truncate, references, trigger')
                          or has_any_column_privilege('koers_warehouse', c.oid, 'insert, update, references')) $$,
  'koers_warehouse writes nowhere');
select is_empty($$ select c.oid::regclass::text from pg_class c where c.relnamespace = 'app_private'::regnamespace
                   and has_any_column_privilege('koers_warehouse', c.oid, 'select') $$,
  'nor reads anything private');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace in ('app'::regnamespace, 'app_hidden'::regnamespace)
                     and has_any_column_privilege('koers_warehouse', c.oid, 'select')
                     and not has_any_column_privilege('koers_door', c.oid, 'select') $$,
  'it reads no table the doors may not read');
select is_empty($$ select p.polname || ' on ' || p.polrelid::regclass from pg_policy p
                   where p.polcmd in ('r', '*') and 'koers_door'::regrole = any (p.polroles)
                     and not 'koers_lezer'::regrole = any (p.polroles) $$,
  'every reading policy and fence of the doors also holds for koers_lezer, as which the definitions are read');
select is_empty($$ select p.polname || ' on ' || p.polrelid::regclass from pg_policy p
                   where 'koers_warehouse'::regrole = any (p.polroles) $$,
  'no policy names the logins: they read no table');
select is_empty($$ select c.relname::text from pg_class c where c.relnamespace = 'rapportage'::regnamespace
                   and (c.relkind <> 'v' or c.relowner <> 'koers_lezer'::regrole
                        or coalesce(c.reloptions, '{}') && array['security_invoker=true']
                        or not coalesce(c.reloptions, '{}') && array['security_barrier=true']) $$,
  'rapportage holds only views, each koers_lezer''s, none security_invoker, each a security_barrier');
select is_empty($$ select c.relname || coalesce('.' || a.attname, '') from pg_class c
                   left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                   where c.relnamespace = 'rapportage'::regnamespace
                     and (obj_description(c.oid, 'pg_class') is null
                          or a.attnum is not null and col_description(c.oid, a.attnum) is null) $$,
  'every view and every column of rapportage has a comment');
select is((select count(*) from rapportage.woordenboek where kolom is not null),
          (select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid
           where c.relnamespace = 'rapportage'::regnamespace and a.attnum > 0 and not a.attisdropped),
  'rapportage.woordenboek lists every column of every view');

select is_empty($$ select x.naam from app_hidden.rapportage_views() x
                   where (case when x.bron like '%()' then to_regproc(left(x.bron, -2)) is not null else to_regclass(x.bron) is not null end)
                     and to_regclass('rapportage.' || x.naam) is null $$,
  'every resource whose definition exists has its view');
-- A view of things that change carries bijgewerkt_op, and changing a row moves it.
select is_empty($$ select x.naam from app_hidden.rapportage_views() x
                   join pg_class c on c.relname = x.naam and c.relnamespace = 'rapportage'::regnamespace
                   where x.naam <> 'taak_geschiedenis'
                     and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'bijgewerkt_op') $$,
  'every view of things that change has bijgewerkt_op (history is append-only by tijdstip)');
update app.weektaken set bijgewerkt_op = '2000-01-01', titel = titel where org_id = :'alfa';
select is((select bool_and(bijgewerkt_op = app_hidden.nu()) from app.weektaken where org_id = :'alfa'), true,
  'a change of a row sets its bijgewerkt_op');

-- Whether a relation reads without an error (as whoever calls it).
create function pg_temp.leesbaar(_view text) returns boolean language plpgsql as $$
begin
  execute format('select count(*) from %s', _view);
  return true;
exception when others then
  raise notice '%: %', _view, sqlerrm;
  return false;
end
$$;
grant execute on function pg_temp.leesbaar(text) to public;

create function pg_temp.plan_van(_sql text) returns jsonb language plpgsql as $$
declare r jsonb;
begin
  execute 'explain (format json) ' || _sql into r;
  return r;
end
$$;
-- As the login of Alfa's lid.
select set_config('koers.aanroep', '', true) is not null as x \gset
set session authorization :wh_lid;
select results_eq('select org_id, gebruiker_user_id, rol, door, id from rapportage.wie_ben_ik',
  format('values (%L::uuid, %L::uuid, %L, %L, %L::uuid)', :'alfa', :'lid', 'lid', 'warehouse', :'wh_lid_id'),
  'a login acts for its member in its organisation, door warehouse');
select is_empty(format('select 1 from rapportage.wie_ben_ik where org_id = %L', :'beta'),
  'asking for another organisation''s id finds nothing');
select results_eq('select org_id from rapportage.wie_ben_ik',
  format('values (%L::uuid)', :'alfa'), 'a forged setting changes nothing')
  from (select set_config('koers.aanroep', :'beta' || '/x', true)) x;
select throws_ok($$ insert into app.tags (org_id, naam) values ('$$ || :'alfa' || $$', 'x') $$, '42501', null,
  'the app''s tables take no write');
select throws_ok('select * from app.taken', '42501', null, 'a login reads no table of the app: not app.taken');
select throws_ok('select id, naam from app.accounts', '42501', null, 'nor app.accounts');
select throws_ok('select org_id from app.organisaties', '42501', null, 'nor app.organisaties');
select throws_ok('select * from app_hidden.def_taken', '42501', null, 'nor a definition: app_hidden.def_taken');
select throws_ok('select * from app_hidden.def_personen', '42501', null, 'nor app_hidden.def_personen');
select throws_ok(format('select * from app_hidden.def_kpi_scorebord(%L, null)', date '2026-04-01'), '42501', null,
  'nor app_hidden.def_kpi_scorebord(...)');
select throws_ok('select * from app_hidden.def_kpi_scorebord()', '42501', null, 'nor app_hidden.def_kpi_scorebord()');
select is_empty($$ select c.oid::regclass::text from pg_class c
                   where c.relnamespace = 'app_private'::regnamespace and c.relkind in ('r', 'p')
                     and has_any_column_privilege(current_user, c.oid, 'select') $$,
  'nor any table of app_private');
select throws_ok('select * from app_private.warehouse_logins', '42501', null, 'so are the private tables');
select throws_ok('select * from app_hidden.bellers', '42501', null, 'the callers of the doors are refused');
select is((select count(*)::int from app_hidden.beller_nu), 0,
  'the caller of its own running call, the one view of app_hidden a login reads, shows nothing: a warehouse session has no call');
select throws_ok('select app_hidden.handelen_namens(null, null)', '42501', null, 'and acting on someone''s behalf');
select throws_ok($$ select * from app_hidden.beller_mcp('\x00', null) $$, '42501', null, 'and the AI sign-in''s look-ups');
select throws_ok($$ select api.aanroep('rest', null, 'team', '{}', null, null, null, null) $$, '42501', null,
  'and the doors'' entry point');
select throws_ok('create temp table t (x int)', '42501', null, 'no temporary tables');
select throws_ok('create table rapportage.t (x int)', '42501', null, 'no tables of its own');
select throws_ok('delete from rapportage.woordenboek', null, null, 'no writes through a view');
select is_empty($$ select c.relname::text from pg_class c
                   where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v'
                     and not pg_temp.leesbaar('rapportage.' || quote_ident(c.relname)) $$,
  'every view of rapportage reads as the login');
reset session authorization;

-- A login plans with enable_nestloop off (its role settings): finding its caller, which every
-- policy of a read does once, joins nothing (a join was hashed from every member of every
-- organisation, and a nested loop would have cost the plan enough to be compiled by JIT).
set session authorization :wh_lid;
set local enable_nestloop = off;
select is(app_hidden.huidige_org(), :'alfa'::uuid, 'with the login''s planner settings its caller is its organisation');
reset session authorization;
select is((select count(*) from jsonb_path_query(x.plan, 'strict $.**."Node Type"') n
           where n #>> '{}' in ('Hash Join', 'Merge Join', 'Nested Loop')), 0::bigint,
  'and finding it joins no tables, only probes them')
from (select pg_temp.plan_van('select * from app_hidden.beller_warehouse()') as plan) x;
reset enable_nestloop;

-- The planner knows the login's organisation (app_hidden.rapportage_org, worked out when a query
-- is planned): it estimates that organisation's rows, not an average one's. Any other session
-- has none, and the views show it nothing (as before: it has no caller).
set session authorization :wh_lid;
select is(app_hidden.rapportage_org(), :'alfa'::uuid, 'a login''s organisation is known when its query is planned');
select ok(pg_temp.plan_van('select * from rapportage.taken')::text like '%' || :'alfa' || '%',
  'so the plan of a view reads the tasks of that organisation by its id, not by a value found as it runs');
reset session authorization;
select is(app_hidden.rapportage_org(), null, 'a session that is no login has no organisation for the views');

-- The same, acting for a coach: another member, another role.
set session authorization :wh_coach;
select results_eq('select gebruiker_user_id, rol from rapportage.wie_ben_ik',
  format('values (%L::uuid, %L)', :'coach', 'coach'), 'a coach''s login acts as the coach');
reset session authorization;

-- Beta's login sees Beta only.
set session authorization :wh_beta;
select results_eq('select org_id from rapportage.wie_ben_ik', format('values (%L::uuid)', :'beta'),
  'another organisation''s login sees its own organisation only');
reset session authorization;

-- The role matrix over the views: a login of each role sees in every view exactly the rows its
-- definition gives that member through a door (the same rows, the same figures), none of
-- another organisation, and nothing of a section that is not released.
create temp table matrix (view text, rol text, door text, login text, rijen bigint, vreemd bigint);
grant all on matrix to public;
create temp table logins as
  select r.rol, beheer.warehouse_aanmaken(:'alfa', tests.lid(:'alfa', r.rol), :'verifier') ->> 'gebruiker' as login
  from unnest(app_hidden.keuzes('rol')) r (rol);
do $$
declare v record; l record; door text; login text; n bigint; vreemd bigint; kolommen text;
  alfa uuid := (select org_id from app.organisaties where naam = 'Alfa BV');
begin
  for v in select x.*, app_hidden.rapportage_selectie(x.bron, x.sleutel) as kolommen
           from app_hidden.rapportage_views() x join pg_class c on c.relname = x.naam
           where c.relnamespace = 'rapportage'::regnamespace loop
    -- The definition's columns (bijgewerkt_op may come from the table instead: it is no figure).
    kolommen := (select string_agg(format('x.%I', a.attname), ', ' order by a.attnum) from pg_attribute a
                 where a.attrelid = ('rapportage.' || v.naam)::regclass and a.attnum > 0 and a.attname <> 'bijgewerkt_op');
    for l in select * from logins loop
      perform app_hidden.handelen_namens(alfa, tests.lid(alfa, l.rol), 'rest');
      set local role koers_door;
      execute format('select md5(coalesce(string_agg(r::text, '','' order by r::text), '''')) from (select %s from '
                     '(select %s from %s d where (select app_hidden.rapportage_zichtbaar(%L))) x) r',
                     kolommen, v.kolommen, v.bron, v.operatie) into door;
      reset role;
      perform set_config('koers.aanroep', '', true);
      execute format('set session authorization %I', l.login);
      execute format('select md5(coalesce(string_agg(r::text, '','' order by r::text), '''')), count(*), '
                     'count(*) filter (where r.org_id <> %L) from (select %s from rapportage.%I x) r', alfa, kolommen, v.naam)
        into login, n, vreemd;
      reset session authorization;
      insert into matrix values (v.naam, l.rol, door, login, n, vreemd);
    end loop;
  end loop;
end
$$;
select is_empty($$ select view || ' as ' || rol from matrix where door is distinct from login $$,
  'every view shows a login of each role exactly the rows and figures its definition gives that member through a door');
select is_empty($$ select view || ' as ' || rol from matrix where vreemd > 0 $$, 'no view shows another organisation''s row');
select is_empty($$ select view from matrix group by view having max(rijen) = 0 $$,
  'every view has rows for some role (the matrix compares something)');
create temp table dicht (view text, waarom text, rijen bigint);
grant all on dicht to public;
do $$
declare v record; alfa uuid := (select org_id from app.organisaties where naam = 'Alfa BV'); n bigint;
begin
  for v in select x.naam, x.operatie, o.sectie from app_hidden.rapportage_views() x
           join pg_class c on c.relname = x.naam and c.relnamespace = 'rapportage'::regnamespace
           join app.operaties o on o.naam = x.operatie loop
    -- The section withdrawn: nothing, even for an owner.
    if v.sectie is not null then
      perform beheer.secties_zetten(alfa, array[v.sectie], false);
      perform set_config('koers.aanroep', '', true);
      execute format('set session authorization %I', (select login from logins where rol = 'eigenaar'));
      execute format('select count(*) from rapportage.%I', v.naam) into n;
      reset session authorization;
      insert into dicht values (v.naam, 'onderdeel ' || v.sectie || ' uit', n);
      perform beheer.secties_zetten(alfa, array[v.sectie], true);
    end if;
    -- The organisation takes the right away from a role: nothing for that role's login.
    insert into app.org_rechten (org_id, operatie, rol, recht) values (alfa, v.operatie, 'admin', 'geen')
      on conflict (org_id, operatie, rol) do update set recht = 'geen';
    perform set_config('koers.aanroep', '', true);
    execute format('set session authorization %I', (select login from logins where rol = 'admin'));
    execute format('select count(*) from rapportage.%I', v.naam) into n;
    reset session authorization;
    insert into dicht values (v.naam, 'admin mag ' || v.operatie || ' niet', n);
    delete from app.org_rechten where org_id = alfa and operatie = v.operatie and rol = 'admin';
  end loop;
end
$$;
select is_empty($$ select view || ': ' || waarom from dicht where rijen > 0 $$,
  'a view of a section that is not released, or of an operation the role may not call, is empty');

-- Switched off, inactive, revoked: the session sees nothing.
select beheer.koppeling_zetten(:'alfa', 'warehouse', false, null) is not null as uit \gset
set session authorization :wh_lid;
select is_empty('select * from rapportage.wie_ben_ik', 'with the warehouse door off a login sees nothing');
reset session authorization;
select beheer.koppeling_zetten(:'alfa', 'warehouse', true, null) is not null as aan \gset
update app.lidmaatschappen set actief = false where org_id = :'alfa' and user_id = :'lid';
set session authorization :wh_lid;
select is_empty('select * from rapportage.wie_ben_ik', 'a login of an inactive member sees nothing');
reset session authorization;
update app.lidmaatschappen set actief = true where org_id = :'alfa' and user_id = :'lid';
update app_private.warehouse_logins set ingetrokken_op = now() where id = :'wh_lid_id';
set session authorization :wh_lid;
select is_empty('select * from rapportage.wie_ben_ik', 'a revoked login sees nothing, also in a session still open');
reset session authorization;
update app_private.warehouse_logins set ingetrokken_op = null where id = :'wh_lid_id';

select is((beheer.warehouse_intrekken(:'wh_lid_id') ->> 'gebruiker'), :'wh_lid', 'revoking names the login');
select is_empty(format('select 1 from pg_roles where rolname = %L', :'wh_lid'), 'its role is gone: no new session starts');
select isnt((select ingetrokken_op from app_private.warehouse_logins where id = :'wh_lid_id'), null,
  'the row stays, revoked');
select is((select jsonb_agg(r ->> 'gebruiker' order by r ->> 'gebruiker') from beheer.warehouse_logins(:'alfa') r
           where r ->> 'ingetrokken_op' is null and r ->> 'gebruiker' in (:'wh_lid', :'wh_coach')), jsonb_build_array(:'wh_coach'),
  'the list shows which logins are still active');

-- The app's administrative connection (a superuser, here acting as the app itself: no member, no
-- role, no section) reads the definitions past the members' policies, as it did when they were
-- security_invoker, and still only in the organisation it acts for.
select app_hidden.handelen_namens(:'alfa', null) is not null as app \gset
select isnt(app_hidden.taak_weergave(:'alfa', (select id from app.taken where org_id = :'alfa' and nummer = 1)), null,
  'the app acting as itself reads a task through the definitions');
select is((select count(*) from app_hidden.def_taken), (select count(*) from app.taken where org_id = :'alfa'),
  'the app reads every task of the organisation it acts for through def_taken, and none of another');

select * from finish();
rollback;
