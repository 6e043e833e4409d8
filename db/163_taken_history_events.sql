-- Task history and task events, written by triggers in the transaction of the change, so no
-- path (a door, the app, the database itself) changes a task without them.

-- The task part of an event (the interface's taak.klaar payload), and whether it may be sent.
create function app_hidden.taak_gebeurtenis(_soort text, t app.taken) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  onderdeel jsonb := null;
  besloten boolean := false;
begin
  if t.prioriteit_id is not null then
    select jsonb_build_object('id', p.id, 'titel', p.titel, 'soort', 'prioriteit')
           || app_hidden.team_veld(p.org_id, p.team_id)
      into onderdeel from app.prioriteiten p where p.org_id = t.org_id and p.id = t.prioriteit_id;
  elsif t.project_id is not null then
    select jsonb_build_object('id', p.id, 'titel', p.titel, 'soort', 'project')
           || app_hidden.team_veld(p.org_id, null),
           p.besloten
      into onderdeel, besloten from app.projecten p where p.org_id = t.org_id and p.id = t.project_id;
  end if;
  -- One event per task per transaction: a task created or ticked off in this transaction
  -- says so, and a change made alongside is part of that event.
  if _soort = 'taak.gewijzigd' and exists (
      select 1 from app.gebeurtenissen g where g.org_id = t.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id)
        and g.onderwerp_id = t.id and g.soort in ('taak.aangemaakt', 'taak.klaar')) then
    _soort := (select g.soort from app.gebeurtenissen g where g.org_id = t.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id)
                 and g.onderwerp_id = t.id and g.soort in ('taak.aangemaakt', 'taak.klaar') limit 1);
  elsif _soort <> 'taak.gewijzigd' then
    delete from app.gebeurtenissen g where g.org_id = t.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id)
      and g.onderwerp_id = t.id and g.soort = 'taak.gewijzigd';
  end if;
  perform app_hidden.gebeurtenis(t.org_id, _soort, t.id, jsonb_build_object(
    'taak', jsonb_build_object('id', t.id, 'nummer', t.nummer, 'titel', t.omschrijving,
      'klaar', t.stand = 'voltooid', 'status', app_hidden.stand_lezen(t.stand), 'deadline', t.deadline,
      'eigenaar_id', t.eigenaar_user_id),
    'onderdeel', onderdeel), besloten);
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

create function app_hidden.tg_taken__geschiedenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'aangemaakt', null, jsonb_build_object(
      'omschrijving', new.omschrijving, 'stand', app_hidden.stand_lezen(new.stand),
      'hoort_bij', app_hidden.taak_onderdeel(new.org_id, new.prioriteit_id, new.project_id)));
    if new.ouder_id is not null then
      perform app_hidden.geschiedenis(new.org_id, new.ouder_id, 'subtaken', null,
        jsonb_build_object('nummer', new.nummer, 'omschrijving', new.omschrijving));
    end if;
    return null;
  end if;
  if new.stand is distinct from old.stand then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'stand',
      to_jsonb(app_hidden.stand_lezen(old.stand)), to_jsonb(app_hidden.stand_lezen(new.stand)));
  end if;
  if new.eigenaar_user_id is distinct from old.eigenaar_user_id then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'eigenaar',
      app_hidden.persoon(old.org_id, old.eigenaar_user_id), app_hidden.persoon(new.org_id, new.eigenaar_user_id));
  end if;
  if new.deadline is distinct from old.deadline then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'deadline', to_jsonb(old.deadline), to_jsonb(new.deadline));
  end if;
  if new.week is distinct from old.week then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'week', to_jsonb(old.week), to_jsonb(new.week));
  end if;
  if new.omschrijving is distinct from old.omschrijving then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'titel', to_jsonb(old.omschrijving), to_jsonb(new.omschrijving));
  end if;
  if new.toelichting is distinct from old.toelichting then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'toelichting', to_jsonb(old.toelichting), to_jsonb(new.toelichting));
  end if;
  if new.verwijderd_op is not null and old.verwijderd_op is null then
    perform app_hidden.geschiedenis(new.org_id, new.id, 'verwijderd', null, to_jsonb(new.verwijderd_op));
  end if;
  return null;
end
$$;
create trigger _500_geschiedenis after insert or update on app.taken
  for each row execute function app_hidden.tg_taken__geschiedenis();

