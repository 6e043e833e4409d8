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

-- Changes the given fields of a task. The proposal shows per field what stands now and what it
-- becomes, as the task definition (app_hidden.def_taken) shows it. For the fields that are the
-- row's own values (stand through stand_lezen, as the definition does) both come from the row:
-- as locked, and as written. Only when a field the definition looks up or works out is given
-- (eigenaar, brand_label, tags, grootte, inschatting_uren) are both sides rendered, before and
-- after the change (such a change may also hide the task from the caller, and then the render
-- says so for every field). The result is a render after the change; the trial run of a
-- proposal (koers.proef, api.aanroep) throws it away, so there it is not made unless the
-- proposal needs it. Nor is the row written there when the proposal needs neither the written
-- row nor what the write would set off (see "proef" below).
create function api.taak_bijwerken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  velden constant text[] := array['stand', 'eigenaar_user_id', 'deadline', 'herhalen', 'omschrijving', 'week', 'tags',
                                  'brand_label', 'grootte', 'inschatting_uren'];
  -- The task, found, checked and locked in one statement (see below).
  taak cursor (_id uuid) for
    select * from app.taken x where x.org_id = org and x.id = _id and x.verwijderd_op is null for update;
  oud app.taken;
  t app.taken;
  tags text[];
  herhalen text := (p ->> 'herhalen');
  voorstel jsonb;
  oude_weergave jsonb;
  nieuwe_weergave jsonb;
  afgeleid constant boolean := p ?| array['eigenaar_user_id', 'brand_label', 'tags', 'grootte', 'inschatting_uren'];
  proef constant boolean := coalesce(current_setting('koers.proef', true) = 'ja', false);
  na jsonb;  -- what the proposal shows as the task after the change
begin
  -- Find and lock the task in one statement: two confirmations at once each keep their change,
  -- and "what stands now" in the proposal is the row as the other left it. A role that may not
  -- update the task does not get the row (the update policy applies to FOR UPDATE). Only when
  -- it is not found does the reference say why (a task the caller cannot see, or deleted),
  -- before the checks below, as it always has.
  taak := null;  -- a portal name of its own, never one a caller's cursor holds ('taak')
  open taak((p ->> 'taak_id')::uuid);
  fetch taak into oud;
  if oud.id is null then
    perform app_hidden.param_verwijzing(p, 'taak_id', 'taak');
  end if;
  if p ? 'tags' then tags := app_hidden.param_tags(p, 'tags'); end if;
  if not (p ?| velden) then
    perform app_hidden.ongeldig('taak_id', 'Geef minstens één veld dat verandert.');
  end if;
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

  if afgeleid then
    oude_weergave := app_hidden.taak_weergave(org, oud.id);
  end if;
  -- The row the cursor locked: the update reads no column of it, so only the update policies
  -- apply (the read policies were applied when it was locked, a moment ago).
  --
  -- In the trial run of a proposal that gives none of the looked-up fields, and does not tick
  -- off a repeating task (whose next occurrence the update makes), the write is left out: its
  -- proposal is the locked row and the values checked above, and the write could not refuse
  -- them. The lock (FOR UPDATE) already applied the update policies' USING; the row's
  -- organisation stays (the WITH CHECK); no foreign key changes; the check constraints hold
  -- for what is set here (stand and herhalen are values of their lists, an omschrijving is
  -- non-empty after trim, a week is checked by param_week, a subtask does not repeat) and
  -- for the rest of the row, as it stands (no constraint of app.taken is NOT VALID).
  if not proef or afgeleid
     or (t.stand = 'voltooid' and oud.stand <> 'voltooid' and t.herhalen is not null) then
    update app.taken set stand = t.stand, eigenaar_user_id = t.eigenaar_user_id, deadline = t.deadline,
      herhalen = t.herhalen, omschrijving = t.omschrijving, week = t.week, brand_label_id = t.brand_label_id,
      grootte = t.grootte, inschatting_uren = t.inschatting_uren
    where current of taak;
  end if;
  close taak;
  if tags is not null then perform app_hidden.tags_zetten(org, oud.id, tags); end if;

  -- The proposal: per field that was given, what stands now and what it becomes.
  if afgeleid or not proef then
    nieuwe_weergave := app_hidden.taak_weergave(org, oud.id);
  end if;
  if afgeleid then
    na := nieuwe_weergave;
  else
    -- The row as written, as the definition shows it: the task stays visible to the caller, and
    -- these fields are the row's own (the triggers before an update change none of them).
    na := jsonb_build_object('stand', app_hidden.stand_lezen(t.stand), 'deadline', t.deadline, 'herhalen', t.herhalen,
                             'omschrijving', t.omschrijving, 'week', t.week);
  end if;
  voorstel := jsonb_build_object('taak', app_hidden.veld(
      jsonb_build_object('nummer', oud.nummer, 'omschrijving', oud.omschrijving),
      jsonb_build_object('nummer', oud.nummer, 'omschrijving', t.omschrijving)));
  if p ? 'stand' then
    voorstel := voorstel || jsonb_build_object('stand',
      app_hidden.veld(to_jsonb(app_hidden.stand_lezen(oud.stand)), na -> 'stand'));
  end if;
  if p ? 'eigenaar_user_id' then
    voorstel := voorstel || jsonb_build_object('eigenaar',
      app_hidden.veld(oude_weergave -> 'eigenaar', na -> 'eigenaar'));
  end if;
  if p ? 'deadline' then
    voorstel := voorstel || jsonb_build_object('deadline', app_hidden.veld(to_jsonb(oud.deadline), na -> 'deadline'));
  end if;
  if p ? 'herhalen' then
    voorstel := voorstel || jsonb_build_object('herhalen', app_hidden.veld(to_jsonb(oud.herhalen), na -> 'herhalen'));
  end if;
  if p ? 'omschrijving' then
    voorstel := voorstel || jsonb_build_object('omschrijving',
      app_hidden.veld(to_jsonb(oud.omschrijving), na -> 'omschrijving'));
  end if;
  if p ? 'week' then
    voorstel := voorstel || jsonb_build_object('week', app_hidden.veld(to_jsonb(oud.week), na -> 'week'));
  end if;
  if p ? 'tags' then
    voorstel := voorstel || jsonb_build_object('tags', app_hidden.veld(oude_weergave -> 'tags', na -> 'tags'));
  end if;
  if p ? 'brand_label' then
    voorstel := voorstel || jsonb_build_object('brand_label',
      app_hidden.veld(oude_weergave -> 'brand_label', na -> 'brand_label'));
  end if;
  if p ?| array['grootte', 'inschatting_uren'] then
    voorstel := voorstel || jsonb_build_object(
      'grootte', app_hidden.veld(oude_weergave -> 'grootte', na -> 'grootte'),
      'inschatting_uren', app_hidden.veld(oude_weergave -> 'inschatting_uren', na -> 'inschatting_uren'));
  end if;
  return jsonb_build_object('voorstel', voorstel, 'resultaat', jsonb_build_object('taak', nieuwe_weergave));
end
$$;
