-- What a project's tasks and hours add up to, kept in the transaction of each change so the
-- project definition (app_hidden.def_projecten, db/120_projecten.sql) reads one row per project
-- instead of counting each project's open tasks and summing the organisation's hours on every
-- read: `projecten` for the 100 projects of an organisation of 100,000 tasks took 60 to 135 ms.
-- The rules stay those of def_projecten: open tasks are the project's tasks (subtasks too) not
-- deleted and neither voltooid nor vervallen; its hours are those booked on the project and
-- those booked on one of its tasks (once each: an hour names one subject at most).
--
-- Worked out from the rows, never adjusted by a difference, as app_hidden.prioriteit_sommen
-- (db/135_prioriteit_sommen.sql): a project is counted anew whenever one of its tasks or hours
-- changes in a way the count sees. A table of db/, made anew with the code and filled when db/
-- is applied (at the end of db/999_grants.sql). A caller who sees a project sees all its tasks
-- (a task is hidden only with its private project) and the definition counts every member's
-- hours, so the stored sums are what the definition counted under the caller's policies.
create table app_hidden.project_sommen (
  org uuid not null,
  project uuid not null,
  open_taken integer not null,
  uren numeric not null,
  primary key (org, project),
  foreign key (org, project) references app.projecten (org_id, id) on delete cascade
);
revoke all on app_hidden.project_sommen from public;
grant select, insert, update, delete on app_hidden.project_sommen to koers_definer;

-- The sums of the given projects of an organisation. The projects' rows are locked first (in key
-- order), and only then counted, in a statement of its own: under read committed its snapshot
-- sees what another transaction committed while this one waited, so two writers in one project
-- at once both count (as app_hidden.prioriteit_sommen_bijwerken does for a rock).
create function app_hidden.project_sommen_bijwerken(_org uuid, _projecten uuid[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform 1 from app.projecten p where p.org_id = _org and p.id = any (_projecten) order by p.id for no key update;
  insert into app_hidden.project_sommen as s (org, project, open_taken, uren)
  select p.org_id, p.id,
    (select count(*) from app.taken t
     where t.org_id = p.org_id and t.project_id = p.id and t.verwijderd_op is null
       and t.stand not in ('voltooid', 'vervallen'))::integer,
    coalesce((select sum(u.uren) from app.uren u where u.org_id = p.org_id and u.project_id = p.id), 0)
    -- An hour booked on a task names no project (app.uren: one subject at most); the task's
    -- stored sums hold its hours and its project (app_private.taak_sommen, counted before this
    -- in every change of hours, and moved along with the task).
    + coalesce((select sum(s.besteed_uren) from app_private.taak_sommen s
                where s.org_id = p.org_id and s.project_id = p.id), 0)
  from app.projecten p
  where p.org_id = _org and p.id = any (_projecten)
  on conflict (org, project) do update
    set open_taken = excluded.open_taken, uren = excluded.uren
    where (s.open_taken, s.uren) is distinct from (excluded.open_taken, excluded.uren);
end
$$;

-- The triggers that keep these sums, with the tasks' and the rocks' (app.taken and app.uren),
-- and the recount of an organisation (app_hidden.sommen_opnieuw): db/165_taken_sommen.sql.

-- The sums as the project definition reads them: owned by koers_definer and fenced on the
-- caller's organisation once per statement; the definition shows them only for the projects the
-- caller sees.
create view app_hidden.project_sommen_alle as
  select s.org, s.project, s.open_taken, s.uren
  from app_hidden.project_sommen s
  where s.org = (select o.org from app_hidden.mijn_org() o);

alter view app_hidden.project_sommen_alle owner to koers_definer;
grant select on app_hidden.project_sommen_alle to koers_door;
