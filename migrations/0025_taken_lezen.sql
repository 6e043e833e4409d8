-- Up Migration
-- Which private projects are hidden from the caller (app_hidden.verborgen_projecten) is asked
-- once in every query that reads tasks or projects under the doors' policies, several times per
-- read. It read every project of the organisation to find the private ones; with this index it
-- reads only those (a handful), and then probes each as before.
create index projecten_besloten on app.projecten (org_id) include (eigenaar_user_id) where besloten;

-- The subtasks in the private projects hidden from the caller, by parent
-- (app_hidden.taak_verborgen_subtaken): what the task definition takes off a parent's stored
-- count of subtasks, read once per statement. With this index that read touches those subtasks
-- only, not every task of the hidden projects.
create index taken_subtaak_project on app.taken (org_id, project_id, ouder_id)
  where ouder_id is not null and project_id is not null;

-- A subtask's parent's number, kept with the subtask (db/160_taken.sql: set when it is added; a
-- task's number and its parent never change), so the task definition shows it without reading
-- the tasks a second time (bench part 3b: every task through app_hidden.def_taken).
alter table app.taken add column ouder_nummer integer;
alter table app.taken disable trigger user;
update app.taken s set ouder_nummer = o.nummer
from app.taken o where o.org_id = s.org_id and o.id = s.ouder_id;
alter table app.taken enable trigger user;

-- Down Migration
alter table app.taken drop column ouder_nummer;
drop index app.taken_subtaak_project;
drop index app.projecten_besloten;