-- A repeating task that is done gets its next occurrence, unless its priority is completed.
create function app_hidden.tg_taken__herhalen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  stap interval;
  volgende uuid;
begin
  if new.herhalen is null or new.ouder_id is not null or new.stand <> 'voltooid' or old.stand = 'voltooid'
     or exists (select 1 from app.prioriteiten p where p.org_id = new.org_id and p.id = new.prioriteit_id
                and p.afgerond_op is not null) then
    return null;
  end if;
  stap := app_hidden.betekenis('herhalen', new.herhalen)::interval;
  perform set_config('koers.automatisch', 'ja', true);
  insert into app.taken (org_id, omschrijving, toelichting, prioriteit_id, project_id, eigenaar_user_id, aangemaakt_door,
                         deadline, week, urgentie, brand_label_id, grootte, inschatting_uren, herhalen, herhaling_van)
  values (new.org_id, new.omschrijving, new.toelichting, new.prioriteit_id, new.project_id, new.eigenaar_user_id,
          new.aangemaakt_door, (coalesce(new.deadline, app_hidden.vandaag(new.org_id)) + stap)::date,
          case when new.week is not null then app_hidden.iso_week((app_hidden.week_maandag(new.week) + stap)::date) end,
          new.urgentie, new.brand_label_id, new.grootte, new.inschatting_uren, new.herhalen, new.id)
  returning id into volgende;
  insert into app.taak_tags (org_id, taak_id, tag_id)
  select org_id, volgende, tag_id from app.taak_tags where org_id = new.org_id and taak_id = new.id;
  perform set_config('koers.automatisch', '', true);
  return null;
end
$$;
create trigger _800_herhalen after update of stand on app.taken
  for each row execute function app_hidden.tg_taken__herhalen();

create function app_hidden.tg_taken__gebeurtenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform app_hidden.taak_gebeurtenis('taak.aangemaakt', new);
  elsif new.stand = 'voltooid' and old.stand <> 'voltooid' then
    perform app_hidden.taak_gebeurtenis('taak.klaar', new);
  elsif (new.omschrijving, new.deadline, new.eigenaar_user_id, new.stand, new.week, new.brand_label_id)
        is distinct from (old.omschrijving, old.deadline, old.eigenaar_user_id, old.stand, old.week, old.brand_label_id) then
    perform app_hidden.taak_gebeurtenis('taak.gewijzigd', new);
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update on app.taken
  for each row execute function app_hidden.tg_taken__gebeurtenis();

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
  t app.taken;
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
    where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.taak_id = r.taak_id and g.soort = 'aangemaakt';
    continue when found;
    update app.taak_geschiedenis g set nieuw = nu_tags
    where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.taak_id = r.taak_id and g.soort = 'tags';
    if not found then
      -- The tags before this transaction: undo what this statement did.
      perform app_hidden.geschiedenis(r.org_id, r.taak_id, 'tags',
        case when tg_op = 'DELETE'
             then (select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags || to_jsonb(r.namen)) x)
             else coalesce((select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags) x
                            where x <> all (r.namen)), '[]') end,
        nu_tags);
    end if;
    select * into t from app.taken x where x.org_id = r.org_id and x.id = r.taak_id;
    perform app_hidden.taak_gebeurtenis('taak.gewijzigd', t);
  end loop;
  return null;
end
$$;
create trigger _500_geschiedenis_nieuw after insert on app.taak_tags referencing new table as nieuw
  for each statement execute function app_hidden.tg_taak_tags__geschiedenis();
create trigger _500_geschiedenis_weg after delete on app.taak_tags referencing old table as oud
  for each statement execute function app_hidden.tg_taak_tags__geschiedenis();

create function app_hidden.tg_bijlagen__geschiedenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if tg_op = 'DELETE' then
    perform app_hidden.geschiedenis(old.org_id, old.taak_id, 'bijlagen', jsonb_build_object('naam', old.naam), null);
  else
    perform app_hidden.geschiedenis(new.org_id, new.taak_id, 'bijlagen', null, jsonb_build_object('naam', new.naam));
  end if;
  return null;
end
$$;
create trigger _500_geschiedenis after insert or delete on app.bijlagen
  for each row execute function app_hidden.tg_bijlagen__geschiedenis();
