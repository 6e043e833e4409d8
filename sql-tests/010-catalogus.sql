-- The catalog itself: every tenant table has forced RLS, a policy, and org_id leading its
-- primary key and every foreign key into another tenant table; the door role and the login
-- roles of the doors are powerless outside its policies; security-definer functions fix their
-- search_path.
begin;
select plan(19);

create temp view tenant_zonder_forced_rls as
  select t.tabel::text from app_hidden.tenant_tabellen t join pg_class c on c.oid = t.tabel
  where not (c.relrowsecurity and c.relforcerowsecurity);
create temp view tenant_zonder_policy as
  select t.tabel::text from app_hidden.tenant_tabellen t
  where not exists (select 1 from pg_policy p where p.polrelid = t.tabel);
create temp view tenant_zonder_hek as
  select t.tabel::text from app_hidden.tenant_tabellen t
  where not exists (select 1 from pg_policy p where p.polrelid = t.tabel and not p.polpermissive
                      and p.polname = 'rows stay within the caller''s organisation'
                      and pg_get_expr(p.polqual, p.polrelid) ~ 'app_hidden\.mijn_org(\(\)|_in\()'
                      and pg_get_expr(p.polwithcheck, p.polrelid) ~ 'app_hidden.mijn_org\(\)');
-- The read policies leave the organisation to the fence (db/060_policies.sql): every role a
-- policy of a tenant table names is fenced on that table too.
create temp view rol_zonder_hek as
  select p.polrelid::regclass::text as tabel, p.polname::text as policy, r::regrole::text as rol
  from pg_policy p join app_hidden.tenant_tabellen t on t.tabel = p.polrelid, unnest(p.polroles) r
  where p.polpermissive
    and not exists (select 1 from pg_policy h where h.polrelid = p.polrelid and not h.polpermissive
                      and h.polname = 'rows stay within the caller''s organisation'
                      and (r = any (h.polroles) or 0::oid = any (h.polroles)));
create temp view tenant_zonder_org_voorop as
  select t.tabel::text from app_hidden.tenant_tabellen t
  where (select a.attname from pg_constraint k
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         where k.conrelid = t.tabel and k.contype = 'p') is distinct from 'org_id';
create temp view fk_zonder_org_voorop as
  select k.conname::text from pg_constraint k
  join app_hidden.tenant_tabellen van on van.tabel = k.conrelid
  join app_hidden.tenant_tabellen naar on naar.tabel = k.confrelid
  where k.contype = 'f'
    and ((select attname from pg_attribute where attrelid = k.conrelid and attnum = k.conkey[1]) <> 'org_id'
      or (select attname from pg_attribute where attrelid = k.confrelid and attnum = k.confkey[1]) <> 'org_id');

select ok((select count(*) from app_hidden.tenant_tabellen) >= 40, 'the tenant tables are found (' || (select count(*) from app_hidden.tenant_tabellen) || ')');
select is_empty('select * from tenant_zonder_forced_rls', 'every tenant table has RLS enabled and forced');
select is_empty('select * from tenant_zonder_policy', 'every tenant table has a policy');
select is_empty('select * from tenant_zonder_hek', 'every tenant table has the restrictive organisation fence');
select is_empty('select * from rol_zonder_hek', 'every role a policy of a tenant table names is held by its organisation fence');
select is_empty('select * from tenant_zonder_org_voorop', 'org_id leads the primary key of every tenant table');
select is_empty('select * from fk_zonder_org_voorop', 'org_id leads every foreign key between tenant tables');

-- The checks can fail: a tenant table made carelessly is caught by each of them.
create table app.slordig (org_id uuid, id uuid, primary key (id, org_id));
select results_eq(
  $$ select (select count(*) from tenant_zonder_forced_rls where tabel = 'app.slordig')
          + (select count(*) from tenant_zonder_policy where tabel = 'app.slordig')
          + (select count(*) from tenant_zonder_hek where tabel = 'app.slordig')
          + (select count(*) from tenant_zonder_org_voorop where tabel = 'app.slordig') $$,
  array[4::bigint], 'a table without forced RLS, policy, fence or leading org_id is reported by all four checks');
