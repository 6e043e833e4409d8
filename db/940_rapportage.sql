-- Schema rapportage: the warehouse door's read-only views, one per resource, named after the
-- interface's read operation (db/930_warehouse.sql: the logins). Made anew on every apply, like
-- all of db/. Each view is owned by koers_rapportage (no BYPASSRLS, owns no table) and is not
-- security_invoker: the tables behind it are read with the doors' read grants and under the
-- doors' policies, for the caller a warehouse session resolves to. A login holds SELECT on the
-- views and nothing else. Every view and column carries a COMMENT; rapportage.woordenboek lists
-- them.

-- koers_rapportage reads what the doors read, under the same policies: the doors' SELECT grants
-- (whole tables and columns) copied, and its name added to every policy of the doors that reads
-- (the organisation fence included). Written once here, so a grant or policy added for the doors
-- later is the warehouse's too. db/060_policies.sql drops and makes the policies anew on every
-- apply; the grants are taken back first so one withdrawn from the doors goes here too.
revoke all on all tables in schema app, app_private from koers_rapportage;
grant usage on schema app to koers_rapportage;
do $$
declare g record;
begin
  for g in
    select c.oid::regclass as tabel, null::text as kolom
    from pg_class c where c.relnamespace = 'app'::regnamespace and c.relkind in ('r', 'p', 'v')
      and has_table_privilege('koers_door', c.oid, 'select')
    union all
    select c.oid::regclass, a.attname::text
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relnamespace = 'app'::regnamespace and c.relkind in ('r', 'p', 'v')
      and not has_table_privilege('koers_door', c.oid, 'select')
      and has_column_privilege('koers_door', c.oid, a.attnum, 'select')
  loop
    if g.kolom is null then
      execute format('grant select on %s to koers_rapportage', g.tabel);
    else
      execute format('grant select (%I) on %s to koers_rapportage', g.kolom, g.tabel);
    end if;
  end loop;
  for g in
    select p.polname, p.polrelid::regclass as tabel,
           array(select r::regrole::text from unnest(p.polroles) r) as rollen
    from pg_policy p join pg_class c on c.oid = p.polrelid
    where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace)
      and p.polcmd in ('r', '*') and 'koers_door'::regrole = any (p.polroles)
  loop
    execute format('alter policy %I on %s to %s, koers_rapportage', g.polname, g.tabel, array_to_string(g.rollen, ', '));
  end loop;
end
$$;

drop schema if exists rapportage cascade;
create schema rapportage authorization koers_rapportage;
revoke all on schema rapportage from public;

-- The smoke view: whom this session acts for (a warehouse login's member, in its organisation),
-- as the interface's wie_ben_ik answers it. One row, or none for a revoked login or a door that
-- is off.
create view rapportage.wie_ben_ik as
  select b.org_id, b.sleutel_id as id, o.naam as organisatie_naam, b.user_id as gebruiker_user_id,
         a.naam as gebruiker_naam, b.rol, b.door
  from app_hidden.beller() b
  join app.organisaties o on o.org_id = b.org_id
  left join app.accounts a on a.id = b.user_id;
comment on view rapportage.wie_ben_ik is 'Whom this session acts for: the organisation and member of the warehouse login (interface: wie_ben_ik). One row; none when the login is revoked, the member inactive or the warehouse door off.';
comment on column rapportage.wie_ben_ik.org_id is 'The organisation.';
comment on column rapportage.wie_ben_ik.id is 'The warehouse login (koers warehouse list).';
comment on column rapportage.wie_ben_ik.organisatie_naam is 'The organisation''s name.';
comment on column rapportage.wie_ben_ik.gebruiker_user_id is 'The member the login acts for.';
comment on column rapportage.wie_ben_ik.gebruiker_naam is 'That member''s name.';
comment on column rapportage.wie_ben_ik.rol is 'That member''s role: what the login may see follows from it, as for an API key.';
comment on column rapportage.wie_ben_ik.door is 'Always warehouse.';

-- The data dictionary: every view of rapportage and its columns, with type and meaning (from
-- their comments), in column order. The row of a view itself has no column (kolom null).
create view rapportage.woordenboek as
  select c.relname::text as view, null::text as kolom, 0 as positie, null::text as type,
         obj_description(c.oid, 'pg_class') as betekenis
  from pg_catalog.pg_class c
  where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v'
  union all
  select c.relname::text, a.attname::text, a.attnum::integer, pg_catalog.format_type(a.atttypid, a.atttypmod),
         pg_catalog.col_description(c.oid, a.attnum)
  from pg_catalog.pg_class c join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v';
comment on view rapportage.woordenboek is 'The data dictionary: every view of rapportage and its columns, with type and meaning. Its own row per view has no column.';
comment on column rapportage.woordenboek.view is 'The view.';
comment on column rapportage.woordenboek.kolom is 'The column; null on the row about the view itself.';
comment on column rapportage.woordenboek.positie is 'The column''s position in the view (0: the view itself).';
comment on column rapportage.woordenboek.type is 'The column''s PostgreSQL type.';
comment on column rapportage.woordenboek.betekenis is 'What it means.';

-- Every view: owned by koers_rapportage, readable by the logins' group.
do $$
declare v record;
begin
  for v in select c.oid::regclass as view from pg_class c where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v' loop
    execute format('alter view %s owner to koers_rapportage', v.view);
    execute format('grant select on %s to koers_warehouse', v.view);
  end loop;
end
$$;
grant usage on schema rapportage to koers_warehouse;

-- What the views and the policies behind them call is executed as the login: EXECUTE on the
-- helpers that cannot write (stable and immutable, no trigger functions), the same helpers the
-- doors execute. Nothing volatile (no caller writers, no sign-in writers), no api.*.
do $$
declare f record;
begin
  for f in
    select p.oid::regprocedure as fn from pg_proc p
    where p.pronamespace = 'app_hidden'::regnamespace and p.provolatile in ('s', 'i') and p.prokind = 'f'
      and p.prorettype <> 'trigger'::regtype
  loop
    execute format('grant execute on function %s to koers_warehouse', f.fn);
  end loop;
end
$$;
