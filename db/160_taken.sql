-- Tasks: under a priority, in a project, or loose; subtasks one layer deep; repetition; tags.
-- History and events are written by triggers, so no path changes a task without them.

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

-- Brand label of a task: its own, else that of its priority or project.
create function app_hidden.taak_brand_label(_org uuid, _label uuid, _prioriteit uuid, _project uuid) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) then return null; end if;
  return (select b.naam from app.brand_labels b where b.org_id = _org and b.id = coalesce(_label,
            (select p.brand_label_id from app.prioriteiten p where p.org_id = _org and p.id = _prioriteit),
            (select p.brand_label_id from app.projecten p where p.org_id = _org and p.id = _project)));
end
$$;

-- Hours spent on a task, all of them (a member sees only their own hours row by row).
create function app_hidden.taak_uren(_org uuid, _taak uuid) returns numeric
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select coalesce(sum(u.uren), 0) from app.uren u where u.org_id = _org and u.taak_id = _taak and app_hidden.eigen_org(_org));
end
$$;

-- A task as every answer shows it.
create function app_hidden.taak_weergave(_org uuid, _id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', t.id, 'nummer', t.nummer, 'omschrijving', t.omschrijving, 'toelichting', t.toelichting,
      'hoort_bij', app_hidden.taak_onderdeel(t.org_id, t.prioriteit_id, t.project_id),
      'eigenaar', app_hidden.persoon(t.org_id, t.eigenaar_user_id),
      'aangemaakt_door', app_hidden.persoon(t.org_id, t.aangemaakt_door),
      'stand', app_hidden.stand_lezen(t.stand), 'deadline', t.deadline, 'week', t.week, 'urgentie', t.urgentie,
      'tags', app_hidden.taak_tags(t.org_id, t.id),
      'brand_label', app_hidden.taak_brand_label(t.org_id, t.brand_label_id, t.prioriteit_id, t.project_id),
      'grootte', t.grootte,
      'inschatting_uren', case when t.inschatting_uren is not null or t.grootte is not null
                               then app_hidden.taak_gewicht(t.inschatting_uren, t.grootte) end,
      'besteed_uren', app_hidden.taak_uren(t.org_id, t.id),
      'herhalen', t.herhalen,
      'onder_taak_nummer', (select o.nummer from app.taken o where o.org_id = t.org_id and o.id = t.ouder_id),
      'subtaken', (select count(*) from app.taken s where s.org_id = t.org_id and s.ouder_id = t.id))
    from app.taken t where t.org_id = _org and t.id = _id);
end
$$;

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
  stap := case new.herhalen when 'dag' then interval '1 day' when 'week' then interval '1 week'
               when 'maand' then interval '1 month' when 'kwartaal' then interval '3 months' else interval '1 year' end;
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
-- after; a tag change is a taak.gewijzigd.
create function app_hidden.tg_taak_tags__geschiedenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  r app.taak_tags := case when tg_op = 'DELETE' then old else new end;
  nu_tags jsonb := app_hidden.taak_tags(r.org_id, r.taak_id);
  tag text := (select t.naam from app.tags t where t.org_id = r.org_id and t.id = r.tag_id);
  t app.taken;
begin
  select * into t from app.taken x where x.org_id = r.org_id and x.id = r.taak_id;
  -- A new task's first tags are part of its creation, not a change.
  update app.taak_geschiedenis g set nieuw = g.nieuw || jsonb_build_object('tags', nu_tags)
  where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.taak_id = r.taak_id and g.soort = 'aangemaakt';
  if found then return null; end if;
  update app.taak_geschiedenis g set nieuw = nu_tags
  where g.org_id = r.org_id and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.taak_id = r.taak_id and g.soort = 'tags';
  if not found then
    -- The tags before this transaction: undo the change this row made.
    perform app_hidden.geschiedenis(r.org_id, r.taak_id, 'tags',
      case when tg_op = 'DELETE'
           then (select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags || to_jsonb(tag)) x)
           else coalesce((select jsonb_agg(x order by lower(x)) from jsonb_array_elements_text(nu_tags) x where x <> tag), '[]') end,
      nu_tags);
  end if;
  perform app_hidden.taak_gebeurtenis('taak.gewijzigd', t);
  return null;
end
$$;
create trigger _500_geschiedenis after insert or delete on app.taak_tags
  for each row execute function app_hidden.tg_taak_tags__geschiedenis();

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

-- Parameters that name tasks, priorities, projects, tags and labels ------------------------------

