-- Task history and task events, written by triggers in the transaction of the change, so no
-- path (a door, the app, the database itself) changes a task without them.
--
-- But one: the trial run of a proposal (api.aanroep sets koers.proef inside the subtransaction
-- it rolls back) changes a task only to see what the change would look like, so the history,
-- the events and the audit of an update are left out there (the triggers' WHEN). That flag
-- saves nothing anywhere else: a task inserted, updated or deleted under it queues _950_proef,
-- deferred to the commit, which refuses the transaction. The trial's rollback discards it with
-- the change; a session that sets the flag itself cannot keep a change made under it.
create function app_hidden.tg__proef() returns trigger
language plpgsql volatile set search_path = '' as $$
begin
  raise exception 'a change made in the trial run of a proposal (koers.proef) cannot be kept'
    using errcode = '55000';
end
$$;
create constraint trigger _950_proef after insert or update or delete on app.taken
  deferrable initially deferred for each row
  when (current_setting('koers.proef', true) = 'ja')
  execute function app_hidden.tg__proef();

-- The events of tasks a statement created or changed (_orgs, _ids and _soorten side by side),
-- set-based: one statement works out every event (the interface's taak.klaar payload, and
-- whether it may be sent), a second writes them; only a change that already has events of these
-- tasks merges into them (below). Rows in task number order, as the events are numbered.
-- Generic plans: planned for the arrays of each call (mostly one task), its statements looked
-- cheaper every time than a plan for any arrays, so each call planned them anew (about 1.3 ms a write).
create function app_hidden.taak_gebeurtenissen(_orgs uuid[], _ids uuid[], _soorten text[]) returns void
language plpgsql volatile security definer set search_path = '' set plan_cache_mode = force_generic_plan as $$
declare
  -- The call the events belong to, and the caller's organisation: the team key of an event's
  -- part is only given there, when it has teams.
  beller app_hidden.aanroep_start := app_hidden.beller();
  aanroep uuid := beller.aanroep_id;
  mijn uuid := beller.org_id;
  r record;
begin
  select array_agg(x.org_id order by x.nummer) as orgs, array_agg(x.id order by x.nummer) as ids,
         array_agg(x.soort order by x.nummer) as soorten, array_agg(x.gegevens order by x.nummer) as gegevens,
         array_agg(x.besloten order by x.nummer) as besloten
    into r
  from (
    select t.org_id, t.id, t.nummer, v.soort, coalesce(pj.besloten, false) as besloten,
      jsonb_build_object(
        'taak', jsonb_build_object('id', t.id, 'nummer', t.nummer, 'titel', t.omschrijving,
          'klaar', t.stand = 'voltooid', 'status', app_hidden.stand_lezen(t.stand), 'deadline', t.deadline,
          'eigenaar_id', t.eigenaar_user_id),
        'onderdeel', case
          when t.prioriteit_id is not null then
            jsonb_build_object('id', pr.id, 'titel', pr.titel, 'soort', 'prioriteit')
            || case when t.org_id = mijn and exists (select 1 from app.teams tm where tm.org_id = t.org_id)
                    then jsonb_build_object('team', (select jsonb_build_object('id', tm.id, 'naam', tm.naam) from app.teams tm
                                                     where tm.org_id = pr.org_id and tm.id = pr.team_id))
                    else '{}' end
          when t.project_id is not null then
            jsonb_build_object('id', pj.id, 'titel', pj.titel, 'soort', 'project')
            || case when t.org_id = mijn and exists (select 1 from app.teams tm where tm.org_id = t.org_id)
                    then jsonb_build_object('team', null) else '{}' end
        end) as gegevens
    from unnest(_orgs, _ids, _soorten) v (org_id, id, soort)
    join app.taken t on t.org_id = v.org_id and t.id = v.id
    left join app.prioriteiten pr on pr.org_id = t.org_id and pr.id = t.prioriteit_id
    left join app.projecten pj on pj.org_id = t.org_id and pj.id = t.project_id) x;
  if r.ids is null then return; end if;

  -- One event per task per change: a task created or ticked off in this change says so, and a
  -- change made alongside is part of that event (a task created and ticked off at once keeps
  -- taak.aangemaakt). Only when this change already has events of these tasks.
  if exists (select 1 from app.gebeurtenissen g
             where g.org_id = any (r.orgs) and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep) and g.onderwerp_id = any (r.ids)) then
    for i in 1 .. cardinality(r.ids) loop
      perform app_hidden.taak_gebeurtenis_samenvoegen(r.orgs[i], r.ids[i], r.soorten[i], r.gegevens[i], r.besloten[i]);
    end loop;
    return;
  end if;
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, besloten, onderwerp_id, aanroep_id)
  select v.org_id, v.soort, app_hidden.nu(), v.gegevens, v.besloten, v.id, aanroep
  from unnest(r.orgs, r.ids, r.soorten, r.gegevens, r.besloten) with ordinality v (org_id, id, soort, gegevens, besloten, i)
  order by v.i;
