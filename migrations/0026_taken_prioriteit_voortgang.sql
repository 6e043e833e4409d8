-- Up Migration
-- A rock's progress (app_hidden.def_prioriteiten, db/140_prioriteiten.sql) weighs the tasks
-- directly under it that count: not a subtask, not deleted, not vervallen. This index holds
-- exactly those, with every column the progress and the doors' read policy of app.taken read
-- (stand, estimate, size; project_id for the policy), so `prioriteiten` reads them from the index
-- alone (an index-only scan) instead of fetching each task's row: about 95 tasks per rock, 40
-- priorities a quarter in the benchmark.
create index taken_prioriteit_voortgang on app.taken (org_id, prioriteit_id)
  include (stand, inschatting_uren, grootte, project_id)
  where prioriteit_id is not null and ouder_id is null and verwijderd_op is null and stand <> 'vervallen';

-- Down Migration
drop index app.taken_prioriteit_voortgang;
