-- What a task's other rows add to it, kept in the transaction of each change so the task
-- definition (app_hidden.def_taken) looks nothing up per task: its booked hours (every
-- member's) and its number of subtasks, in app_private.taak_sommen (a row only for a task that
-- has either). Its tag names are kept on the task itself (tag_namen, db/255_zoektekst.sql).

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
  insert into app_private.taak_sommen as s (org_id, taak_id, besteed_uren, subtaken)
  select t.org_id, t.id,
    coalesce((select sum(u.uren) from app.uren u where u.org_id = t.org_id and u.taak_id = t.id), 0),
    (select count(*) from app.taken c where c.org_id = t.org_id and c.ouder_id = t.id)
  from app.taken t where t.org_id = _org and t.id = any (_taken)
  on conflict (org_id, taak_id) do update
    set besteed_uren = excluded.besteed_uren, subtaken = excluded.subtaken
    where (s.besteed_uren, s.subtaken) is distinct from (excluded.besteed_uren, excluded.subtaken);
end
$$;

-- Every task of an organisation counted again: for data written with the triggers off (the
-- benchmark's data set; its tag names: app_hidden.tag_tekst_bijwerken).
create function app_hidden.taak_sommen_opnieuw(_org uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  insert into app_private.taak_sommen as s (org_id, taak_id, besteed_uren, subtaken)
  select x.org_id, x.taak_id, coalesce(sum(x.uren), 0), count(x.subtaak)
  from (select u.org_id, u.taak_id, u.uren, null::integer as subtaak from app.uren u where u.org_id = _org and u.taak_id is not null
        union all
        select c.org_id, c.ouder_id, null, 1 from app.taken c where c.org_id = _org and c.ouder_id is not null) x
  group by x.org_id, x.taak_id
  on conflict (org_id, taak_id) do update set besteed_uren = excluded.besteed_uren, subtaken = excluded.subtaken;
end
$$;

-- Hours: once per statement, for the tasks whose hours it changed (transition tables).
create function app_hidden.tg_uren__taak_sommen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare r record;
begin
  if tg_op = 'INSERT' then
    for r in select n.org_id, array_agg(distinct n.taak_id) as taken from nieuw n where n.taak_id is not null group by n.org_id loop
      perform app_hidden.taak_sommen_bijwerken(r.org_id, r.taken);
    end loop;
  elsif tg_op = 'DELETE' then
    for r in select o.org_id, array_agg(distinct o.taak_id) as taken from oud o where o.taak_id is not null group by o.org_id loop
      perform app_hidden.taak_sommen_bijwerken(r.org_id, r.taken);
    end loop;
  else
    for r in select x.org_id, array_agg(distinct x.taak_id) as taken
             from (select n.org_id, n.taak_id from nieuw n union all select o.org_id, o.taak_id from oud o) x
             where x.taak_id is not null group by x.org_id loop
      perform app_hidden.taak_sommen_bijwerken(r.org_id, r.taken);
    end loop;
  end if;
  return null;
end
$$;
create trigger _600_taak_sommen_nieuw after insert on app.uren referencing new table as nieuw
  for each statement execute function app_hidden.tg_uren__taak_sommen();
create trigger _600_taak_sommen_gewijzigd after update on app.uren referencing old table as oud new table as nieuw
  for each statement execute function app_hidden.tg_uren__taak_sommen();
create trigger _600_taak_sommen_weg after delete on app.uren referencing old table as oud
  for each statement execute function app_hidden.tg_uren__taak_sommen();

-- Subtasks: a parent's count, once per statement that adds or removes subtasks.
create function app_hidden.tg_taken__subtaken() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare r record;
begin
  if tg_op = 'INSERT' then
    for r in select n.org_id, array_agg(distinct n.ouder_id) as taken from nieuw n where n.ouder_id is not null group by n.org_id loop
      perform app_hidden.taak_sommen_bijwerken(r.org_id, r.taken);
    end loop;
  else
    for r in select o.org_id, array_agg(distinct o.ouder_id) as taken from oud o where o.ouder_id is not null group by o.org_id loop
      perform app_hidden.taak_sommen_bijwerken(r.org_id, r.taken);
    end loop;
  end if;
  return null;
end
$$;
create trigger _600_subtaken_nieuw after insert on app.taken referencing new table as nieuw
  for each statement execute function app_hidden.tg_taken__subtaken();
create trigger _600_subtaken_weg after delete on app.taken referencing old table as oud
  for each statement execute function app_hidden.tg_taken__subtaken();