-- A permissive policy alone is not the fence.
create policy "everything" on app.slordig to koers_door using (true);
select is((select count(*)::int from tenant_zonder_hek where tabel = 'app.slordig'), 1,
  'a table with only a permissive policy still lacks the fence');
select is((select count(*)::int from rol_zonder_hek where tabel = 'app.slordig'), 1,
  'and the role of that permissive policy is reported as unfenced');

-- The doors: koers_door is the role policies and grants target and never logs in; each
-- database has a login role that is a member of it (src/db/migrate.ts ensureDoorRole).
-- (A view cannot hold a regrole constant: roles are looked up by name.)
create temp view deur_rollen as
  select r.oid as rol from pg_roles r where r.rolname = 'koers_door'
  union all select m.member from pg_auth_members m join pg_roles r on r.oid = m.roleid where r.rolname = 'koers_door';
create temp view deur_rol_te_machtig as
  select r.rolname::text from pg_roles r join deur_rollen d on d.rol = r.oid
  where r.rolsuper or r.rolbypassrls or r.rolcreaterole or r.rolcreatedb or r.rolreplication
     or exists (select 1 from pg_auth_members m join pg_roles g on g.oid = m.roleid
                where m.member = r.oid and g.rolname <> 'koers_door');
create temp view deur_rol_bezit as
  select c.oid::regclass::text as object from pg_class c join deur_rollen d on d.rol = c.relowner
  union all select p.oid::regprocedure::text from pg_proc p join deur_rollen d on d.rol = p.proowner
  union all select n.nspname::text from pg_namespace n join deur_rollen d on d.rol = n.nspowner
  union all select b.datname::text from pg_database b join deur_rollen d on d.rol = b.datdba;

select is((select rolcanlogin from pg_roles where rolname = 'koers_door'), false, 'koers_door cannot log in');
select ok((select count(*) from deur_rollen) >= 2, 'the doors'' login roles are members of koers_door');
select is_empty('select * from deur_rol_te_machtig',
  'koers_door and its login roles are not superuser, have no BYPASSRLS or REPLICATION, cannot create roles or databases, and are members of nothing else');
select is_empty('select * from deur_rol_bezit', 'koers_door and its login roles own no table, function, schema or database');
select is_empty($$ select d.rol::regrole::text || ' ' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                   cross join deur_rollen d
                   where n.nspname = 'app_private' and c.relkind = 'r'
                     and has_table_privilege(d.rol, c.oid, 'select, insert, update, delete') $$,
  'koers_door and its login roles have no privilege on any table of app_private');
-- The role checks can fail: a login role given too much is caught.
create role tests_slordige_deur login bypassrls createdb in role koers_door, koers_definer;
create table app.slordig_bezit (id int);
alter table app.slordig_bezit owner to tests_slordige_deur;
select results_eq(
  $$ select (select count(*) from deur_rol_te_machtig where rolname = 'tests_slordige_deur')
          + (select count(*) from deur_rol_bezit where object = 'app.slordig_bezit') $$,
  array[2::bigint], 'a login role with BYPASSRLS, another membership or an owned table is reported');
select is_empty($$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                   join pg_language l on l.oid = p.prolang
                   where n.nspname in ('api', 'app_hidden', 'beheer')
                     and (p.prosecdef or l.lanname <> 'sql')
                     and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%') $$,
  'every security-definer and every PL/pgSQL function fixes its search_path');
select is_empty($$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                   where n.nspname in ('api', 'app_hidden', 'beheer') and p.prosecdef
                     and p.proowner <> 'koers_definer'::regrole $$,
  'every security-definer function is owned by koers_definer');
select is_empty($$ select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
                   where n.nspname = 'app_private' and c.relkind = 'r'
                     and has_table_privilege('koers_door', c.oid, 'select, insert, update, delete') $$,
  'koers_door has no privilege on any table of app_private');

select * from finish();
rollback;
