-- Projects: a beginning and an end, not tied to a quarter, visible to the whole team when
-- created (making one private is done in the app).

-- Shared by the planning definitions ---------------------------------------------------------

-- "Now" on an organisation's calendar: the local date and time in its time zone.
create function app_hidden.moment(tijdzone text) returns timestamp
language sql stable parallel safe as $$
  select app_hidden.nu() at time zone tijdzone
$$;

-- Projects ---------------------------------------------------------------------------------

-- The project definition: every project the caller may see (running, finished, not yet begun).
-- Which private (besloten) projects a caller sees is the policy on app.projecten: only those the
-- caller works on (as owner, added to it, or owning one of its tasks; app_hidden.verborgen_projecten),
-- applied here under the caller's RLS. open_taken and uren count every task and every hour of the
-- project, also hours the caller may not see row by row (a member sees only their own hours, yet
-- the project's total): stored per project (db/115_project_sommen.sql). lopend: begun, not past
-- its deadline and not finished, on the organisation's calendar.
create view app_hidden.def_projecten with (security_invoker = true) as
  select p.org_id, p.id, p.titel, p.omschrijving, p.eigenaar_user_id, pe.naam as eigenaar_naam,
    p.startdatum, p.deadline, p.besloten, coalesce(ps.open_taken, 0)::integer as open_taken, coalesce(ps.uren, 0) as uren,
    p.afgerond_op is null and p.startdatum <= d.vandaag and (p.deadline is null or p.deadline >= d.vandaag) as lopend,
    p.brand_label_id, p.afgerond_op, p.aangemaakt_op, p.bijgewerkt_op
  from app.projecten p
  join app.organisaties o on o.org_id = p.org_id
  cross join lateral (select app_hidden.moment(o.tijdzone)::date as vandaag offset 0) d
  left join app_hidden.def_personen pe on pe.org_id = p.org_id and pe.user_id = p.eigenaar_user_id
  -- Its open tasks and its hours (on the project, or on one of its tasks), stored per project
  -- (app_hidden.project_sommen, db/115_project_sommen.sql).
  left join app_hidden.project_sommen_alle ps on ps.org = p.org_id and ps.project = p.id;

grant select on app_hidden.def_projecten to koers_door, koers_definer;

-- A project as every answer shows it (project_aanmaken, projecten).
create view app_hidden.project_weergaven with (security_invoker = true) as
  select d.org_id, d.id, d.lopend, d.deadline, d.titel,
    jsonb_build_object(
      'id', d.id, 'titel', d.titel, 'omschrijving', d.omschrijving,
      'eigenaar', app_hidden.persoon_weergave(d.eigenaar_user_id, d.eigenaar_naam),
      'looptijd', jsonb_build_object('van', d.startdatum, 'tot', d.deadline),
      'besloten', d.besloten, 'open_taken', d.open_taken, 'uren', d.uren) as weergave
  from app_hidden.def_projecten d;

grant select on app_hidden.project_weergaven to koers_door, koers_definer;

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
  w jsonb;
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
  select x.weergave into w from app_hidden.project_weergaven x where x.org_id = org and x.id = nieuw;

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'titel', app_hidden.veld(null, to_jsonb(titel)),
      'eigenaar', app_hidden.veld(null, w -> 'eigenaar'),
      'looptijd', app_hidden.veld(null, jsonb_build_object('van', start, 'tot', deadline)),
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)),
      'besloten', app_hidden.veld(null, 'false')),
    'resultaat', jsonb_build_object('project', w));
end
$$;

-- Only running projects the caller can see in the app (the policy hides private ones).
create function api.projecten(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
begin
  return jsonb_build_object('projecten', coalesce((
    select jsonb_agg(w.weergave order by w.deadline nulls last, w.titel, w.id)
    from app_hidden.project_weergaven w
    where w.org_id = org and w.lopend), '[]'));
end
$$;