end
$$;

-- One task's event where its change already has events: the kind it ends up as, the event it
-- replaces, the event it updates.
create function app_hidden.taak_gebeurtenis_samenvoegen(_org uuid, _id uuid, _soort text, _gegevens jsonb, _besloten boolean)
returns void language plpgsql volatile security definer set search_path = '' as $$
declare
  eerder text[];
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  select coalesce(array_agg(g.soort), '{}') into eerder from app.gebeurtenissen g
  where g.org_id = _org and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep) and g.onderwerp_id = _id;
  if _soort = 'taak.gewijzigd' and eerder && array['taak.aangemaakt', 'taak.klaar'] then
    _soort := case when 'taak.aangemaakt' = any (eerder) then 'taak.aangemaakt' else 'taak.klaar' end;
  elsif _soort <> 'taak.gewijzigd' and 'taak.gewijzigd' = any (eerder) then
    delete from app.gebeurtenissen g where g.org_id = _org and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep)
      and g.onderwerp_id = _id and g.soort = 'taak.gewijzigd';
  end if;
  perform app_hidden.gebeurtenis(_org, _soort, _id, _gegevens, _besloten, _soort = any (eerder));
end
$$;

-- Who a history entry names: the caller, or nobody when the database acts by itself
-- (a repeating task's next occurrence).
create function app_hidden.wie() returns uuid
language sql stable as $$
  select case when current_setting('koers.automatisch', true) = 'ja' then null
              else app_hidden.huidige_gebruiker() end
$$;

create function app_hidden.geschiedenis(_org uuid, _taak uuid, _soort text, _oud jsonb, _nieuw jsonb) returns void
language sql volatile security definer set search_path = '' as $$
  insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, aanroep_id)
  values (_org, _taak, _soort, app_hidden.wie(), app_hidden.nu(), _oud, _nieuw, (app_hidden.beller()).aanroep_id)
$$;

-- Triggers on app.taken --------------------------------------------------------------------

create function app_hidden.tg_taken__nummer() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app.organisaties o set volgend_taaknummer = volgend_taaknummer + 1
  where o.org_id = new.org_id returning o.volgend_taaknummer - 1 into new.nummer;
  new.aangemaakt_op := app_hidden.nu();
  new.bijgewerkt_op := app_hidden.nu();
  if new.stand = 'voltooid' then new.afgerond_op := app_hidden.nu(); end if;
  return new;
end
$$;
create trigger _100_nummer before insert on app.taken
  for each row execute function app_hidden.tg_taken__nummer();

create function app_hidden.tg_taken__tijden() returns trigger
language plpgsql volatile set search_path = '' as $$
begin
  new.bijgewerkt_op := app_hidden.nu();
  if new.stand = 'voltooid' and old.stand <> 'voltooid' then new.afgerond_op := app_hidden.nu();
  elsif new.stand <> 'voltooid' then new.afgerond_op := null;
  end if;
  return new;
end
$$;
create trigger _100_tijden before update on app.taken
  for each row execute function app_hidden.tg_taken__tijden();

-- History, the next occurrence of a repeating task, and events: once per statement, over the
-- rows it inserted or updated (transition tables), in the order a trigger per row wrote them
-- (per task by number, per task in the order of its fields), so a statement that changes many
-- tasks runs each trigger once.
create function app_hidden.tg_taken__geschiedenis_nieuw() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  door uuid := app_hidden.wie();
  tijd timestamptz := app_hidden.nu();
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, aanroep_id)
  select n.org_id, x.taak_id, x.soort, door, tijd, null, x.nieuw, aanroep
  from nieuw n
  cross join lateral (values
    (1, n.id, 'aangemaakt', jsonb_build_object('omschrijving', n.omschrijving, 'stand', app_hidden.stand_lezen(n.stand),
                                               'hoort_bij', app_hidden.taak_onderdeel(n.org_id, n.prioriteit_id, n.project_id))),
    (2, n.ouder_id, 'subtaken', jsonb_build_object('nummer', n.nummer, 'omschrijving', n.omschrijving))) x (nr, taak_id, soort, nieuw)
  where x.taak_id is not null
  order by n.nummer, x.nr;
  return null;
