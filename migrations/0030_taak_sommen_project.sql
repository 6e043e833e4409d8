-- Up Migration
-- A task's stored sums (app_private.taak_sommen) name the task's project, so the hours booked on
-- a project's tasks are a sum over the stored sums of that project's tasks with hours
-- (app_hidden.project_sommen_bijwerken, db/115_project_sommen.sql) instead of a read of every
-- task of the project joined with the organisation's hours: on the benchmark's data 1.1 to 1.3
-- ms for a project of 1,000 tasks, at every change of one of its tasks that the sums see (its
-- stand, an hour booked on it). db/165_taken_sommen.sql keeps the column.
alter table app_private.taak_sommen add column project_id uuid;
update app_private.taak_sommen s set project_id = t.project_id
from app.taken t where t.org_id = s.org_id and t.id = s.taak_id and t.project_id is not null;
create index taak_sommen_project on app_private.taak_sommen (org_id, project_id) include (besteed_uren)
  where project_id is not null;

-- Down Migration
drop index app_private.taak_sommen_project;
alter table app_private.taak_sommen drop column project_id;
