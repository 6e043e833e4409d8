-- Up Migration
-- A project's hours booked on the project itself, for the count of its stored sums
-- (app_hidden.project_sommen, db/115_project_sommen.sql), which runs whenever one of its hours or
-- tasks changes: without it each count read every hours row of the organisation.
create index uren_project on app.uren (org_id, project_id) where project_id is not null;

-- Down Migration
drop index app.uren_project;
