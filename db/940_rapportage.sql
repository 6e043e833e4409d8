-- Schema rapportage: the warehouse door's read-only views, one per resource, named after the
-- interface's read operation (db/930_warehouse.sql: the logins). Made anew on every apply, like
-- all of db/. Every view is owned by koers_lezer and is no security_invoker view: what is behind
-- it (the definitions app_hidden.def_*, owned by koers_lezer too) is read with koers_lezer's
-- grants, under the doors' read policies, which name koers_lezer (db/950_lezer.sql), for the
-- caller the session resolves to. A login (a member of koers_warehouse) may SELECT these views
-- and nothing else: no table, no definition, no usage on app. Every view is a security_barrier
-- view, so a login's own conditions never see a row before the view's conditions and the
-- policies have passed it. Every view and column carries a COMMENT (db/945);
-- rapportage.woordenboek lists them.

-- What 940 gave the logins before the views were koers_lezer's (the doors' grants on the tables
-- of app and app_hidden, usage on app) is taken back: a grant, unlike the code, outlives a
-- re-apply. The policies are made anew by db/060 and no longer name koers_warehouse.
revoke all on all tables in schema app, app_private from koers_warehouse;
revoke all on schema app, app_private from koers_warehouse;

drop schema if exists rapportage cascade;
create schema rapportage;
revoke all on schema rapportage from public;
grant create on schema rapportage to koers_lezer;  -- while db/ is applied (db/000_schemas.sql)

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

-- The organisation of the warehouse login this session is (session_user), for the planner only.
-- Declared immutable, so PostgreSQL works it out once when it plans a query and estimates the
-- rows of that organisation (the statistics of its own org_id) instead of those of an average
-- one: the organisation is otherwise known only as the policies' init plans run, and for a big
-- organisation a plan made for 200 tasks reads 100,000 by index and builds its hash on the
-- tasks, spilling to disk (rapportage.taken: 14% slower; bench/README.md). It decides nothing:
-- every view also asks the policies and app_hidden.rapportage_zichtbaar, which check the login
-- (revoked, door off, member inactive) and the section at run time, so the condition it adds
-- can only leave rows out that those leave out anyway. A plan kept within a session keeps its
-- value, which is right: a session's login never changes (set session authorization, for
-- superusers only, plans anew; a row-security plan is tied to its user). null for any other
-- session: then a view shows nothing. It reads the login's row as app_hidden.beller_warehouse
-- does (db/030_caller.sql) but none of that function's checks: a revoked login, an inactive
-- member or a door switched off change while a session runs, and a value fixed when a statement
-- was prepared must not carry them; the organisation of a login never changes.
create function app_hidden.rapportage_org() returns uuid
language sql immutable parallel safe security definer set search_path = '' as $$
  select w.org_id from app_private.warehouse_logins w where w.rol_oid = to_regrole(quote_ident(session_user))::oid
$$;

