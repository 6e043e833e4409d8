-- Schema rapportage: the warehouse door's read-only views, one per resource, named after the
-- interface's read operation (db/930_warehouse.sql: the logins). Made anew on every apply, like
-- all of db/. Every view is security_invoker: what is behind it is read as the login, a member
-- of koers_warehouse, under the doors' policies, for the caller the session resolves to. A login
-- may name nothing but these views. Every view and column carries a COMMENT (db/945);
-- rapportage.woordenboek lists them.

-- koers_warehouse reads what the doors read, under the same policies: the doors' SELECT grants
-- (whole tables and columns, of app and of the definitions in app_hidden) copied, and its name
-- added to every policy of the doors that reads (the organisation fence included). Written once
-- here, so a grant or policy added for the doors later is the warehouse's too. It has USAGE on
-- app and app_hidden, as the doors do: a security_invoker definition reads its tables as the
-- login, and PostgreSQL parses a SQL function (def_kpi_scorebord) as the login. So a login that
-- names a table of app reads it under the same policies, as its member; never app_private,
-- never a write. db/060_policies.sql
-- makes the policies anew on every apply; the grants are taken back first so one withdrawn from
-- the doors goes here too.
revoke all on all tables in schema app, app_private from koers_warehouse;
revoke all on schema app, app_private from koers_warehouse;
do $$
declare g record;
begin
  for g in
    select c.oid::regclass as tabel, null::text as kolom
    from pg_class c where c.relnamespace in ('app'::regnamespace, 'app_hidden'::regnamespace) and c.relkind in ('r', 'p', 'v')
      and has_table_privilege('koers_door', c.oid, 'select')
    union all
    select c.oid::regclass, a.attname::text
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relnamespace in ('app'::regnamespace, 'app_hidden'::regnamespace) and c.relkind in ('r', 'p', 'v')
      and not has_table_privilege('koers_door', c.oid, 'select')
      and has_column_privilege('koers_door', c.oid, a.attnum, 'select')
  loop
    if g.kolom is null then
      execute format('grant select on %s to koers_warehouse', g.tabel);
    else
      execute format('grant select (%I) on %s to koers_warehouse', g.kolom, g.tabel);
    end if;
  end loop;
  for g in
    select p.polname, p.polrelid::regclass as tabel,
           array(select r::regrole::text from unnest(p.polroles) r) as rollen
    from pg_policy p join pg_class c on c.oid = p.polrelid
    where c.relnamespace in ('app'::regnamespace, 'app_private'::regnamespace)
      and p.polcmd in ('r', '*') and 'koers_door'::regrole = any (p.polroles)
  loop
    execute format('alter policy %I on %s to %s, koers_warehouse', g.polname, g.tabel, array_to_string(g.rollen, ', '));
  end loop;
end
$$;

drop schema if exists rapportage cascade;
create schema rapportage;
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

