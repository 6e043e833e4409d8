-- The warehouse door: read-only PostgreSQL logins for data warehouses and BI tools, each acting
-- for one member of one organisation, exactly like an API key (same section releases, same
-- rights, its own door switch 'warehouse'). A login reads only the views of schema rapportage
-- (db/940_rapportage.sql).
--
-- koers_warehouse (cluster-wide, like koers_door): no login, no BYPASSRLS, not a member of
-- koers_door (no write grant, no api.*). Every warehouse login is a member of it and of nothing
-- else. It may SELECT the views of rapportage and nothing else: no table or definition of app,
-- app_private or app_hidden, no usage on app. Its search_path is rapportage.
-- koers_lezer (cluster-wide, never logs in, no BYPASSRLS, noinherit) owns the rapportage views
-- and the definitions (app_hidden.def_*) they read, none of them security_invoker: what is behind
-- a view is read with koers_lezer's SELECT grants, under the doors' read policies and the
-- organisation fence, which name koers_lezer too (db/950_lezer.sql), for the caller the session
-- resolves to. So a login reads what an API key of its member reads, and only through the views.
-- Who a session acts for is app_hidden.beller_warehouse() (db/030_caller.sql): the login's role OID in a row of
-- app_private.warehouse_logins that only the app writes. Not the role's name, not a setting.
do $$
declare rol text;
begin
  foreach rol in array array['koers_warehouse', 'koers_lezer'] loop
    begin
      if not exists (select 1 from pg_roles where rolname = rol) then
        execute format('create role %I nologin nosuperuser nocreatedb nocreaterole noinherit nobypassrls noreplication', rol);
      end if;
    exception when duplicate_object or unique_violation then null; -- another database's migrate won
    end;
  end loop;
end
$$;
-- koers_lezer owns definitions and views of app_hidden and rapportage: while db/ is applied
-- (db/000_schemas.sql).
grant create on schema app_hidden to koers_lezer;

-- When a row last changed (migrations/0023_warehouse_bijgewerkt.sql), kept like the tables of search
-- (db/255_zoektekst.sql): the rapportage views carry it for incremental loads.
do $$
declare t text;
begin
  foreach t in array array['app.weektaken', 'app.reflecties', 'app.uren', 'app.waarderingen', 'app.gesprekken',
                           'app.sessienotities', 'app.kernresultaten', 'app.kpi_metingen', 'app.strategie'] loop
    execute format('create trigger _100_bijgewerkt before insert or update on %s '
                   'for each row execute function app_hidden.tg__bijgewerkt()', t);
  end loop;
end
$$;

-- What a login may do, as role settings. statement_timeout and the idle timeouts are defaults a
-- session can change; read-only comes from the grants (a login can write nothing anywhere), the
-- connection limit is enforced by the server. enable_nestloop off: a warehouse reads whole views,
-- and the organisation fence of every policy is a value the planner only learns when the query
-- runs, so it guesses an average organisation (a few hundred rows) and joins by nested loops; for
-- the 100,000 tasks of a large one that took 41 s instead of 0.4 s (bench part 3c). Hash joins
-- suit whole reads and incremental ones alike (77 ms for two days of changes). jit off: a plan
-- that needs a nested loop all the same (the policy helpers' look-ups, a section check) is costed
-- as if it were disabled, far past the JIT thresholds, and was compiled with inlining and
-- optimisation for every such statement (0.5 to 18 ms, once 2.5 s, for a look-up of one row).
create function app_hidden.warehouse_instellingen() returns table (naam text, waarde text)
language sql immutable as $$
  select * from (values ('search_path', 'rapportage'), ('default_transaction_read_only', 'on'),
    ('statement_timeout', '5min'), ('idle_in_transaction_session_timeout', '60s'),
    ('enable_nestloop', 'off'), ('jit', 'off')) v (naam, waarde)
$$;

-- Makes a login for a member. _verifier is a SCRAM-SHA-256 verifier made by the app
-- (src/warehouse/scram.ts): the password itself never reaches SQL text, a log or
-- pg_stat_activity, and anything else is refused. Runs on the administrative connection (role
-- DDL needs CREATEROLE, which no door and no definer has).
create function beheer.warehouse_aanmaken(_org uuid, _user uuid, _verifier text, _limiet integer default 5)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  naam text := 'koers_wh_' || left(replace(gen_random_uuid()::text, '-', ''), 12);
  db text := current_database();
  i record;
  w app_private.warehouse_logins;
begin
  if _verifier is null or _verifier !~ '^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$' then
    perform app_hidden.ongeldig('wachtwoord', 'Geef een SCRAM-SHA-256-verifier, nooit een wachtwoord.');
  end if;
  if _limiet is null or _limiet < 1 or _limiet > 100 then
    perform app_hidden.ongeldig('limiet', 'De limiet is een geheel getal van 1 tot en met 100.');
  end if;
  if not exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user and l.actief) then
    perform app_hidden.ongeldig('user', format('%s is geen actief lid van deze organisatie.', _user));
  end if;
  execute format('create role %I login inherit nosuperuser nocreatedb nocreaterole noreplication nobypassrls '
                 'connection limit %s password %L', naam, _limiet, _verifier);
  execute format('grant koers_warehouse to %I', naam);
  for i in select * from app_hidden.warehouse_instellingen() loop
    execute format('alter role %I in database %I set %s = %L', naam, db, i.naam, i.waarde);
  end loop;
  -- No temporary objects: TEMPORARY is taken from PUBLIC on this database (the doors keep it).
  execute format('revoke temporary on database %I from public', db);
  execute format('grant temporary on database %I to koers_door, koers_definer', db);
  execute format('grant connect on database %I to %I', db, naam);
  insert into app_private.warehouse_logins (org_id, rol_oid, rolnaam, user_id, verbindingen_max, aangemaakt_op)
  values (_org, naam::regrole::oid, naam, _user, _limiet, app_hidden.nu())
  returning * into w;
  return jsonb_build_object('id', w.id, 'org_id', w.org_id, 'user_id', w.user_id, 'gebruiker', w.rolnaam,
                            'verbindingen_max', w.verbindingen_max, 'aangemaakt_op', w.aangemaakt_op);
