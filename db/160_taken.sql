-- Tasks: under a priority, in a project, or loose; subtasks one layer deep; repetition; tags.
-- This file: how a task is shown, and the reads (taken, taak_geschiedenis). History and events
-- are written by triggers (163_taken_history_events.sql), the writes are in 166_taken_writes.sql.

-- Single-value helpers of the triggers and the writes (one call per change, never per row read).
create function app_hidden.taak_tags(_org uuid, _taak uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((select jsonb_agg(t.naam order by lower(t.naam))
                   from app.taak_tags tt join app.tags t on t.org_id = tt.org_id and t.id = tt.tag_id
                   where tt.org_id = _org and tt.taak_id = _taak and app_hidden.eigen_org(_org)), '[]');
end
$$;

-- What a task belongs to: {soort, id, titel}, or soort 'los'.
create function app_hidden.taak_onderdeel(_org uuid, _prioriteit uuid, _project uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) then return null; end if;
  if _prioriteit is not null then
    return (select jsonb_build_object('soort', 'prioriteit', 'id', p.id, 'titel', p.titel)
            from app.prioriteiten p where p.org_id = _org and p.id = _prioriteit);
  elsif _project is not null then
    return (select jsonb_build_object('soort', 'project', 'id', p.id, 'titel', p.titel)
            from app.projecten p where p.org_id = _org and p.id = _project);
  end if;
  return jsonb_build_object('soort', 'los');
end
$$;

-- A task's booked hours (every member's) and its number of subtasks (app_private.taak_sommen,
-- kept by db/165_taken_sommen.sql), for def_taken. Owned by koers_definer and fenced on the
-- caller's organisation once per statement; def_taken shows them only for the tasks the caller
-- sees.
create view app_hidden.taak_sommen_alle as
  select s.org_id, s.taak_id, s.besteed_uren, s.subtaken
  from app_private.taak_sommen s
  where s.org_id = (select o.org from app_hidden.mijn_org() o);

alter view app_hidden.taak_sommen_alle owner to koers_definer;
grant select on app_hidden.taak_sommen_alle to koers_door;

-- The subtasks the caller may not see (those of the private projects hidden from the caller,
-- app_hidden.verborgen_projecten), by parent: what def_taken takes off a parent's stored count.
-- Owned by koers_definer and fenced on the caller's organisation; def_taken reads it as one
-- array, an init plan, and only when a task with subtasks is read while some private project is
-- hidden from the caller.
create view app_hidden.taak_verborgen_subtaken as
  select s.org_id, s.ouder_id
  from app.taken s
  where s.org_id = (select o.org from app_hidden.mijn_org() o) and s.ouder_id is not null
    and s.project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[]);

alter view app_hidden.taak_verborgen_subtaken owner to koers_definer;
grant select on app_hidden.taak_verborgen_subtaken to koers_door;

-- The tasks the caller may not see (in a private project hidden from the caller) that are
-- parents of a subtask the caller may see: a subtask stays where it was when an import moves its
-- parent. def_taken shows no parent's number for their subtasks. Read as one array, an init
-- plan, only when a subtask is read; owned by koers_definer and fenced on the caller's
-- organisation like taak_verborgen_subtaken. "offset 0" keeps the subtask check a probe per
-- task of a hidden project (taken_ouder), not a read of every subtask of the organisation; no
-- join, so no nested loop (a warehouse login plans with enable_nestloop off, and a plan that
-- needs one anyway costs enough to be compiled by JIT: seconds).
create view app_hidden.taak_verborgen_ouders as
  select p.org_id, p.id
  from app.taken p
  where p.org_id = (select o.org from app_hidden.mijn_org() o)
    and p.project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[])
    and exists (select 1 from app.taken s where s.org_id = p.org_id and s.ouder_id = p.id
                  and (s.project_id is null or not s.project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[]))
                offset 0);

alter view app_hidden.taak_verborgen_ouders owner to koers_definer;
grant select on app_hidden.taak_verborgen_ouders to koers_door;

-- A subtask's parent's number, kept with the subtask (app.taken.ouder_nummer, migration 0025)
-- when it is added: a task's number and its parent never change.
create function app_hidden.tg_taken__ouder_nummer() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  new.ouder_nummer := (select o.nummer from app.taken o where o.org_id = new.org_id and o.id = new.ouder_id);
  return new;
