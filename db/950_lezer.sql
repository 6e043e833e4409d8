-- koers_lezer (db/930_warehouse.sql): the role the definitions are read as. It owns every
-- definition app_hidden.def_* that is no security-definer view (those of koers_definer read
-- across the caller's limits and fence on the caller themselves: def_personen, def_uren,
-- def_organisaties) and the views of rapportage (db/940_rapportage.sql), none of them
-- security_invoker. So what is behind a definition is read with koers_lezer's SELECT grants,
-- under the doors' read policies and the organisation fence, which name koers_lezer below, for
-- the caller of the session (app_hidden.beller(): a door's call, the app's handelen_namens, a
-- warehouse login). The doors read the same rows as before (the same policies decide, for the
-- same caller); a warehouse login reads the views of rapportage and needs no grant on any table
-- or definition behind them. koers_lezer never logs in, has no BYPASSRLS and writes nothing.

-- The definitions: koers_lezer's, read with its grants (views made anew on every apply, so this
-- runs on every apply too).
do $$
declare v record;
begin
  for v in
    select c.oid::regclass as view from pg_class c
    where c.relnamespace = 'app_hidden'::regnamespace and c.relkind = 'v' and c.relname like 'def\_%'
      and c.relowner <> 'koers_definer'::regrole
  loop
    execute format('alter view %s reset (security_invoker)', v.view);
    execute format('alter view %s owner to koers_lezer', v.view);
  end loop;
end
$$;

-- Every policy of the doors that reads (the organisation fence included) holds for koers_lezer
-- too: what a definition reads passes the same policies as a door's own read. db/060 and the
-- files of each topic make the policies anew on every apply (db/000 drops them), so this runs
-- after all of them. current_user in a policy is still the session's user, not koers_lezer.
do $$
declare g record;
begin
  for g in
    select p.polname, p.polrelid::regclass as tabel,
           array(select r::regrole::text from unnest(p.polroles) r) as rollen
    from pg_policy p join pg_class c on c.oid = p.polrelid
    where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace)
      and p.polcmd in ('r', '*') and 'koers_door'::regrole = any (p.polroles)
      and not 'koers_lezer'::regrole = any (p.polroles)
  loop
    execute format('alter policy %I on %s to %s, koers_lezer', g.polname, g.tabel, array_to_string(g.rollen, ', '));
  end loop;
end
$$;

-- A session that itself reads past row-level security (the app's administrative connection, a
-- superuser; koers_definer in a security-definer function) read the security_invoker definitions
-- without the members' policies. It still does, within the organisation of its caller (the
-- fence is restrictive and stays): beheer.taak_afvinken and the like show a task of a private
-- project, and the app acting as itself (no member: no role, no section) sees its organisation's
-- rows. No door and no login passes this: none is superuser or has BYPASSRLS. Whether the session
-- reads past row-level security is row_security_active(table), false exactly for a superuser or a
-- role with BYPASSRLS (the table's RLS is forced): a look-up in the catalog cache, where reading
-- pg_roles took a scan of pg_authid and three more relation locks per table per statement. Its shape keeps the
-- doors' plans as they were: the organisation condition is written as the doors' policies write
-- it, so the planner takes it out of the OR of the permissive policies (and out of each row's
-- filter), and a comparison with 1 (unlike a bare boolean, guessed true for half the rows) leaves
-- the estimates of the members' policies nearly unchanged. A bare boolean made the planner expect
-- more rows, cross jit_optimize_above_cost and compile every read of def_taken (2x its CPU).
do $$
declare t record;
begin
  for t in
    select distinct p.polrelid::regclass as tabel,
           exists (select 1 from pg_attribute a where a.attrelid = p.polrelid and a.attname = 'org_id' and not a.attisdropped) as org
    from pg_policy p join pg_class c on c.oid = p.polrelid
    where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace)
      and p.polcmd in ('r', '*') and p.polpermissive and 'koers_lezer'::regrole = any (p.polroles)
  loop
    execute format('create policy "sessions past row-level security read the definitions past it" on %s '
                   'for select to koers_lezer using (%s(select case when pg_catalog.row_security_active(%L::pg_catalog.regclass) then 0 else 1 end) = 1)',
                   t.tabel, case when t.org then 'org_id = (select o.org from app_hidden.mijn_org() o) and ' else '' end,
                   t.tabel::text);
  end loop;