create function app_hidden.param_taak_nummer(p jsonb, naam text, verplicht boolean default false) returns app.taken
language plpgsql stable set search_path = '' as $$
declare
  t app.taken;
  v numeric := app_hidden.param_getal(p, naam, verplicht);
begin
  if v is null then return null; end if;
  if v <> trunc(v) then perform app_hidden.ongeldig(naam, format('%s moet een geheel getal zijn.', naam)); end if;
  select * into t from app.taken x where x.org_id = app_hidden.huidige_org() and x.nummer = v and x.verwijderd_op is null;
  if t.id is null then perform app_hidden.ongeldig(naam, format('Taak #%s bestaat niet.', v)); end if;
  return t;
end
$$;

create function app_hidden.param_prioriteit(p jsonb, naam text) returns app.prioriteiten
language plpgsql stable set search_path = '' as $$
declare
  gezocht uuid := app_hidden.param_uuid(p, naam);
  r app.prioriteiten;
begin
  if gezocht is null then return null; end if;
  select * into r from app.prioriteiten x where x.org_id = app_hidden.huidige_org() and x.id = gezocht;
  if r.id is null then perform app_hidden.ongeldig(naam, format('Prioriteit %s bestaat niet.', gezocht)); end if;
  return r;
end
$$;

create function app_hidden.param_project(p jsonb, naam text) returns app.projecten
language plpgsql stable set search_path = '' as $$
declare
  gezocht uuid := app_hidden.param_uuid(p, naam);
  r app.projecten;
begin
  if gezocht is null then return null; end if;
  select * into r from app.projecten x where x.org_id = app_hidden.huidige_org() and x.id = gezocht;
  if r.id is null then perform app_hidden.ongeldig(naam, format('Project %s bestaat niet.', gezocht)); end if;
  return r;
end
$$;