end
$$;
create trigger _500_geschiedenis_nieuw after insert on app.taken referencing new table as nieuw
  for each statement execute function app_hidden.tg_taken__geschiedenis_nieuw();

create function app_hidden.tg_taken__geschiedenis_gewijzigd() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  door uuid := app_hidden.wie();
  tijd timestamptz := app_hidden.nu();
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, aanroep_id)
  select n.org_id, n.id, x.soort, door, tijd, x.oud, x.nieuw, aanroep
  from oud o join nieuw n on n.org_id = o.org_id and n.id = o.id
  cross join lateral (
    select 1, 'stand', to_jsonb(app_hidden.stand_lezen(o.stand)), to_jsonb(app_hidden.stand_lezen(n.stand))
    where n.stand is distinct from o.stand
    union all
    select 2, 'eigenaar', app_hidden.persoon(o.org_id, o.eigenaar_user_id), app_hidden.persoon(n.org_id, n.eigenaar_user_id)
    where n.eigenaar_user_id is distinct from o.eigenaar_user_id
    union all
    select 3, 'deadline', to_jsonb(o.deadline), to_jsonb(n.deadline) where n.deadline is distinct from o.deadline
    union all
    select 4, 'week', to_jsonb(o.week), to_jsonb(n.week) where n.week is distinct from o.week
    union all
    select 5, 'titel', to_jsonb(o.omschrijving), to_jsonb(n.omschrijving) where n.omschrijving is distinct from o.omschrijving
    union all
    select 6, 'toelichting', to_jsonb(o.toelichting), to_jsonb(n.toelichting) where n.toelichting is distinct from o.toelichting
    union all
    select 7, 'verwijderd', null, to_jsonb(n.verwijderd_op) where n.verwijderd_op is not null and o.verwijderd_op is null
  ) x (nr, soort, oud, nieuw)
  order by n.nummer, x.nr;
  return null;
end
$$;
create trigger _500_geschiedenis_gewijzigd after update on app.taken referencing old table as oud new table as nieuw
  for each statement when (current_setting('koers.proef', true) is distinct from 'ja') execute function app_hidden.tg_taken__geschiedenis_gewijzigd();

-- A repeating task that is done gets its next occurrence, unless its priority is completed.
create function app_hidden.tg_taken__herhalen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  t record;
  stap interval;
  volgende uuid;
begin
  -- Most updates tick off no repeating task: one look at the new rows, before the join.
  if not exists (select 1 from nieuw n where n.herhalen is not null and n.ouder_id is null and n.stand = 'voltooid') then
    return null;
  end if;
  for t in
    select n.* from oud o join nieuw n on n.org_id = o.org_id and n.id = o.id
    where n.herhalen is not null and n.ouder_id is null and n.stand = 'voltooid' and o.stand <> 'voltooid'
      and not exists (select 1 from app.prioriteiten p where p.org_id = n.org_id and p.id = n.prioriteit_id
                      and p.afgerond_op is not null)
    order by n.nummer
  loop
    stap := app_hidden.betekenis('herhalen', t.herhalen)::interval;
    perform set_config('koers.automatisch', 'ja', true);
    insert into app.taken (org_id, omschrijving, toelichting, prioriteit_id, project_id, eigenaar_user_id, aangemaakt_door,
                           deadline, week, urgentie, brand_label_id, grootte, inschatting_uren, herhalen, herhaling_van)
    values (t.org_id, t.omschrijving, t.toelichting, t.prioriteit_id, t.project_id, t.eigenaar_user_id,
            t.aangemaakt_door, (coalesce(t.deadline, app_hidden.vandaag(t.org_id)) + stap)::date,
            case when t.week is not null then app_hidden.iso_week((app_hidden.week_maandag(t.week) + stap)::date) end,
            t.urgentie, t.brand_label_id, t.grootte, t.inschatting_uren, t.herhalen, t.id)
    returning id into volgende;
    insert into app.taak_tags (org_id, taak_id, tag_id)
    select org_id, volgende, tag_id from app.taak_tags where org_id = t.org_id and taak_id = t.id;
    perform set_config('koers.automatisch', '', true);
  end loop;
  return null;
end
$$;
create trigger _800_herhalen after update on app.taken referencing old table as oud new table as nieuw
  for each statement execute function app_hidden.tg_taken__herhalen();

create function app_hidden.tg_taken__gebeurtenis_nieuw() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform app_hidden.taak_gebeurtenissen(array_agg(n.org_id), array_agg(n.id), array_agg('taak.aangemaakt'::text))
  from nieuw n;
  return null;
end
$$;
create trigger _900_gebeurtenis_nieuw after insert on app.taken referencing new table as nieuw
  for each statement execute function app_hidden.tg_taken__gebeurtenis_nieuw();

