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

-- Every tenant table of app but the logs themselves. Tasks are not audited in the trial run of a
-- proposal (koers.proef, see api.aanroep), which is rolled back: a task written under that flag
-- and kept fails at commit (_950_proef, db/163_taken_history_events.sql).
do $$
declare t record;
begin
  for t in
    select tabel, naam from app_hidden.tenant_tabellen
    where schema = 'app' and naam not in ('audit_log', 'taak_geschiedenis', 'gebeurtenissen')
  loop
    execute format('create trigger _500_audit after insert or update or delete on %s for each row %s'
                   'execute function app_hidden.tg__audit()', t.tabel,
                   case when t.naam = 'taken' then 'when (current_setting(''koers.proef'', true) is distinct from ''ja'') ' else '' end);
  end loop;
end
$$;

-- Background jobs (graphile-worker) are queued from SQL, by triggers of a door's write that run
-- as koers_definer, in the transaction of the change: they commit or vanish together.
grant usage on schema graphile_worker to koers_definer;
grant select, insert, update on graphile_worker._private_jobs, graphile_worker._private_tasks,
  graphile_worker._private_job_queues to koers_definer;
grant usage on all sequences in schema graphile_worker to koers_definer;
grant execute on function graphile_worker.add_job(text, json, text, timestamptz, integer, text, integer, text[], text)
  to koers_definer;

-- The one trigger function that queues jobs: tg_argv[0] is the task, tg_argv[1] (optional) the
-- column holding when it is due. The row's id is the job key, so a job queued again for the
-- same row replaces the waiting one (a retry, a redelivery) instead of adding a second.
create function app_hidden.tg__job() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  rij jsonb := to_jsonb(new);
begin
  perform graphile_worker.add_job(tg_argv[0],
    json_build_object('org_id', rij -> 'org_id', 'id', rij -> 'id'),
    run_at => coalesce((rij ->> tg_argv[1])::timestamptz, app_hidden.nu()),
    job_key => tg_argv[0] || ':' || (rij ->> 'id'));
  return null;
end
$$;
