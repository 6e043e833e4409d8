-- Projects: a beginning and an end, not tied to a quarter, visible to the whole team when
-- created (making one private is done in the app).

-- Open tasks and hours spent count every task and hour of the project, also those the caller
-- may not see row by row (a member sees only their own hours, yet the project's total).
create function app_hidden.project_cijfers(_org uuid, _project uuid,
                                           out open_taken integer, out uren numeric)
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) then return; end if;
  open_taken := (select count(*)::integer from app.taken t
     where t.org_id = _org and t.project_id = _project and t.verwijderd_op is null
       and t.stand not in ('voltooid', 'vervallen'));
  uren := (select coalesce(sum(u.uren), 0) from app.uren u
     where u.org_id = _org
       and (u.project_id = _project
            or u.taak_id in (select t.id from app.taken t
                             where t.org_id = _org and t.project_id = _project)));
end
$$;

-- A project as every answer shows it (project_aanmaken, projecten).
create function app_hidden.project_weergave(_org uuid, _project uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (select jsonb_build_object(
    'id', p.id, 'titel', p.titel, 'omschrijving', p.omschrijving,
    'eigenaar', app_hidden.persoon(p.org_id, p.eigenaar_user_id),
    'looptijd', jsonb_build_object('van', p.startdatum, 'tot', p.deadline),
    'besloten', p.besloten,
    'open_taken', c.open_taken,
    'uren', c.uren)
  from app.projecten p, app_hidden.project_cijfers(p.org_id, p.id) c
  where p.org_id = _org and p.id = _project);
end
$$;

create function api.project_aanmaken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  titel text := (p ->> 'titel');
  eigenaar uuid := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid');
  omschrijving text := (p ->> 'omschrijving');
  deadline date := app_hidden.param_datum(p, 'deadline');
  start date := app_hidden.vandaag(org);
  nieuw uuid;
begin
  if deadline < start then
    perform app_hidden.ongeldig('deadline',
      format('deadline %s ligt voor vandaag (%s); een project loopt vanaf vandaag.', deadline, start));
  end if;

  insert into app.projecten (org_id, titel, omschrijving, eigenaar_user_id, startdatum, deadline,
                             aangemaakt_door)
  values (org, titel, omschrijving, eigenaar, start, deadline, ik)
  returning id into nieuw;
  insert into app.project_leden (org_id, project_id, user_id)
  select distinct org, nieuw, u from unnest(array[ik, eigenaar]) u;

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'titel', app_hidden.veld(null, to_jsonb(titel)),
      'eigenaar', app_hidden.veld(null, app_hidden.persoon(org, eigenaar)),
      'looptijd', app_hidden.veld(null, jsonb_build_object('van', start, 'tot', deadline)),
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)),
      'besloten', app_hidden.veld(null, 'false')),
    'resultaat', jsonb_build_object('project', app_hidden.project_weergave(org, nieuw)));
end
$$;

-- Only running projects the caller can see in the app (the policy hides private ones).
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