create function app_hidden.tg_taken__gebeurtenis_gewijzigd() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform app_hidden.taak_gebeurtenissen(array_agg(x.org_id), array_agg(x.id), array_agg(x.soort))
  from (select n.org_id, n.id,
          case when n.stand = 'voltooid' and o.stand <> 'voltooid' then 'taak.klaar'
               when (n.omschrijving, n.deadline, n.eigenaar_user_id, n.stand, n.week, n.brand_label_id)
                    is distinct from (o.omschrijving, o.deadline, o.eigenaar_user_id, o.stand, o.week, o.brand_label_id)
               then 'taak.gewijzigd' end as soort
        from oud o join nieuw n on n.org_id = o.org_id and n.id = o.id) x
  where x.soort is not null
  having count(*) > 0;  -- a change no event is about (a note, say) calls nothing
  return null;
end
$$;
create trigger _900_gebeurtenis_gewijzigd after update on app.taken referencing old table as oud new table as nieuw
  for each statement when (current_setting('koers.proef', true) is distinct from 'ja') execute function app_hidden.tg_taken__gebeurtenis_gewijzigd();

-- Tags and attachments: one history entry per task per transaction, with the tags before and
-- after; a tag change is a taak.gewijzigd. Tags once per statement (transition tables), per task
-- it changed: the tags before it are those after it without what it added, or with what it
-- removed.
create function app_hidden.tg_taak_tags__geschiedenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  rijen app.taak_tags[];
  r record;
  nu_tags jsonb;
  orgs uuid[] := '{}';
  ids uuid[] := '{}';
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  if tg_op = 'INSERT' then
    select array_agg(n) into rijen from nieuw n;
  else
    select array_agg(o) into rijen from oud o;
  end if;
  for r in
    select x.org_id, x.taak_id, array_agg(g.naam) as namen
    from unnest(rijen) x join app.tags g on g.org_id = x.org_id and g.id = x.tag_id
    group by x.org_id, x.taak_id order by x.org_id, x.taak_id
  loop
    nu_tags := app_hidden.taak_tags(r.org_id, r.taak_id);
    -- A new task's first tags are part of its creation, not a change.
    update app.taak_geschiedenis g set nieuw = g.nieuw || jsonb_build_object('tags', nu_tags)
    where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep) and g.taak_id = r.taak_id and g.soort = 'aangemaakt';
    continue when found;
    update app.taak_geschiedenis g set nieuw = nu_tags
    where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep) and g.taak_id = r.taak_id and g.soort = 'tags';
    if not found then
      -- The tags before this transaction: undo what this statement did.
      perform app_hidden.geschiedenis(r.org_id, r.taak_id, 'tags',
        case when tg_op = 'DELETE'
             then (select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags || to_jsonb(r.namen)) x)
             else coalesce((select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags) x
                            where x <> all (r.namen)), '[]') end,
        nu_tags);
    end if;
    orgs := orgs || r.org_id;
    ids := ids || r.taak_id;
  end loop;
  perform app_hidden.taak_gebeurtenissen(orgs, ids, array_fill('taak.gewijzigd'::text, array[cardinality(ids)]));
  return null;
end
$$;
create trigger _500_geschiedenis_nieuw after insert on app.taak_tags referencing new table as nieuw
  for each statement execute function app_hidden.tg_taak_tags__geschiedenis();
create trigger _500_geschiedenis_weg after delete on app.taak_tags referencing old table as oud
  for each statement execute function app_hidden.tg_taak_tags__geschiedenis();

create function app_hidden.tg_bijlagen__geschiedenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  door uuid := app_hidden.wie();
  tijd timestamptz := app_hidden.nu();
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  if tg_op = 'DELETE' then
    insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, aanroep_id)
    select o.org_id, o.taak_id, 'bijlagen', door, tijd, jsonb_build_object('naam', o.naam), null, aanroep from oud o;
  else
    insert into app.taak_geschiedenis (org_id, taak_id, soort, door_user_id, tijdstip, oud, nieuw, aanroep_id)
    select n.org_id, n.taak_id, 'bijlagen', door, tijd, null, jsonb_build_object('naam', n.naam), aanroep from nieuw n;
  end if;
  return null;
end
$$;
create trigger _500_geschiedenis_nieuw after insert on app.bijlagen referencing new table as nieuw
  for each statement execute function app_hidden.tg_bijlagen__geschiedenis();
create trigger _500_geschiedenis_weg after delete on app.bijlagen referencing old table as oud
  for each statement execute function app_hidden.tg_bijlagen__geschiedenis();