end
$$;

-- Notes when each login was last seen connected (app_private.warehouse_logins.laatst_gezien_op),
-- from pg_stat_activity on this server. Run by koers warehouse list and the worker's
-- warehouse_watch job.
create function beheer.warehouse_bijhouden() returns integer
language sql volatile set search_path = '' as $$
  with gezien as (
    update app_private.warehouse_logins w set laatst_gezien_op = app_hidden.nu()
    where w.ingetrokken_op is null
      and exists (select 1 from pg_catalog.pg_stat_activity a where a.usesysid = w.rol_oid and a.datname = current_database())
    returning 1)
  select count(*)::integer from gezien
$$;

-- An organisation's logins, newest first: never a password (none is stored).
create function beheer.warehouse_logins(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('id', w.id, 'gebruiker', w.rolnaam, 'user_id', w.user_id, 'naam', a.naam, 'email', a.email,
    'verbindingen_max', w.verbindingen_max, 'aangemaakt_op', w.aangemaakt_op, 'laatst_gezien_op', w.laatst_gezien_op,
    'ingetrokken_op', w.ingetrokken_op,
    'verbindingen', case when w.ingetrokken_op is null then
      (select count(*) from pg_catalog.pg_stat_activity x where x.usesysid = w.rol_oid and x.datname = current_database())
      else 0 end)
  from app_private.warehouse_logins w
  join app.accounts a on a.id = w.user_id
  where w.org_id = _org
  order by w.aangemaakt_op desc, w.id
$$;

-- Ends a login: from this commit it resolves to no caller, its role loses the rapportage grants
-- and may not log in, its open sessions are ended (so their next query is refused), and the
-- role is dropped. The row stays, for the list.
create function beheer.warehouse_intrekken(_id uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare w app_private.warehouse_logins;
begin
  update app_private.warehouse_logins x set ingetrokken_op = coalesce(x.ingetrokken_op, app_hidden.nu())
  where x.id = _id returning * into w;
  if w.id is null then
    perform app_hidden.ongeldig('id', format('Warehouse-login %s bestaat niet.', _id));
  end if;
  if exists (select 1 from pg_catalog.pg_roles r where r.oid = w.rol_oid and r.rolname = w.rolnaam) then
    execute format('alter role %I nologin', w.rolnaam);
    execute format('revoke koers_warehouse from %I', w.rolnaam);
    execute format('revoke connect on database %I from %I', current_database(), w.rolnaam);
    perform pg_catalog.pg_terminate_backend(a.pid) from pg_catalog.pg_stat_activity a where a.usesysid = w.rol_oid;
    execute format('drop role %I', w.rolnaam);
  end if;
  return jsonb_build_object('id', w.id, 'org_id', w.org_id, 'gebruiker', w.rolnaam, 'ingetrokken_op', w.ingetrokken_op);
end
$$;
