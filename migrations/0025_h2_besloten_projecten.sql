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

-- Down Migration
drop index app.taken_subtaak_project;
drop index app.projecten_besloten;