-- A definition that is a function (def_kpi_scorebord) is read through a reader of its own,
-- rapportage.<view>_bron(): PostgreSQL runs (and inlines) a function a view calls as the user
-- who queries the view, whoever owns the view, so the function's tables would be read as the
-- login. The reader is a security-definer SQL function owned by koers_lezer that returns the
-- definition's rows for no argument: the tables are read with koers_lezer's grants
-- (db/950_lezer.sql), under the same policies, for the same caller (the session's), and the
-- figures are still written once, in the definition. Executable by the logins only.
do $$
declare v record; lees text;
begin
  for v in select x.*, app_hidden.rapportage_selectie(x.bron, x.sleutel) as kolommen from app_hidden.rapportage_views() x loop
    if (case when v.bron like '%()' then to_regproc(left(v.bron, -2)) is not null else to_regclass(v.bron) is not null end) then
    -- A definition that changed under its view (a column renamed) leaves that view out with a
    -- warning instead of stopping the migration; sql-tests/310-warehouse.sql fails for it.
    begin
      lees := v.bron;
      if v.bron like '%()' then
        lees := format('rapportage.%I()', v.naam || '_bron');
        execute format('create function %s returns %s language sql stable security definer set search_path = '''' as %L',
                       lees, pg_get_function_result(to_regproc(left(v.bron, -2))), 'select * from ' || v.bron);
        execute format('alter function %s owner to koers_lezer', lees);
        execute format('revoke all on function %s from public', lees);
        execute format('grant execute on function %s to koers_warehouse', lees);
        execute format('comment on function %s is %L', lees,
                       format('The rows of %s for the view rapportage.%s, read as koers_lezer.', v.bron, v.naam));
      end if;
      -- bijgewerkt_op from the table when the definition does not carry it (not a figure).
      if v.tabel is not null and v.sleutel is not null and not (case
           when v.bron like '%()' then exists (select 1 from pg_proc p where p.oid = to_regproc(left(v.bron, -2))
                                               and 'bijgewerkt_op' = any (p.proargnames))
           else exists (select 1 from pg_attribute a where a.attrelid = to_regclass(v.bron) and a.attname = 'bijgewerkt_op') end) then
        execute format('create view rapportage.%I as select %s, t.bijgewerkt_op from %s d join %s t on t.org_id = d.org_id and (%s) '
                       'where (select app_hidden.rapportage_zichtbaar(%L)) and d.org_id = app_hidden.rapportage_org()', v.naam, v.kolommen, lees, v.tabel,
                       (select string_agg(format('t.%1$I = d.%1$I', trim(k)), ' and ') from unnest(string_to_array(v.sleutel, ',')) k),
                       v.operatie);
      else
        execute format('create view rapportage.%I as select %s from %s d where (select app_hidden.rapportage_zichtbaar(%L)) '
                       'and d.org_id = app_hidden.rapportage_org()',
                       v.naam, v.kolommen, lees, v.operatie);
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

-- Every view: owned by koers_lezer (read with its grants, db/950_lezer.sql, under the policies
-- that name it), a security_barrier (a login's own conditions only see rows that passed the
-- view's), readable by the logins.
do $$
declare v record;
begin
  for v in select c.oid::regclass as view from pg_class c where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v' loop
    execute format('alter view %s set (security_barrier = true)', v.view);
    execute format('alter view %s owner to koers_lezer', v.view);
    execute format('grant select on %s to koers_warehouse', v.view);
  end loop;
end
$$;
-- Usage on app_hidden (not on app): PostgreSQL inlines the definitions' figures (SQL functions
-- of app_hidden) as the login, and the policies' helpers run as the login.
grant usage on schema rapportage, app_hidden to koers_warehouse;

-- What the views and the policies behind them call is executed as the login: EXECUTE on the
-- helpers that cannot write (stable and immutable, no trigger functions), the same helpers the
-- doors execute. Nothing volatile (no caller writers, no sign-in writers), no api.*, none of
-- the AI sign-in's look-ups (mcp_*, beller_mcp): a login runs any query it likes, a door only
-- ours. And no definition (def_*): a login reads those through the views only. koers_lezer gets
-- the same helpers and the definitions that are functions too: the readers of this file run as
-- koers_lezer (db/950_lezer.sql), and what a definition calls runs as the session's user except
-- there.
do $$
declare f record;
begin
  for f in
    select p.oid::regprocedure as fn, p.proname from pg_proc p
    where p.pronamespace = 'app_hidden'::regnamespace and p.provolatile in ('s', 'i') and p.prokind = 'f'
      and p.prorettype <> 'trigger'::regtype and p.proname !~ '^(mcp_|beller_mcp$)'
  loop
    execute format('grant execute on function %s to koers_lezer', f.fn);
    if f.proname !~ '^def_' then
      execute format('grant execute on function %s to koers_warehouse', f.fn);
    end if;
  end loop;
end
$$;
