-- Hours per person over a period, split by what they went to: a priority, a project, or loose
-- (a task under neither, or no task at all). Who may not see all hours gets only their own.

-- The hours of a period per person and per priority or project (both null: loose). An hour on
-- a task counts for the task's priority or project. Counts the hours of tasks and private
-- projects the caller may not see row by row; which of them the caller gets follows the right
-- on uren ('alles': everyone's, else only their own), as the policy on app.uren does. The one
-- definition of the hours figures.
create function app_hidden.uren_verdeling(_org uuid, _van date, _tot date, _user uuid)
returns table (wie uuid, prioriteit uuid, project uuid, aantal numeric)
language plpgsql stable security definer set search_path = '' as $$
declare
  ik uuid := app_hidden.huidige_gebruiker();
  recht text := app_hidden.mijn_recht('uren');
begin
  if not app_hidden.eigen_org(_org) or not app_hidden.sectie_zichtbaar('prioriteiten') or recht = 'geen' then
    return;
  end if;
  return query
    select u.user_id, coalesce(t.prioriteit_id, u.prioriteit_id), coalesce(t.project_id, u.project_id), sum(u.uren)
    from app.uren u left join app.taken t on t.org_id = u.org_id and t.id = u.taak_id
    where u.org_id = _org and u.datum between _van and _tot
      and (_user is null or u.user_id = _user)
      and (recht = 'alles' or u.user_id = ik)
    group by 1, 2, 3;
end
$$;

create function api.uren(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  vandaag date := app_hidden.vandaag(org);
  van date := coalesce(app_hidden.param_datum(p, 'van'), date_trunc('month', vandaag)::date);
  tot date := coalesce(app_hidden.param_datum(p, 'tot'), (date_trunc('month', vandaag) + interval '1 month' - interval '1 day')::date);
  wie uuid := app_hidden.param_verwijzing(p, 'user_id', 'lid');
  alleen_eigen boolean := app_hidden.mijn_recht('uren') <> 'alles';
begin
  if tot < van then
    perform app_hidden.ongeldig('tot', format('tot (%s) ligt voor van (%s).', tot, van));
  end if;
  if alleen_eigen and wie is distinct from ik then
    if wie is not null then
      perform app_hidden.fout('rol_mag_niet', 'Met jouw rol zie je alleen je eigen uren.', 'user_id');
    end if;
    wie := ik;
  end if;
  return (
    with v as (select * from app_hidden.uren_verdeling(org, van, tot, wie)),
    personen as (
      select l.user_id from app.lidmaatschappen l
      where l.org_id = org and ((wie is null and l.actief) or l.user_id = wie)
      union
      select v.wie from v
    )
    select jsonb_build_object('van', van, 'tot', tot, 'alleen_eigen', alleen_eigen)
      || case when alleen_eigen then jsonb_build_object('toelichting', 'Je ziet alleen je eigen uren.') else '{}' end
      || jsonb_build_object(
        'totaal', coalesce((select sum(v.aantal) from v), 0),
        'personen', coalesce(jsonb_agg(jsonb_build_object(
          'persoon', app_hidden.persoon(org, x.user_id),
          'uren', coalesce((select sum(v.aantal) from v where v.wie = x.user_id), 0),
          'per_prioriteit', coalesce((
            select jsonb_agg(jsonb_build_object('id', pr.id, 'titel', pr.titel, 'uren', v.aantal) order by v.aantal desc, pr.titel, pr.id)
            from v join app.prioriteiten pr on pr.org_id = org and pr.id = v.prioriteit
            where v.wie = x.user_id), '[]'),
          -- A private project the caller does not work on counts, without its name.
          'per_project', coalesce((
            select jsonb_agg(jsonb_build_object('id', pj.id, 'titel', pj.titel, 'uren', v.uren)
                               || case when pj.id is null then '{"besloten": true}'::jsonb else '{}' end
                             order by pj.id is null, v.uren desc, pj.titel, pj.id)
            from (select v.project, sum(v.aantal) as uren from v where v.wie = x.user_id and v.project is not null
                  group by 1) v
            left join app.projecten pj on pj.org_id = org and pj.id = v.project), '[]'),
          'losse_taken', coalesce((select sum(v.aantal) from v
                                   where v.wie = x.user_id and v.prioriteit is null and v.project is null), 0))
          order by a.naam, x.user_id), '[]'))
    from personen x join app.accounts a on a.id = x.user_id);
end
$$;

-- Policies ------------------------------------------------------------------------------------
-- No free text (omschrijving): the doors show hours as figures only.
grant select (org_id, id, user_id, datum, uren, taak_id, prioriteit_id, project_id) on app.uren to koers_door;
create policy "members see their own hours, those who may see all hours everyone's" on app.uren
  for select to koers_door
  using (org_id = (select app_hidden.huidige_org()) and (select app_hidden.sectie_zichtbaar('prioriteiten'))
         and (select app_hidden.mijn_recht('uren')) <> 'geen'
         and (user_id = (select app_hidden.huidige_gebruiker()) or (select app_hidden.mijn_recht('uren')) = 'alles')
         and (project_id is null or app_hidden.project_zichtbaar(org_id, project_id))
         and (taak_id is null or exists (select 1 from app.taken t where t.org_id = uren.org_id and t.id = uren.taak_id)));
