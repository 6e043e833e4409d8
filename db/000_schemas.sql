-- Schemas re-created on every apply of db/ (see CONVENTIONS.md). Tables live in app and
-- app_private (migrations/); everything here is code, so it is dropped and made anew.
drop schema if exists api, app_hidden, beheer cascade;
do $$
declare p record;
begin
  for p in select pol.polname, c.oid::regclass as tabel
           from pg_policy pol join pg_class c on c.oid = pol.polrelid
           join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('app', 'app_private')
  loop
    execute format('drop policy %I on %s', p.polname, p.tabel);
  end loop;
end
$$;

create schema api;         -- one function per operation of the interface, plus api.aanroep
create schema app_hidden;  -- helpers, figures, policy helpers: granted, not exposed
create schema beheer;      -- what "the app" does (CLI, workers): nothing granted to the doors

revoke all on schema api, app_hidden, beheer from public;
grant usage on schema app, api, app_hidden to koers_door;
grant usage on schema app, app_private, api, app_hidden to koers_definer;
-- Objects of db/ are handed to koers_definer (and koers_lezer, db/930_warehouse.sql) as they are
-- made: security-definer functions, fenced views. A role that applies db/ without being superuser
-- may do so only when the new owner may create in the schema; that privilege lasts while db/ is
-- applied and is taken back at the end of db/999_grants.sql.
grant create on schema api, app_hidden, beheer to koers_definer;

-- The tenant tables: every table of app and app_private that carries org_id. This is the one
-- definition; forced RLS, the organisation fence, the audit trigger and the catalog tests all
-- read it, so a table added by a migration is covered without being named anywhere.
create view app_hidden.tenant_tabellen as
  select c.oid::regclass as tabel, n.nspname::text as schema, c.relname::text as naam
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ('app', 'app_private') and c.relkind in ('r', 'p')
    and exists (select 1 from pg_attribute a
                where a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped);

-- One door call: who calls (resolved from the credential), what, and, when it is refused
-- before the operation runs, with which status and fout.
create type app_hidden.aanroep_start as (
  aanroep_id uuid,      -- the call-log row (null when no organisation could be tied to it)
  org_id uuid,
  user_id uuid,
  rol text,
  sleutel_id uuid,      -- the credential: an API key (REST) or an access token (MCP)
  door text,
  operatie text,
  schrijft boolean,
  status integer,
  fout jsonb,
  invoer jsonb          -- the input as checked and normalised (app_hidden.invoer_controleren)
);
