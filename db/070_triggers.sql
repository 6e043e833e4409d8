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

-- Every tenant table of app but the logs themselves.
do $$
declare t record;
begin
  for t in
    select tabel from app_hidden.tenant_tabellen
    where schema = 'app' and naam not in ('audit_log', 'taak_geschiedenis', 'gebeurtenissen')
  loop
    execute format('create trigger _500_audit after insert or update or delete on %s '
                   'for each row execute function app_hidden.tg__audit()', t.tabel);
  end loop;
end
$$;
