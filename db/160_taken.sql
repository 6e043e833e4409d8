-- Tasks: under a priority, in a project, or loose; subtasks one layer deep; repetition; tags.
-- This file: how a task is shown, and the reads (taken, taak_geschiedenis). History and events
-- are written by triggers (163_taken_history_events.sql), the writes are in 166_taken_writes.sql.

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

-- Reads --------------------------------------------------------------------------------------

create function api.taken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  een uuid := app_hidden.param_verwijzing(p, 'nummer', 'taaknummer');
  f_soort text := (p ->> 'soort');
  f_hoort_bij uuid := (p ->> 'hoort_bij_id')::uuid;
  f_eigenaar uuid := (p ->> 'eigenaar_user_id')::uuid;
  f_afgesloten boolean := coalesce((p ->> 'ook_afgesloten')::boolean, false);
  f_week text := app_hidden.param_week(p, 'week', org, false);
  f_tags text[] := (select array_agg(lower(x)) from unnest(app_hidden.param_tags(p, 'tags')) x);
  ids uuid[];
begin
  if een is not null then
    return jsonb_build_object('taken', jsonb_build_array(app_hidden.taak_weergave(org, een)), 'afgekapt', false);
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
  t app.taken;
begin
  select * into t from app.taken x
  where x.org_id = org and x.id = app_hidden.param_verwijzing(p, 'nummer', 'taaknummer');
  return jsonb_build_object('taak', jsonb_build_object('id', t.id, 'nummer', t.nummer, 'omschrijving', t.omschrijving),
    'geschiedenis', coalesce((
      select jsonb_agg(jsonb_build_object('soort', g.soort, 'door', app_hidden.persoon(org, g.door_user_id),
                                          'tijdstip', g.tijdstip, 'oud', g.oud, 'nieuw', g.nieuw)
                       order by g.tijdstip desc, g.id desc)
      from app.taak_geschiedenis g where g.org_id = org and g.taak_id = t.id), '[]'));
end
$$;
