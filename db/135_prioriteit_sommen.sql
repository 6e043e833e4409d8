-- What a rock's tasks add up to, kept in the transaction of each change so the priority
-- definition (app_hidden.def_prioriteiten, db/140_prioriteiten.sql) reads one row per priority
-- instead of weighing each of its tasks on every read: a quarter's 40 priorities weighed about
-- 2,800 tasks on every `prioriteiten` answer. The rule stays that of def_prioriteiten: the tasks
-- directly under the priority (a subtask counts inside its parent), not deleted, not vervallen,
-- each weighing app_hidden.taak_gewicht.
--
-- Worked out from the tasks, never adjusted by a difference: a row is counted anew from the tasks
-- of its priority whenever one of them changes in a way the count sees, so it is exactly what a
-- count over the tasks gives (the same sums, to the last decimal). A table of db/, made anew with
-- the code and filled from the tasks when db/ is applied (at the end of db/999_grants.sql): the
-- hours of a size come from the reference data, which changes only with an apply of db/. Keyed
-- by org like app_hidden.org_toestand: no tenant table, only definers read it, and the
-- definition through a view fenced on the caller's organisation.
create table app_hidden.prioriteit_sommen (
  org uuid not null,
  prioriteit uuid not null,
  aantal integer not null,         -- the tasks that count
  klaar integer not null,          -- of those, voltooid
  gewicht numeric not null,        -- their weight
  gewicht_klaar numeric not null,  -- the weight of those voltooid
  primary key (org, prioriteit),
  foreign key (org, prioriteit) references app.prioriteiten (org_id, id) on delete cascade
);
revoke all on app_hidden.prioriteit_sommen from public;
grant select, insert, update, delete on app_hidden.prioriteit_sommen to koers_definer;

-- The sums of the given priorities of an organisation, from their tasks. The priorities' rows are locked first (in key order, so two
-- such statements never wait on each other crosswise), and only then counted, in a statement of
-- its own: under read committed its snapshot sees what another transaction committed while this
-- one waited for the lock, so two writers changing tasks of one rock at once both count (as
-- app_hidden.taak_sommen_bijwerken does for a task's hours).
create function app_hidden.prioriteit_sommen_bijwerken(_org uuid, _prioriteiten uuid[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform 1 from app.prioriteiten p where p.org_id = _org and p.id = any (_prioriteiten) order by p.id for no key update;
  insert into app_hidden.prioriteit_sommen as s (org, prioriteit, aantal, klaar, gewicht, gewicht_klaar)
  select p.org_id, p.id, count(t.stand), count(t.stand) filter (where t.stand = 'voltooid'),
         coalesce(sum(t.gewicht), 0), coalesce(sum(t.gewicht) filter (where t.stand = 'voltooid'), 0)
  from app.prioriteiten p
  left join lateral (
    select x.stand, app_hidden.taak_gewicht(x.inschatting_uren, app_hidden.grootte_uren(x.grootte)) as gewicht
    from app.taken x
    where x.org_id = p.org_id and x.prioriteit_id = p.id and x.ouder_id is null
      and x.stand <> 'vervallen' and x.verwijderd_op is null) t on true
  where p.org_id = _org and p.id = any (_prioriteiten)
  group by p.org_id, p.id
  on conflict (org, prioriteit) do update
    set aantal = excluded.aantal, klaar = excluded.klaar, gewicht = excluded.gewicht, gewicht_klaar = excluded.gewicht_klaar
    where (s.aantal, s.klaar, s.gewicht, s.gewicht_klaar)
          is distinct from (excluded.aantal, excluded.klaar, excluded.gewicht, excluded.gewicht_klaar);
end
$$;

-- The triggers that keep these sums, with the tasks' and the projects' (app.taken), and the
-- recount of an organisation (app_hidden.sommen_opnieuw): db/165_taken_sommen.sql.

-- The sums as the priority definition reads them: owned by koers_definer and fenced on the
-- caller's organisation once per statement; the definition shows them only for the priorities
-- the caller sees.
create view app_hidden.prioriteit_sommen_alle as
  select s.org, s.prioriteit, s.aantal, s.klaar, s.gewicht, s.gewicht_klaar
  from app_hidden.prioriteit_sommen s
  where s.org = (select o.org from app_hidden.mijn_org() o);

alter view app_hidden.prioriteit_sommen_alle owner to koers_definer;
grant select on app_hidden.prioriteit_sommen_alle to koers_door;
