-- Up Migration
-- What the task definition (app_hidden.def_taken) shows of a task's other rows, kept in the
-- transaction of each change instead of looked up per task on every read (issue 16: all tasks of
-- an organisation through the definition within 2x of a plain select).
-- A task's tag names, sorted as answers show them (kept with tag_tekst by the triggers on
-- app.taak_tags and app.tags, db/255_zoektekst.sql).
alter table app.taken add column tag_namen jsonb not null default '[]';
alter table app.taken disable trigger user;
update app.taken t set tag_namen = x.namen
from (select tt.org_id, tt.taak_id, jsonb_agg(g.naam order by lower(g.naam)) as namen
      from app.taak_tags tt join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
      group by tt.org_id, tt.taak_id) x
where t.org_id = x.org_id and t.id = x.taak_id;
alter table app.taken enable trigger user;

-- A task's booked hours (every member's) and its number of subtasks, for the tasks that have
-- either (db/165_taken_sommen.sql keeps them). Not for the doors: the task definition reads it
-- through a view fenced on the caller's organisation.
create table app_private.taak_sommen (
  org_id uuid not null references app.organisaties on delete cascade,
  taak_id uuid not null,
  besteed_uren numeric not null default 0,
  subtaken integer not null default 0,
  primary key (org_id, taak_id),
  foreign key (org_id, taak_id) references app.taken (org_id, id) on delete cascade
);
insert into app_private.taak_sommen (org_id, taak_id, besteed_uren, subtaken)
select x.org_id, x.taak_id, coalesce(sum(x.uren), 0), count(x.subtaak)
from (select u.org_id, u.taak_id, u.uren, null::integer as subtaak from app.uren u where u.taak_id is not null
      union all
      select s.org_id, s.ouder_id, null, 1 from app.taken s where s.ouder_id is not null) x
group by x.org_id, x.taak_id;

-- Down Migration
drop table app_private.taak_sommen;
alter table app.taken drop column tag_namen;
