-- What a task's other rows add to it, kept in the transaction of each change so the task
-- definition (app_hidden.def_taken) looks nothing up per task: its booked hours (every
-- member's) and its number of subtasks, in app_private.taak_sommen (a row only for a task that
-- has either), with the task's project, so a project's sums add up its tasks' hours from those
-- rows (app_hidden.project_sommen_bijwerken). Its tag names are kept on the task itself
-- (tag_namen, db/255_zoektekst.sql).

-- Counts the hours and subtasks of the given tasks again. The tasks' rows are locked first (in
-- key order, so two such statements never wait on each other crosswise), and only then counted,
-- in a statement of its own: under read committed its snapshot sees what another transaction
-- committed while this one waited for the lock, so two writers booking hours on one task at
-- once both count. Counting, rather than adding the change, gives the same total as a sum over
-- the hours would (also its number of decimals after a deletion).
create function app_hidden.taak_sommen_bijwerken(_org uuid, _taken uuid[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform 1 from app.taken t where t.org_id = _org and t.id = any (_taken) order by t.id for no key update;
  insert into app_private.taak_sommen as s (org_id, taak_id, besteed_uren, subtaken, project_id)
  select t.org_id, t.id,
    coalesce((select sum(u.uren) from app.uren u where u.org_id = t.org_id and u.taak_id = t.id), 0),
    (select count(*) from app.taken c where c.org_id = t.org_id and c.ouder_id = t.id),
    t.project_id
  from app.taken t where t.org_id = _org and t.id = any (_taken)
  on conflict (org_id, taak_id) do update
    set besteed_uren = excluded.besteed_uren, subtaken = excluded.subtaken, project_id = excluded.project_id
    where (s.besteed_uren, s.subtaken, s.project_id) is distinct from (excluded.besteed_uren, excluded.subtaken, excluded.project_id);
end
$$;

-- Every task of an organisation counted again: for data written with the triggers off (the
-- benchmark's data set; its tag names: app_hidden.tag_tekst_bijwerken).
create function app_hidden.taak_sommen_opnieuw(_org uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  insert into app_private.taak_sommen as s (org_id, taak_id, besteed_uren, subtaken, project_id)
  select x.org_id, x.taak_id, coalesce(sum(x.uren), 0), count(x.subtaak), t.project_id
  from (select u.org_id, u.taak_id, u.uren, null::integer as subtaak from app.uren u where u.org_id = _org and u.taak_id is not null
        union all
        select c.org_id, c.ouder_id, null, 1 from app.taken c where c.org_id = _org and c.ouder_id is not null) x
  join app.taken t on t.org_id = x.org_id and t.id = x.taak_id
  group by x.org_id, x.taak_id, t.project_id
  on conflict (org_id, taak_id) do update
    set besteed_uren = excluded.besteed_uren, subtaken = excluded.subtaken, project_id = excluded.project_id;
end
$$;

-- Every rock's and project's sums of an organisation counted again (tables of db/, made anew
-- with the code): when db/ is applied (db/999_grants.sql), and for data written with the
-- triggers off (the benchmarks' data sets, which also call app_hidden.taak_sommen_opnieuw).
-- First the project each task's stored sums name, which the projects' hours add up: a row
-- written by the code before migration 0030 while the migration ran has none.
create function app_hidden.sommen_opnieuw(_org uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app_private.taak_sommen s set project_id = t.project_id
  from app.taken t
  where s.org_id = _org and t.org_id = s.org_id and t.id = s.taak_id and s.project_id is distinct from t.project_id;
  perform app_hidden.prioriteit_sommen_bijwerken(_org, array(select p.id from app.prioriteiten p where p.org_id = _org));
  perform app_hidden.project_sommen_bijwerken(_org, array(select p.id from app.projecten p where p.org_id = _org));
end
$$;

-- The triggers of every stored sum: a task's hours and subtasks (here), a rock's tasks
-- (app_hidden.prioriteit_sommen, db/135_prioriteit_sommen.sql) and a project's open tasks and
-- hours (app_hidden.project_sommen, db/115_project_sommen.sql). One trigger per statement and
-- event recounts all of them, locking tasks before priorities before projects, as an update
-- of a task does (its row, then its triggers).

-- Added and removed tasks: their parents, their priorities and their projects (transition
-- tables, which exist only for their own event: one query each).
create function app_hidden.tg_taken__sommen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare r record;
begin
  if tg_op = 'INSERT' then
    for r in select n.org_id, array_agg(distinct n.ouder_id) filter (where n.ouder_id is not null) as ouders,
                    array_agg(distinct n.prioriteit_id) filter (where n.prioriteit_id is not null) as prioriteiten,
                    array_agg(distinct n.project_id) filter (where n.project_id is not null) as projecten
             from nieuw n group by n.org_id loop
      perform app_hidden.sommen_van_taken(r.org_id, r.ouders, r.prioriteiten, r.projecten);
    end loop;
  else
    for r in select o.org_id, array_agg(distinct o.ouder_id) filter (where o.ouder_id is not null) as ouders,
                    array_agg(distinct o.prioriteit_id) filter (where o.prioriteit_id is not null) as prioriteiten,
                    array_agg(distinct o.project_id) filter (where o.project_id is not null) as projecten
             from oud o group by o.org_id loop
      perform app_hidden.sommen_van_taken(r.org_id, r.ouders, r.prioriteiten, r.projecten);
    end loop;
  end if;
  return null;
end
$$;

-- What tasks added or removed change: the subtask counts of their parents, the sums of their
-- rocks and of their projects (null: none).
create function app_hidden.sommen_van_taken(_org uuid, _ouders uuid[], _prioriteiten uuid[], _projecten uuid[])
returns void language plpgsql volatile security definer set search_path = '' as $$
begin
  if _ouders is not null then perform app_hidden.taak_sommen_bijwerken(_org, _ouders); end if;
  if _prioriteiten is not null then perform app_hidden.prioriteit_sommen_bijwerken(_org, _prioriteiten); end if;
  if _projecten is not null then perform app_hidden.project_sommen_bijwerken(_org, _projecten); end if;
end
$$;
create trigger _600_sommen_nieuw after insert on app.taken referencing new table as nieuw
  for each statement execute function app_hidden.tg_taken__sommen();
create trigger _600_sommen_weg after delete on app.taken referencing old table as oud
  for each statement execute function app_hidden.tg_taken__sommen();

-- Changed tasks: only a change a count sees, for what the task was under and what it is under
-- now: its rock (priority, parent, stand, deletion, estimate, size) or its project (project,
-- stand, deletion; its hours move with it). Row by row with a condition PostgreSQL checks
-- without calling anything, so a change of a title or a deadline costs nothing here. The
-- argument names the sums: prioriteit or project.
create function app_hidden.tg_taken__sommen_gewijzigd() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if tg_argv[0] = 'prioriteit' then
    perform app_hidden.prioriteit_sommen_bijwerken(new.org_id,
      array(select distinct x from unnest(array[old.prioriteit_id, new.prioriteit_id]) x where x is not null));
  else
    -- A task that moves takes its hours along: its stored sums name its new project first.
    if old.project_id is distinct from new.project_id then
      update app_private.taak_sommen s set project_id = new.project_id
      where s.org_id = new.org_id and s.taak_id = new.id;
    end if;
    perform app_hidden.project_sommen_bijwerken(new.org_id,
      array(select distinct x from unnest(array[old.project_id, new.project_id]) x where x is not null));
  end if;
  return null;
end
$$;
create trigger _600_prioriteit_sommen_gewijzigd
  after update of prioriteit_id, ouder_id, stand, verwijderd_op, inschatting_uren, grootte on app.taken
  for each row
  when ((old.prioriteit_id is not null or new.prioriteit_id is not null)
        and (old.prioriteit_id, old.ouder_id, old.stand, old.verwijderd_op, old.inschatting_uren, old.grootte)
            is distinct from (new.prioriteit_id, new.ouder_id, new.stand, new.verwijderd_op, new.inschatting_uren, new.grootte))
  execute function app_hidden.tg_taken__sommen_gewijzigd('prioriteit');
create trigger _610_project_sommen_gewijzigd
  after update of project_id, stand, verwijderd_op on app.taken
  for each row
  when ((old.project_id is not null or new.project_id is not null)
        and (old.project_id, old.stand, old.verwijderd_op) is distinct from (new.project_id, new.stand, new.verwijderd_op))
  execute function app_hidden.tg_taken__sommen_gewijzigd('project');

-- Hours booked, changed or removed: the hours of their tasks, and of their projects (directly or
-- through the task), once per statement (one query per event, as above).
create function app_hidden.tg_uren__sommen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare r record;
begin
  if tg_op = 'INSERT' then
    for r in select n.org_id, array_agg(distinct n.taak_id) filter (where n.taak_id is not null) as taken,
                    array_agg(distinct n.project_id) filter (where n.project_id is not null) as projecten
             from nieuw n group by n.org_id loop
      perform app_hidden.sommen_van_uren(r.org_id, r.taken, r.projecten);
    end loop;
  elsif tg_op = 'DELETE' then
    for r in select o.org_id, array_agg(distinct o.taak_id) filter (where o.taak_id is not null) as taken,
                    array_agg(distinct o.project_id) filter (where o.project_id is not null) as projecten
             from oud o group by o.org_id loop
      perform app_hidden.sommen_van_uren(r.org_id, r.taken, r.projecten);
    end loop;
  else
    for r in select x.org_id, array_agg(distinct x.taak_id) filter (where x.taak_id is not null) as taken,
                    array_agg(distinct x.project_id) filter (where x.project_id is not null) as projecten
             from (select n.org_id, n.taak_id, n.project_id from nieuw n
                   union all select o.org_id, o.taak_id, o.project_id from oud o) x
             group by x.org_id loop
      perform app_hidden.sommen_van_uren(r.org_id, r.taken, r.projecten);
    end loop;
  end if;
  return null;
end
$$;

-- What hours booked on these tasks and projects change: the tasks' hours, and the hours of the
-- projects they are booked on, directly or through one of the tasks (null: none).
create function app_hidden.sommen_van_uren(_org uuid, _taken uuid[], _projecten uuid[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare projecten uuid[];
begin
  if _taken is not null then perform app_hidden.taak_sommen_bijwerken(_org, _taken); end if;
  projecten := array(select x from unnest(_projecten) x
                     union
                     select t.project_id from app.taken t where t.org_id = _org and t.id = any (_taken) and t.project_id is not null);
  if cardinality(projecten) > 0 then perform app_hidden.project_sommen_bijwerken(_org, projecten); end if;
end
$$;
create trigger _600_sommen_nieuw after insert on app.uren referencing new table as nieuw
  for each statement execute function app_hidden.tg_uren__sommen();
create trigger _600_sommen_gewijzigd after update on app.uren referencing old table as oud new table as nieuw
  for each statement execute function app_hidden.tg_uren__sommen();
create trigger _600_sommen_weg after delete on app.uren referencing old table as oud
  for each statement execute function app_hidden.tg_uren__sommen();