end
$$;
create trigger _100_ouder_nummer before insert or update of ouder_id on app.taken
  for each row execute function app_hidden.tg_taken__ouder_nummer();

-- The task definition: every task the caller may see (also done, lapsed and deleted ones), with
-- every figure, one row per task. Under the caller's RLS: made security_invoker here, then given to
-- koers_lezer by db/950_lezer.sql, whose read policies are the doors' and read the session's
-- caller. What a task's other rows add is kept with the task (its tag names, app.taken.tag_namen)
-- or beside it (its hours, counting every member's, and how many subtasks it has:
-- taak_sommen_alle), so a read of many tasks looks nothing up per task. A subtask's parent's number
-- is kept with the subtask (ouder_nummer), shown unless the parent is hidden from the caller
-- (app_hidden.taak_verborgen_ouders, one array per statement, read only when a subtask is read). A
-- parent shows the subtasks the caller sees: the stored count, less those in a private project
-- hidden from the caller (app_hidden.taak_verborgen_subtaken, one array per statement, read only
-- when some private project is hidden). No subquery per row: a subplan runs per row, and it keeps
-- the definition from being read by a parallel query (every expression of it must be one a worker
-- can run; the policy helpers' init plans the leader runs and hands over). The reads (taken, the
-- writes' results, zoeken) filter, order and shape it; the warehouse reads it as it is.
create view app_hidden.def_taken with (security_invoker = true) as
  select t.org_id, t.id, t.nummer, t.omschrijving, t.toelichting,
    case when t.prioriteit_id is not null then 'prioriteit' when t.project_id is not null then 'project' else 'los' end
      as hoort_bij_soort,
    coalesce(t.prioriteit_id, t.project_id) as hoort_bij_id,
    case when t.prioriteit_id is not null then pr.titel else pj.titel end as hoort_bij_titel,
    t.prioriteit_id, t.project_id, t.ouder_id,
    t.eigenaar_user_id, pe.naam as eigenaar_naam,
    t.aangemaakt_door as aangemaakt_door_user_id, pa.naam as aangemaakt_door_naam,
    app_hidden.stand_lezen(t.stand) as stand, t.stand as stand_waarde,
    t.deadline, t.week, t.urgentie,
    t.tag_namen as tags,
    b.naam as brand_label,
    t.grootte,
    case when t.inschatting_uren is not null or t.grootte is not null
         then app_hidden.taak_gewicht(t.inschatting_uren, app_hidden.grootte_uren(t.grootte)) end as inschatting_uren,
    app_hidden.taak_gewicht(t.inschatting_uren, app_hidden.grootte_uren(t.grootte)) as gewicht,
    coalesce(so.besteed_uren, 0) as besteed_uren,
    t.herhalen,
    case when t.ouder_id is not null
          and not t.ouder_id = any ((select array(select v.id from app_hidden.taak_verborgen_ouders v))::uuid[])
         then t.ouder_nummer end as onder_taak_nummer,
    (coalesce(so.subtaken, 0)
     - case when so.subtaken > 0 and cardinality((select v.ids from app_hidden.mijn_verborgen() v)) > 0
            then coalesce(cardinality(array_positions(
                   (select array(select v.ouder_id from app_hidden.taak_verborgen_subtaken v)), t.id)), 0)
            else 0 end)::bigint as subtaken,
    t.afgerond_op, t.verwijderd_op, t.aangemaakt_op, t.bijgewerkt_op
  from app.taken t
  left join app.prioriteiten pr on pr.org_id = t.org_id and pr.id = t.prioriteit_id
  left join app.projecten pj on pj.org_id = t.org_id and pj.id = t.project_id
  left join app_hidden.def_personen pe on pe.org_id = t.org_id and pe.user_id = t.eigenaar_user_id
  left join app_hidden.def_personen pa on pa.org_id = t.org_id and pa.user_id = t.aangemaakt_door
  left join app.brand_labels b
    on b.org_id = t.org_id and b.id = coalesce(t.brand_label_id, pr.brand_label_id, pj.brand_label_id)
  left join app_hidden.taak_sommen_alle so on so.org_id = t.org_id and so.taak_id = t.id;

grant select on app_hidden.def_taken to koers_door, koers_definer;

-- A task as every answer shows it, from a row of def_taken.
create view app_hidden.taak_weergaven with (security_invoker = true) as
  select d.org_id, d.id, d.nummer, d.deadline, d.stand_waarde, d.verwijderd_op, d.prioriteit_id, d.project_id,
    d.eigenaar_user_id, d.week, d.hoort_bij_soort,
    jsonb_build_object(
      'id', d.id, 'nummer', d.nummer, 'omschrijving', d.omschrijving, 'toelichting', d.toelichting,
      'hoort_bij', case when d.hoort_bij_soort = 'los' then jsonb_build_object('soort', 'los')
                        when d.hoort_bij_titel is not null
                        then jsonb_build_object('soort', d.hoort_bij_soort, 'id', d.hoort_bij_id, 'titel', d.hoort_bij_titel) end,
      'eigenaar', app_hidden.persoon_weergave(d.eigenaar_user_id, d.eigenaar_naam),
      'aangemaakt_door', app_hidden.persoon_weergave(d.aangemaakt_door_user_id, d.aangemaakt_door_naam),
      'stand', d.stand, 'deadline', d.deadline, 'week', d.week, 'urgentie', d.urgentie,
      'tags', d.tags, 'brand_label', d.brand_label, 'grootte', d.grootte,
      'inschatting_uren', d.inschatting_uren, 'besteed_uren', d.besteed_uren, 'herhalen', d.herhalen,
      'onder_taak_nummer', d.onder_taak_nummer, 'subtaken', d.subtaken) as weergave
  from app_hidden.def_taken d;

grant select on app_hidden.taak_weergaven to koers_door, koers_definer;

-- One task as every answer shows it (the writes' results, the app): null when the caller may
-- not see it.
create function app_hidden.taak_weergave(_org uuid, _id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  -- PL/pgSQL for its plan, kept for the session: a SQL function holding a query is planned anew
  -- at every call, and planning the definition costs more than running it for one row.
  return (select w.weergave from app_hidden.taak_weergaven w where w.org_id = _org and w.id = _id
            and w.org_id = (select o.org from app_hidden.mijn_org() o));
end
$$;

-- A task's history, newest first as taak_geschiedenis shows it: every entry of every task the
-- caller may see.
create view app_hidden.def_taak_geschiedenis with (security_invoker = true) as
  select g.org_id, g.id, g.taak_id, g.soort, g.door_user_id, p.naam as door_naam, g.tijdstip, g.oud, g.nieuw, g.aanroep_id
  from app.taak_geschiedenis g
  left join app_hidden.def_personen p on p.org_id = g.org_id and p.user_id = g.door_user_id;

grant select on app_hidden.def_taak_geschiedenis to koers_door, koers_definer;

-- Reads --------------------------------------------------------------------------------------

create function api.taken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  nr integer := (p ->> 'nummer')::integer;
  een jsonb;
  f_soort text := (p ->> 'soort');
  f_hoort_bij uuid := (p ->> 'hoort_bij_id')::uuid;
  f_eigenaar uuid := (p ->> 'eigenaar_user_id')::uuid;
  f_afgesloten boolean := coalesce((p ->> 'ook_afgesloten')::boolean, false);
  f_week text;
  f_tags text[];
  ids uuid[];
begin
  if nr is not null then
    -- One task by its number: found and shown by one statement under the caller's RLS (a look-up
    -- of its id first would run the tasks' policies twice). A statement of its own, run only
    -- with a number: within a list call's statement PostgreSQL planned it anew for every call
    -- of a backend that also answers lists (a plan for "no number" costs next to nothing, so a
    -- plan for any number never looked cheap enough to keep), some 2 to 9 ms each.
    een := (select w.weergave from app_hidden.taak_weergaven w
            where w.org_id = org and w.nummer = nr and w.verwijderd_op is null);
    if een is null then
      -- Not there, or not for this caller: the look-up by number refuses with its message (and
      -- shows the task should it have come in since).
      een := app_hidden.taak_weergave(org, app_hidden.param_verwijzing(p, 'nummer', 'taaknummer'));
    end if;
  end if;
  -- Checked also with nummer (a bad week is refused whatever else is given).
  f_week := app_hidden.param_week(p, 'week', org, false);
  if een is not null then
    return jsonb_build_object('taken', jsonb_build_array(een), 'afgekapt', false);
  end if;
  if p ? 'tags' then
    f_tags := (select array_agg(distinct lower(x)) from unnest(app_hidden.param_tags(p, 'tags')) x);
  end if;
  -- First which tasks, in order (the 201st only says the list is cut): only the filters given,
  -- on the task's own columns under the caller's RLS, planned for this call so each uses its
  -- index. Then the answer through the definition, for those 200 only (a condition on the
  -- task's id reaches the task's row inside the definition; a join would not).
  --
  -- One owner's tasks, the list asked most, is a statement of its own whose plan PL/pgSQL keeps
  -- for the session: planning the general statement with the tasks' policies costs about
  -- 0.25 ms per call (against 0.05 ms without them), a plan kept pays it once. The owner's index
  -- serves every owner, so the kept plan is the one a call would make.
  if f_eigenaar is not null and f_soort is null and f_hoort_bij is null and f_week is null and f_tags is null then
    ids := array(select t.id from app.taken t
                 where t.org_id = org and t.eigenaar_user_id = f_eigenaar and t.verwijderd_op is null
                   and (f_afgesloten or t.stand not in ('voltooid', 'vervallen'))
                 order by t.deadline nulls last, t.nummer limit 201);
  else
    execute 'select array_agg(x.id order by x.rij) from (select t.id, row_number() over (order by t.deadline nulls last, t.nummer) as rij'
      || ' from app.taken t where t.org_id = $1 and t.verwijderd_op is null'
      || case when f_afgesloten then '' else ' and t.stand not in (''voltooid'', ''vervallen'')' end
      || case f_soort when 'prioriteit' then ' and t.prioriteit_id is not null'
                      when 'project' then ' and t.project_id is not null'
                      when 'los' then ' and t.prioriteit_id is null and t.project_id is null' else '' end
      || case when f_hoort_bij is not null then ' and (t.prioriteit_id = $2 or t.project_id = $2)' else '' end
      || case when f_eigenaar is not null then ' and t.eigenaar_user_id = $3' else '' end
      || case when f_week is not null then ' and t.week = $4' else '' end
      || case when f_tags is not null then
           ' and (select count(distinct lower(g.naam)) from app.taak_tags tt join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id'
           || ' where tt.org_id = t.org_id and tt.taak_id = t.id and lower(g.naam) = any ($5)) = cardinality($5)' else '' end
      || ' order by t.deadline nulls last, t.nummer limit 201) x'
      into ids using org, f_hoort_bij, f_eigenaar, f_week, f_tags;
  end if;
  return jsonb_build_object(
    'taken', coalesce((select jsonb_agg(w.weergave order by k.rij)
                       from app_hidden.taak_weergaven w
                       join unnest(ids[1:200]) with ordinality k (id, rij) on k.id = w.id
                       where w.org_id = org and w.id = any (ids[1:200])), '[]'),
    'afgekapt', coalesce(cardinality(ids), 0) > 200);
end
$$;

create function api.taak_geschiedenis(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  gezocht uuid := app_hidden.param_verwijzing(p, 'nummer', 'taaknummer');
begin
  return (
    select jsonb_build_object('taak', jsonb_build_object('id', t.id, 'nummer', t.nummer, 'omschrijving', t.omschrijving),
      'geschiedenis', coalesce((
        select jsonb_agg(jsonb_build_object('soort', g.soort,
                           'door', app_hidden.persoon_weergave(g.door_user_id, g.door_naam),
                           'tijdstip', g.tijdstip, 'oud', g.oud, 'nieuw', g.nieuw)
                         order by g.tijdstip desc, g.id desc)
        from app_hidden.def_taak_geschiedenis g where g.org_id = org and g.taak_id = t.id), '[]'))
    from (select 1) een
    left join app.taken t on t.org_id = org and t.id = gezocht);
end
$$;