-- Whether the caller may read what an operation shows: the three conditions api.aanroep checks
-- before a read (db/050_call.sql), for a session without a call: the operation's section is
-- released, its module is on, and the caller's role has a right on it (the organisation's own
-- deviation, else the default). The door switch and the login are checked when the caller is
-- resolved (app_hidden.beller_warehouse). Every view asks it once per query.
create function app_hidden.rapportage_zichtbaar(_operatie text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  b app_hidden.aanroep_start := app_hidden.beller();
  o record;
begin
  if b.org_id is null then return false; end if;
  select x.sectie, x.module into o from app_hidden.operaties_vast() x where x.naam = _operatie;
  return (o.sectie is null or app_hidden.sectie_zichtbaar(o.sectie))
    and coalesce((select (t.modules ->> o.module)::boolean from app_hidden.org_toestand t where t.org = b.org_id), true)
    and app_hidden.recht(b.org_id, b.rol, _operatie) <> 'geen';
end
$$;

-- One view per resource, named after the interface's read operation, reading that resource's
-- set-based definition (app_hidden.def_<resource>, docs/definitions.md) and nothing else: the
-- figures are the ones the REST and MCP answers are built from. A definition holds every row the
-- caller may see, of every quarter, closed and lapsed ones too (the operations filter; a
-- warehouse keeps history). org_id and a stable id lead (app_hidden.rapportage_selectie); where
-- the definition has no id the view's comment names its key. A view is made once its definition exists. Column meanings:
-- db/945_rapportage_woorden.sql.
create function app_hidden.rapportage_views()
returns table (naam text, bron text, operatie text, tabel text, sleutel text, betekenis text)
language sql immutable as $$
  select * from (values
    ('team', 'app_hidden.def_leden', 'team', 'app.lidmaatschappen', 'user_id',
     'Every member of the organisation, inactive ones too (interface: team). Key: (org_id, id); id is the member''s user id.'),
    ('prioriteiten', 'app_hidden.def_prioriteiten', 'prioriteiten', 'app.prioriteiten', 'id',
     'Every priority (rock or OKR) of every quarter, completed ones too (interface: prioriteiten). Key: (org_id, id).'),
    ('kernresultaten', 'app_hidden.def_kernresultaten', 'prioriteiten', 'app.kernresultaten', 'id',
     'Every key result of every OKR (interface: prioriteiten, kernresultaten). Key: (org_id, id).'),
    ('kpi_scorebord', 'app_hidden.def_kpi_scorebord()', 'kpi_scorebord', 'app.kpis', 'id',
     'Every KPI per quarter in which it has a target or a measurement, and the running quarter, each judged as of today (interface: kpi_scorebord). Key: (org_id, id, kwartaal_start).'),
    ('kpi_metingen', 'app_hidden.def_kpi_metingen', 'kpi_scorebord', 'app.kpi_metingen', 'kpi_id, periode',
     'Every measurement of every KPI (interface: kpi_meting_invoeren). Key: (org_id, kpi_id, periode).'),
    ('weektaken', 'app_hidden.def_weektaken', 'weektaken', 'app.weektaken', 'id',
     'Every task on a weekly board, all weeks (interface: weektaken). Key: (org_id, id).'),
    ('taken', 'app_hidden.def_taken', 'taken', 'app.taken', 'id',
     'Every task, done, lapsed and deleted ones too (interface: taken). Key: (org_id, id).'),
    ('taak_geschiedenis', 'app_hidden.def_taak_geschiedenis', 'taak_geschiedenis', null, null,
     'Every history entry of every task, append-only by tijdstip (interface: taak_geschiedenis). Key: (org_id, id).'),
    ('projecten', 'app_hidden.def_projecten', 'projecten', 'app.projecten', 'id',
     'Every project: running, finished and not yet begun (interface: projecten). Key: (org_id, id).'),
    ('reflecties', 'app_hidden.def_reflecties', 'reflecties', 'app.reflecties', 'id',
     'Every reflection (interface: reflecties). Key: (org_id, id).'),
    ('uren', 'app_hidden.def_uren', 'uren', 'app.uren', 'id',
     'Every hour registration (interface: uren). Key: (org_id, id).'),
    ('waardering', 'app_hidden.def_waarderingen', 'waardering', 'app.waarderingen', 'id',
     'Every measured valuation (interface: waardering). Key: (org_id, id).'),
    ('gesprekken', 'app_hidden.def_gesprekken', 'gesprekken', 'app.gesprekken', 'id',
     'Every review conversation (interface: gesprekken). Key: (org_id, id).'),
    ('sessienotities', 'app_hidden.def_sessienotities', 'sessienotities', 'app.sessienotities', 'id',
     'Every session note (interface: sessienotities). Key: (org_id, id).'),
    ('strategie', 'app_hidden.def_strategie', 'strategie_bijwerken', 'app.strategie', null,
     'The strategy canvas, one row, for those who may propose a change (interface: strategie_bijwerken). Key: org_id.')
  ) v (naam, bron, operatie, tabel, sleutel, betekenis)
$$;

-- A view's columns, from its definition's: org_id, then a stable id (the definition's, or its key
-- column named id), then the rest in the definition's order.
create function app_hidden.rapportage_selectie(_bron text, _sleutel text) returns text
language plpgsql stable set search_path = '' as $$
declare kolommen text[];
begin
  if _bron like '%()' then
    select array_agg(k.naam order by k.i) into kolommen
    from pg_catalog.pg_proc p, unnest(p.proargnames, p.proargmodes) with ordinality k (naam, modus, i)
    where p.oid = to_regproc(left(_bron, -2)) and k.modus = 't';
  else
    select array_agg(a.attname::text order by a.attnum) into kolommen
    from pg_catalog.pg_attribute a where a.attrelid = to_regclass(_bron) and a.attnum > 0 and not a.attisdropped;
  end if;
  return concat_ws(', ', 'd.org_id',
    case when 'id' = any (kolommen) then 'd.id'
         when _sleutel is not null and _sleutel !~ ',' then format('d.%I as id', _sleutel) end,
    (select string_agg(format('d.%I', k), ', ' order by i) from unnest(kolommen) with ordinality x (k, i)
     where k not in ('org_id', 'id')));
end
$$;

do $$
declare v record;
begin
  for v in select x.*, app_hidden.rapportage_selectie(x.bron, x.sleutel) as kolommen from app_hidden.rapportage_views() x loop
    if (case when v.bron like '%()' then to_regproc(left(v.bron, -2)) is not null else to_regclass(v.bron) is not null end) then
    -- A definition that changed under its view (a column renamed) leaves that view out with a
    -- warning instead of stopping the migration; sql-tests/310-warehouse.sql fails for it.
    begin
      -- bijgewerkt_op from the table when the definition does not carry it (not a figure).
      if v.tabel is not null and v.sleutel is not null and not (case
           when v.bron like '%()' then exists (select 1 from pg_proc p where p.oid = to_regproc(left(v.bron, -2))
                                               and 'bijgewerkt_op' = any (p.proargnames))
           else exists (select 1 from pg_attribute a where a.attrelid = to_regclass(v.bron) and a.attname = 'bijgewerkt_op') end) then
        execute format('grant select (bijgewerkt_op) on %s to koers_warehouse', v.tabel);
        execute format('create view rapportage.%I as select %s, t.bijgewerkt_op from %s d join %s t on t.org_id = d.org_id and (%s) '
                       'where (select app_hidden.rapportage_zichtbaar(%L))', v.naam, v.kolommen, v.bron, v.tabel,
                       (select string_agg(format('t.%1$I = d.%1$I', trim(k)), ' and ') from unnest(string_to_array(v.sleutel, ',')) k),
                       v.operatie);
      else
        execute format('create view rapportage.%I as select %s from %s d where (select app_hidden.rapportage_zichtbaar(%L))',
                       v.naam, v.kolommen, v.bron, v.operatie);
      end if;
      execute format('comment on view rapportage.%I is %L', v.naam, v.betekenis);
    exception when undefined_column or undefined_table or undefined_function or duplicate_column then
      raise warning 'rapportage.%: not made from %: %', v.naam, v.bron, sqlerrm;
    end;
    end if;
  end loop;
end
$$;

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

-- Every view: security_invoker (read as the login, under the policies), readable by the logins.
do $$
declare v record;
begin
  for v in select c.oid::regclass as view from pg_class c where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v' loop
    execute format('alter view %s set (security_invoker = true)', v.view);
    execute format('grant select on %s to koers_warehouse', v.view);
  end loop;
end
$$;
grant usage on schema rapportage, app, app_hidden to koers_warehouse;

-- What the views and the policies behind them call is executed as the login: EXECUTE on the
-- helpers that cannot write (stable and immutable, no trigger functions), the same helpers the
-- doors execute. Nothing volatile (no caller writers, no sign-in writers), no api.*, and none of
-- the AI sign-in's look-ups (mcp_*, beller_mcp): a login runs any query it likes, a door only ours.
do $$
declare f record;
begin
  for f in
    select p.oid::regprocedure as fn from pg_proc p
    where p.pronamespace = 'app_hidden'::regnamespace and p.provolatile in ('s', 'i') and p.prokind = 'f'
      and p.prorettype <> 'trigger'::regtype and p.proname !~ '^(mcp_|beller_mcp$)'
  loop
    execute format('grant execute on function %s to koers_warehouse', f.fn);
  end loop;
end
$$;
