-- Task writes: taak_toevoegen and taak_bijwerken.

-- Sets a task's tags to exactly these names; new names become tags of the organisation. Two
-- writers creating the same new tag at once both succeed: the second finds the first's tag.
-- New tags are inserted in one order (by lower case name), so two writers creating the same
-- two new tags at once wait for each other instead of deadlocking.
create function app_hidden.tags_zetten(_org uuid, _taak uuid, _tags text[]) returns void
language plpgsql volatile set search_path = '' as $$
begin
  insert into app.tags (org_id, naam)
  select _org, n from unnest(_tags) n order by lower(n), n
  on conflict (org_id, lower(naam)) do nothing;
  delete from app.taak_tags tt where tt.org_id = _org and tt.taak_id = _taak
    and tt.tag_id not in (select t.id from app.tags t where t.org_id = _org and lower(t.naam) = any (select lower(n) from unnest(_tags) n));
  insert into app.taak_tags (org_id, taak_id, tag_id)
  select _org, _taak, t.id from app.tags t
  where t.org_id = _org and lower(t.naam) = any (select lower(n) from unnest(_tags) n)
  on conflict do nothing;
end
$$;

create function api.taak_toevoegen(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  prioriteit_id uuid := app_hidden.param_verwijzing(p, 'prioriteit_id', 'prioriteit');
  project app.projecten;
  ouder app.taken;
  omschrijving text := (p ->> 'omschrijving');
  eigenaar uuid := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid');
  deadline date := app_hidden.param_datum(p, 'deadline');
  herhalen text := (p ->> 'herhalen');
  grootte text := (p ->> 'grootte');
  inschatting numeric := (p ->> 'inschatting_uren')::numeric;
  week text := app_hidden.param_week(p, 'week', org);
  tags text[] := coalesce(app_hidden.param_tags(p, 'tags'), '{}');
  label uuid := app_hidden.param_verwijzing(p, 'brand_label', 'brand_label');
  nieuw uuid;
  w jsonb;
begin
  select * into project from app.projecten x
  where x.org_id = org and x.id = app_hidden.param_verwijzing(p, 'project_id', 'project');
  select * into ouder from app.taken x
  where x.org_id = org and x.id = app_hidden.param_verwijzing(p, 'onder_taak_nummer', 'taaknummer');
  if prioriteit_id is not null and project.id is not null then
    perform app_hidden.regel_weigeren('taken_prioriteit_of_project');
  end if;
  if ouder.id is not null then
    if prioriteit_id is not null or project.id is not null then
      perform app_hidden.ongeldig(case when prioriteit_id is not null then 'prioriteit_id' else 'project_id' end,
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
    perform app_hidden.regel_weigeren('taken_grootte_of_inschatting');
  end if;
  if project.afgerond_op is not null then
    perform app_hidden.ongeldig('project_id', format('Project %s is afgerond.', project.titel));
  end if;

  insert into app.taken (org_id, omschrijving, prioriteit_id, project_id, ouder_id, eigenaar_user_id, aangemaakt_door,
                         deadline, week, brand_label_id, grootte, inschatting_uren, herhalen)
  values (org, omschrijving, coalesce(prioriteit_id, ouder.prioriteit_id), coalesce(project.id, ouder.project_id),
          ouder.id, eigenaar, ik, deadline, week, label, grootte, inschatting, herhalen)
  returning id into nieuw;
  perform app_hidden.tags_zetten(org, nieuw, tags);

  -- The proposal shows the new task as its result does (def_taken), with the tags as given.
  w := app_hidden.taak_weergave(org, nieuw);
  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)),
      'hoort_bij', app_hidden.veld(null, w -> 'hoort_bij'),
      'onder_taak_nummer', app_hidden.veld(null, w -> 'onder_taak_nummer'),
      'eigenaar', app_hidden.veld(null, w -> 'eigenaar'),
      'deadline', app_hidden.veld(null, to_jsonb(deadline)),
      'week', app_hidden.veld(null, to_jsonb(week)),
      'herhalen', app_hidden.veld(null, to_jsonb(herhalen)),
      'grootte', app_hidden.veld(null, to_jsonb(grootte)),
      'inschatting_uren', app_hidden.veld(null, w -> 'inschatting_uren'),
      'tags', app_hidden.veld(null, to_jsonb(tags)),
      'brand_label', app_hidden.veld(null, w -> 'brand_label')),
    'resultaat', jsonb_build_object('taak', w));
end
$$;

create function api.taak_bijwerken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  gezocht uuid := app_hidden.param_verwijzing(p, 'taak_id', 'taak');
  velden constant text[] := array['stand', 'eigenaar_user_id', 'deadline', 'herhalen', 'omschrijving', 'week', 'tags',
                                  'brand_label', 'grootte', 'inschatting_uren'];
  oud app.taken;
  t app.taken;
  tags text[] := app_hidden.param_tags(p, 'tags');
  herhalen text := (p ->> 'herhalen');
  voorstel jsonb := '{}';
  oude_weergave jsonb;
  nieuwe_weergave jsonb;
begin
  if not (p ?| velden) then
    perform app_hidden.ongeldig('taak_id', 'Geef minstens één veld dat verandert.');
  end if;
  -- Lock the task before reading it: two confirmations at once each keep their change, and
  -- "what stands now" in the proposal is the row as the other left it. A role that may not
  -- update the task does not get the row (the update policy applies to FOR UPDATE).
  select * into oud from app.taken x where x.org_id = org and x.id = gezocht for update;
  if oud.id is null then
    perform app_hidden.fout('rol_mag_niet', 'Met jouw rol mag je deze taak niet bijwerken.');
  end if;
  t := oud;
  if p ? 'stand' then
    t.stand := (p ->> 'stand');
  end if;
  if p ? 'eigenaar_user_id' then t.eigenaar_user_id := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid'); end if;
  if p ? 'deadline' then t.deadline := app_hidden.param_datum(p, 'deadline'); end if;
  if p ? 'herhalen' then
    t.herhalen := nullif(herhalen, 'niet');
    if t.herhalen is not null and oud.ouder_id is not null then
      perform app_hidden.ongeldig('herhalen', 'Een subtaak herhaalt niet.');
    end if;
  end if;
  if p ? 'omschrijving' then t.omschrijving := (p ->> 'omschrijving'); end if;
  if p ? 'week' then t.week := app_hidden.param_week(p, 'week', org); end if;
  if p ? 'brand_label' then t.brand_label_id := app_hidden.param_verwijzing(p, 'brand_label', 'brand_label'); end if;
  if p ? 'grootte' and p ? 'inschatting_uren' and jsonb_typeof(p -> 'inschatting_uren') <> 'null' then
    perform app_hidden.regel_weigeren('taken_grootte_of_inschatting');
  end if;
  if p ? 'grootte' then
    t.grootte := (p ->> 'grootte');
    t.inschatting_uren := null;  -- the size fills the estimate
  end if;
  if p ? 'inschatting_uren' then
    t.inschatting_uren := (p ->> 'inschatting_uren')::numeric;
    if t.inschatting_uren is not null then t.grootte := null; end if;
  end if;

  oude_weergave := app_hidden.taak_weergave(org, oud.id);
  update app.taken x set stand = t.stand, eigenaar_user_id = t.eigenaar_user_id, deadline = t.deadline,
    herhalen = t.herhalen, omschrijving = t.omschrijving, week = t.week, brand_label_id = t.brand_label_id,
    grootte = t.grootte, inschatting_uren = t.inschatting_uren
  where x.org_id = org and x.id = oud.id;
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