end
$$;

-- koers_lezer's grants: SELECT on exactly the columns its views read (the definitions and the
-- views of rapportage, from the catalog's dependencies), on what the definitions that are SQL
-- functions read (the warehouse reads them through a reader koers_lezer owns, db/940), and on
-- what the read policies of those tables read in turn (a policy's subquery is checked as the
-- view's owner). Taken back first: a grant outlives a re-apply, and one no longer needed goes.
revoke all on all tables in schema app, app_private from koers_lezer;
grant usage on schema app, app_hidden to koers_lezer;
do $$
declare
  f record;
  g record;
  n integer := 0;
begin
  -- A definition that is a SQL function records no dependencies: a temporary view over its body
  -- (its parameters null) does.
  for f in
    select p.prosrc,
           (select string_agg(format('null::%s as %I', format_type(t, null), a), ', ')
            from unnest(p.proargtypes::oid[], p.proargnames[1:p.pronargs]) x (t, a)) as parameters
    from pg_proc p join pg_language l on l.oid = p.prolang
    where p.pronamespace = 'app_hidden'::regnamespace and p.proname like 'def\_%' and l.lanname = 'sql'
  loop
    n := n + 1;
    execute format('create temporary view %I as select 1 from (select %s) p cross join lateral (%s) d',
                   'lezer_bron_' || n, coalesce(f.parameters, '1'), f.prosrc);
  end loop;
  for g in
    with recursive bron (rel, kol) as (
      select d.refobjid, d.refobjsubid
      from pg_rewrite r join pg_class v on v.oid = r.ev_class
      join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid and d.refclassid = 'pg_class'::regclass
      where (v.relowner = 'koers_lezer'::regrole or (v.relnamespace = pg_my_temp_schema() and v.relname like 'lezer\_bron\_%'))
        and d.refobjid <> r.ev_class
      union
      select d.refobjid, d.refobjsubid
      from bron b join pg_policy p on p.polrelid = b.rel and p.polcmd in ('r', '*') and 'koers_lezer'::regrole = any (p.polroles)
      join pg_depend d on d.classid = 'pg_policy'::regclass and d.objid = p.oid and d.refclassid = 'pg_class'::regclass
      where d.refobjid <> p.polrelid)
    select b.rel::regclass as tabel, string_agg(quote_ident(a.attname), ', ' order by a.attnum) as kolommen
    from bron b join pg_class c on c.oid = b.rel
    join pg_attribute a on a.attrelid = b.rel and a.attnum = b.kol and not a.attisdropped
    where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace, 'app_hidden'::regnamespace)
      and c.relkind in ('r', 'p', 'v') and c.relowner <> 'koers_lezer'::regrole and b.kol > 0
    group by b.rel
  loop
    execute format('grant select (%s) on %s to koers_lezer', g.kolommen, g.tabel);
  end loop;
  for f in select c.relname from pg_class c where c.relnamespace = pg_my_temp_schema() and c.relname like 'lezer\_bron\_%' loop
    execute format('drop view pg_temp.%I', f.relname);
  end loop;
end
$$;

-- koers_lezer's EXECUTE grants are made with the logins' (db/940_rapportage.sql).

-- The policies read the caller through app_hidden.mijn_org() and the like (db/030_caller.sql):
-- SQL functions inlined into the query, whose view of the current call (app_hidden.beller_nu) is
-- then read as the session's user, whichever view the policy sits behind. A warehouse session
-- has no call (it finds no row there, and the readers fall back on its login's member), but it
-- must be allowed to look. The view shows a backend its own running call's caller only: nothing
-- of any organisation's data.
grant select on app_hidden.beller_nu to koers_warehouse, koers_lezer;
