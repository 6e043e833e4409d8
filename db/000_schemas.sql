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
create schema beheer;      -- what "the app" does (CLI): nothing granted to the doors

revoke all on schema api, app_hidden, beheer from public;
grant usage on schema app, api, app_hidden to koers_door;
grant usage on schema app, app_private, api, app_hidden to koers_definer;

create type app_hidden.aanroep_start as (
  aanroep_id uuid,      -- the call-log row (null when no organisation could be tied to it)
  org_id uuid,
  user_id uuid,
  rol text,
  sleutel_id uuid,
  door text,
  operatie text,
  schrijft boolean,
  status integer,       -- set when the call is refused before the operation runs
  fout jsonb
);
