-- Up Migration
-- Which private projects a caller works on is asked in every query that reads tasks (the task
-- policy, app_hidden.verborgen_projecten). One of the answers is "owns a task of the project":
-- with the owner in the project index that is one probe per private project, instead of
-- reading every task the caller owns (thousands for a busy person) in every such query. The
-- index still serves every look-up by project, so it replaces the project index.
create index taken_project_eigenaar on app.taken (org_id, project_id, eigenaar_user_id) where project_id is not null;
drop index app.taken_project;

-- Down Migration
create index taken_project on app.taken (org_id, project_id) where project_id is not null;
drop index app.taken_project_eigenaar;