-- Tag names from an array parameter: trimmed, unique ignoring letter case, in given order.
create function app_hidden.param_tags(p jsonb, naam text) returns text[]
language plpgsql immutable set search_path = '' as $$
declare uit text[] := '{}'; x jsonb;
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' then return null; end if;
  if jsonb_typeof(p -> naam) <> 'array' then perform app_hidden.ongeldig(naam, format('%s moet een lijst zijn.', naam)); end if;
  for x in select * from jsonb_array_elements(p -> naam) loop
    if jsonb_typeof(x) <> 'string' or length(trim(x #>> '{}')) = 0 or length(x #>> '{}') > 50 then
      perform app_hidden.ongeldig(naam, format('%s moet tekst zijn van 1 tot 50 tekens per tag.', naam));
    end if;
    if not lower(trim(x #>> '{}')) = any (select lower(u) from unnest(uit) u) then
      uit := uit || trim(x #>> '{}');
    end if;
  end loop;
  return uit;
end
$$;

create function app_hidden.param_brand_label(p jsonb, naam text) returns uuid
language plpgsql stable set search_path = '' as $$
declare
  v text := app_hidden.param_tekst(p, naam);
  id uuid;
begin
  if v is null then return null; end if;
  select b.id into id from app.brand_labels b where b.org_id = app_hidden.huidige_org() and lower(b.naam) = lower(v);
  if id is null then
    perform app_hidden.ongeldig(naam, format('Brand label %s bestaat niet; kies uit: %s.', v, coalesce(
      (select string_agg(b.naam, ', ' order by b.naam) from app.brand_labels b where b.org_id = app_hidden.huidige_org()), 'geen')));
  end if;
  return id;
end
$$;

-- Sets a task's tags to exactly these names; new names become tags of the organisation.
create function app_hidden.tags_zetten(_org uuid, _taak uuid, _tags text[]) returns void
language plpgsql volatile set search_path = '' as $$
begin
  insert into app.tags (org_id, naam)
  select _org, n from unnest(_tags) n
  where not exists (select 1 from app.tags t where t.org_id = _org and lower(t.naam) = lower(n));
  delete from app.taak_tags tt where tt.org_id = _org and tt.taak_id = _taak
    and tt.tag_id not in (select t.id from app.tags t where t.org_id = _org and lower(t.naam) = any (select lower(n) from unnest(_tags) n));
  insert into app.taak_tags (org_id, taak_id, tag_id)
  select _org, _taak, t.id from app.tags t
  where t.org_id = _org and lower(t.naam) = any (select lower(n) from unnest(_tags) n)
  on conflict do nothing;
end
$$;

-- Operations ------------------------------------------------------------------------------

create function api.taken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  een app.taken := app_hidden.param_taak_nummer(p, 'nummer');
  f_soort text := app_hidden.param_keuze(p, 'soort', array['prioriteit', 'project', 'los']);
  f_hoort_bij uuid := app_hidden.param_uuid(p, 'hoort_bij_id');
  f_eigenaar uuid := app_hidden.param_uuid(p, 'eigenaar_user_id');
  f_afgesloten boolean := app_hidden.param_vlag(p, 'ook_afgesloten');
  f_week text := app_hidden.param_week(p, 'week', org, false);
  f_tags text[] := (select array_agg(lower(x)) from unnest(app_hidden.param_tags(p, 'tags')) x);
  ids uuid[];
begin
  if een.id is not null then
    return jsonb_build_object('taken', jsonb_build_array(app_hidden.taak_weergave(org, een.id)), 'afgekapt', false);
  end if;
  select array_agg(id) into ids from (
    select t.id from app.taken t
    where t.org_id = org and t.verwijderd_op is null
      and (f_afgesloten or t.stand not in ('voltooid', 'vervallen'))
      and (f_soort is null or (f_soort = 'prioriteit' and t.prioriteit_id is not null)
           or (f_soort = 'project' and t.project_id is not null)
           or (f_soort = 'los' and t.prioriteit_id is null and t.project_id is null))
      and (f_hoort_bij is null or t.prioriteit_id = f_hoort_bij or t.project_id = f_hoort_bij)
      and (f_eigenaar is null or t.eigenaar_user_id = f_eigenaar)
      and (f_week is null or t.week = f_week)
      and (f_tags is null or cardinality(f_tags) = 0 or (
        select count(distinct lower(g.naam)) from app.taak_tags tt join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
        where tt.org_id = t.org_id and tt.taak_id = t.id and lower(g.naam) = any (f_tags)) = cardinality(f_tags))
    order by t.deadline nulls last, t.nummer
    limit 201) x;
  return jsonb_build_object(
    'taken', coalesce((select jsonb_agg(app_hidden.taak_weergave(org, i) order by o)
                       from unnest(ids[1:200]) with ordinality u (i, o)), '[]'),
    'afgekapt', coalesce(cardinality(ids), 0) > 200);
end
$$;

create function api.taak_geschiedenis(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  t app.taken := app_hidden.param_taak_nummer(p, 'nummer', true);
begin
  return jsonb_build_object('taak', jsonb_build_object('id', t.id, 'nummer', t.nummer, 'omschrijving', t.omschrijving),
    'geschiedenis', coalesce((
      select jsonb_agg(jsonb_build_object('soort', g.soort, 'door', app_hidden.persoon(org, g.door_user_id),
                                          'tijdstip', g.tijdstip, 'oud', g.oud, 'nieuw', g.nieuw)
                       order by g.tijdstip desc, g.id desc)
      from app.taak_geschiedenis g where g.org_id = org and g.taak_id = t.id), '[]'));
end
$$;

create function api.taak_toevoegen(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  prioriteit app.prioriteiten := app_hidden.param_prioriteit(p, 'prioriteit_id');
  project app.projecten := app_hidden.param_project(p, 'project_id');
  ouder app.taken := app_hidden.param_taak_nummer(p, 'onder_taak_nummer');
  omschrijving text := app_hidden.param_tekst(p, 'omschrijving', true);
  eigenaar uuid := app_hidden.param_lid(p, 'eigenaar_user_id');
  deadline date := app_hidden.param_datum(p, 'deadline');
  herhalen text := app_hidden.param_keuze(p, 'herhalen', array['dag', 'week', 'maand', 'kwartaal', 'jaar']);
  grootte text := app_hidden.param_keuze(p, 'grootte', array['klein', 'middel', 'groot']);
  inschatting numeric := app_hidden.param_getal(p, 'inschatting_uren');
  week text := app_hidden.param_week(p, 'week', org);
  tags text[] := coalesce(app_hidden.param_tags(p, 'tags'), '{}');
  label uuid := app_hidden.param_brand_label(p, 'brand_label');
  nieuw uuid;
begin
  if length(omschrijving) > 500 then perform app_hidden.ongeldig('omschrijving', 'omschrijving is te lang: hoogstens 500 tekens.'); end if;
  if prioriteit.id is not null and project.id is not null then
    perform app_hidden.ongeldig('project_id', 'Een taak hoort bij een prioriteit of bij een project, niet bij allebei.');
  end if;
  if ouder.id is not null then
    if prioriteit.id is not null or project.id is not null then
      perform app_hidden.ongeldig(case when prioriteit.id is not null then 'prioriteit_id' else 'project_id' end,
        'Een subtaak hoort bij de prioriteit of het project van haar bovenliggende taak; geef die niet apart.');
    end if;
    if herhalen is not null then
      perform app_hidden.ongeldig('herhalen', 'Een subtaak herhaalt niet.');
    end if;
    if ouder.ouder_id is not null then
      perform app_hidden.ongeldig('onder_taak_nummer', format('Taak #%s is zelf een subtaak; subtaken gaan één laag diep.', ouder.nummer));
    end if;
    eigenaar := coalesce(eigenaar, ouder.eigenaar_user_id);
  end if;
  if grootte is not null and inschatting is not null then
    perform app_hidden.ongeldig('inschatting_uren', 'Geef grootte of inschatting_uren, niet allebei.');
  end if;
  if inschatting < 0 or inschatting > 10000 then
    perform app_hidden.ongeldig('inschatting_uren', 'inschatting_uren moet tussen 0 en 10000 liggen.');
  end if;
  if project.afgerond_op is not null then
    perform app_hidden.ongeldig('project_id', format('Project %s is afgerond.', project.titel));
  end if;

  insert into app.taken (org_id, omschrijving, prioriteit_id, project_id, ouder_id, eigenaar_user_id, aangemaakt_door,
                         deadline, week, brand_label_id, grootte, inschatting_uren, herhalen)
  values (org, omschrijving, coalesce(prioriteit.id, ouder.prioriteit_id), coalesce(project.id, ouder.project_id),
          ouder.id, eigenaar, ik, deadline, week, label, grootte, inschatting, herhalen)
  returning id into nieuw;
  perform app_hidden.tags_zetten(org, nieuw, tags);

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)),
      'hoort_bij', app_hidden.veld(null, app_hidden.taak_onderdeel(org, coalesce(prioriteit.id, ouder.prioriteit_id),
                                                                   coalesce(project.id, ouder.project_id))),
      'onder_taak_nummer', app_hidden.veld(null, to_jsonb(ouder.nummer)),
      'eigenaar', app_hidden.veld(null, app_hidden.persoon(org, eigenaar)),
      'deadline', app_hidden.veld(null, to_jsonb(deadline)),
      'week', app_hidden.veld(null, to_jsonb(week)),
      'herhalen', app_hidden.veld(null, to_jsonb(herhalen)),
      'grootte', app_hidden.veld(null, to_jsonb(grootte)),
      'inschatting_uren', app_hidden.veld(null, to_jsonb(case when grootte is not null or inschatting is not null
                                                              then app_hidden.taak_gewicht(inschatting, grootte) end)),
      'tags', app_hidden.veld(null, to_jsonb(tags)),
      'brand_label', app_hidden.veld(null, to_jsonb(app_hidden.taak_brand_label(org, label,
        coalesce(prioriteit.id, ouder.prioriteit_id), coalesce(project.id, ouder.project_id))))),
    'resultaat', jsonb_build_object('taak', app_hidden.taak_weergave(org, nieuw)));
end
$$;

create function api.taak_bijwerken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  gezocht uuid := app_hidden.param_uuid(p, 'taak_id', true);
  oud app.taken;
  t app.taken;
  oud_tags jsonb;
  tags text[] := app_hidden.param_tags(p, 'tags');
  herhalen text := app_hidden.param_keuze(p, 'herhalen', array['niet', 'dag', 'week', 'maand', 'kwartaal', 'jaar']);
  voorstel jsonb := '{}';
  oude_weergave jsonb;
  nieuwe_weergave jsonb;
  bijgewerkt integer;
begin
  select * into oud from app.taken x where x.org_id = org and x.id = gezocht and x.verwijderd_op is null;
  if oud.id is null then perform app_hidden.ongeldig('taak_id', format('Taak %s bestaat niet.', gezocht)); end if;
  t := oud;
  if p ? 'stand' then
    t.stand := app_hidden.param_keuze(p, 'stand', array['open', 'in_uitvoering', 'wacht_op_feedback', 'voltooid', 'vervallen'], true);
  end if;
  if p ? 'eigenaar_user_id' then t.eigenaar_user_id := app_hidden.param_lid(p, 'eigenaar_user_id'); end if;
  if p ? 'deadline' then t.deadline := app_hidden.param_datum(p, 'deadline'); end if;
  if p ? 'herhalen' then
    t.herhalen := nullif(herhalen, 'niet');
    if t.herhalen is not null and oud.ouder_id is not null then
      perform app_hidden.ongeldig('herhalen', 'Een subtaak herhaalt niet.');
    end if;
  end if;
  if p ? 'omschrijving' then t.omschrijving := app_hidden.param_tekst(p, 'omschrijving', true); end if;
  if p ? 'week' then t.week := app_hidden.param_week(p, 'week', org); end if;
  if p ? 'brand_label' then t.brand_label_id := app_hidden.param_brand_label(p, 'brand_label'); end if;
  if p ? 'grootte' and p ? 'inschatting_uren' and jsonb_typeof(p -> 'inschatting_uren') <> 'null' then
    perform app_hidden.ongeldig('inschatting_uren', 'Geef grootte of inschatting_uren, niet allebei.');
  end if;
  if p ? 'grootte' then
    t.grootte := app_hidden.param_keuze(p, 'grootte', array['klein', 'middel', 'groot'], true);
    t.inschatting_uren := null;  -- the size fills the estimate
  end if;
  if p ? 'inschatting_uren' then
    t.inschatting_uren := app_hidden.param_getal(p, 'inschatting_uren');
    if t.inschatting_uren < 0 or t.inschatting_uren > 10000 then
      perform app_hidden.ongeldig('inschatting_uren', 'inschatting_uren moet tussen 0 en 10000 liggen.');
    end if;
    if t.inschatting_uren is not null then t.grootte := null; end if;
  end if;
  if not (p ?| array['stand', 'eigenaar_user_id', 'deadline', 'herhalen', 'omschrijving', 'week', 'tags', 'brand_label',
                     'grootte', 'inschatting_uren']) then
    perform app_hidden.ongeldig('taak_id', 'Geef minstens één veld dat verandert.');
  end if;

  oude_weergave := app_hidden.taak_weergave(org, oud.id);
  oud_tags := oude_weergave -> 'tags';
  update app.taken x set stand = t.stand, eigenaar_user_id = t.eigenaar_user_id, deadline = t.deadline,
    herhalen = t.herhalen, omschrijving = t.omschrijving, week = t.week, brand_label_id = t.brand_label_id,
    grootte = t.grootte, inschatting_uren = t.inschatting_uren
  where x.org_id = org and x.id = oud.id;
  -- A policy that forbids an update hides the row instead of raising: say so.
  get diagnostics bijgewerkt = row_count;
  if bijgewerkt = 0 then
    perform app_hidden.fout('rol_mag_niet', 'Met jouw rol mag je deze taak niet bijwerken.');
  end if;
  if tags is not null then perform app_hidden.tags_zetten(org, oud.id, tags); end if;

  -- The proposal: per field that was given, what stands now and what it becomes.
  nieuwe_weergave := app_hidden.taak_weergave(org, oud.id);
  select jsonb_object_agg(k, app_hidden.veld(oude_weergave -> k, nieuwe_weergave -> k)) into voorstel
  from unnest(array['stand', 'eigenaar', 'deadline', 'herhalen', 'omschrijving', 'week', 'tags', 'brand_label',
                    'grootte', 'inschatting_uren']) k
  where p ? case k when 'eigenaar' then 'eigenaar_user_id' else k end
     or (k in ('grootte', 'inschatting_uren') and p ?| array['grootte', 'inschatting_uren']);
  return jsonb_build_object(
    'voorstel', jsonb_build_object('taak', app_hidden.veld(
      jsonb_build_object('nummer', oud.nummer, 'omschrijving', oud.omschrijving),
      jsonb_build_object('nummer', oud.nummer, 'omschrijving', t.omschrijving))) || voorstel,
    'resultaat', jsonb_build_object('taak', nieuwe_weergave));
end
$$;

-- Projects --------------------------------------------------------------------------------

create function api.projecten(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  vandaag date := app_hidden.vandaag(org);
begin
  return jsonb_build_object('projecten', coalesce((
    select jsonb_agg(app_hidden.project_weergave(org, x.id) order by x.deadline nulls last, x.titel, x.id)
    from app.projecten x
    where x.org_id = org and x.afgerond_op is null and x.startdatum <= vandaag
      and (x.deadline is null or x.deadline >= vandaag)), '[]'));
end
$$;
