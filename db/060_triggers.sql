-- Triggers. Named tg_<table>__<task> (or tg__<task> when generic) and ordered by a numeric
-- prefix in the trigger name: _100 timestamps, _500 audit and history, _900 events and jobs.

-- One audit row per changed tenant row, tied to the door call that caused it (null when
-- the app, the CLI or a worker changed it).
create function app_hidden.tg__audit() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  b app_hidden.aanroep_start := app_hidden.beller();
  rij jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
begin
  insert into app.audit_log (org_id, tijdstip, tabel, actie, rij, oud, aanroep_id, user_id)
  values ((rij ->> 'org_id')::uuid, app_hidden.nu(), tg_table_name, tg_op, rij,
          case when tg_op = 'UPDATE' then to_jsonb(old) end, b.aanroep_id, b.user_id);
  return null;
end
$$;

do $$
declare t record;
begin
  for t in
    select c.oid::regclass as tabel
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'app' and c.relkind = 'r'
      and c.relname not in ('audit_log', 'taak_geschiedenis', 'gebeurtenissen')
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'org_id')
  loop
    execute format('create trigger _500_audit after insert or update or delete on %s '
                   'for each row execute function app_hidden.tg__audit()', t.tabel);
  end loop;
end
$$;
