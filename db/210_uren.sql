-- Hours per person over a period, split by what they went to: a priority, a project, or loose
-- (a task under neither, or no task at all). Who may not see all hours gets only their own.

-- Definition (docs/definitions.md): the hours the caller gets, each with the priority or project
-- it counts for (an hour on a task counts for the task's priority or project; both null: loose).
-- Holds the hours of tasks and private projects the caller may not see row by row; which hours
-- follows the right on uren ('alles': everyone's, else only their own), as the policy on app.uren
-- does. Owned by koers_definer, so it reads app.uren and app.taken whole and fences itself on the
-- caller (each helper once per statement). It names no task: one the caller may not see stays
-- unnamed, as in the answer. The one definition of the hours figures.
create view app_hidden.def_uren as
  select u.org_id, u.id, u.user_id as persoon_user_id, p.naam as persoon_naam, u.datum, u.uren,
         coalesce(t.prioriteit_id, u.prioriteit_id) as prioriteit_id, coalesce(t.project_id, u.project_id) as project_id
  from app.uren u
  left join app.taken t on t.org_id = u.org_id and t.id = u.taak_id
  left join app_hidden.def_personen p on p.org_id = u.org_id and p.user_id = u.user_id
  where u.org_id = (select o.org from app_hidden.mijn_org() o)
    and (select app_hidden.mag_lezen('prioriteiten', 'uren'))
    and ((select app_hidden.mijn_recht('uren')) = 'alles' or u.user_id = (select g.user_id from app_hidden.mijn_gebruiker() g));
alter view app_hidden.def_uren owner to koers_definer;
grant select on app_hidden.def_uren to koers_door;

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
    with v as (
      select u.persoon_user_id as wie, u.prioriteit_id as prioriteit, u.project_id as project, sum(u.uren) as aantal
      from app_hidden.def_uren u
      where u.datum between van and tot and (wie is null or u.persoon_user_id = wie)
      group by 1, 2, 3
    ),
    personen as (
      select l.user_id from app_hidden.def_leden l
      where (wie is null and l.actief) or l.user_id = wie
      union
      select v.wie from v
    ),
    -- Per person in one pass each (not a look-up in v per person): the hours, the loose ones,
    -- per priority, and per project. Materialized: the planner, guessing one row of v, would
    -- otherwise work each out again for every person.
    som as materialized (
      select v.wie, sum(v.aantal) as uren,
             sum(v.aantal) filter (where v.prioriteit is null and v.project is null) as los
      from v group by v.wie
    ),
    per_prioriteit as materialized (
      select v.wie, jsonb_agg(jsonb_build_object('id', pr.id, 'titel', pr.titel, 'uren', v.aantal)
                              order by v.aantal desc, pr.titel, pr.id) as lijst
      from v join app.prioriteiten pr on pr.org_id = org and pr.id = v.prioriteit
      group by v.wie
    ),
    -- A private project the caller does not work on counts, without its name.
    per_project as materialized (
      select v.wie, jsonb_agg(jsonb_build_object('id', pj.id, 'titel', pj.titel, 'uren', v.uren)
                                || case when pj.id is null then '{"besloten": true}'::jsonb else '{}' end
                              order by pj.id is null, v.uren desc, pj.titel, pj.id) as lijst
      from (select v.wie, v.project, sum(v.aantal) as uren from v where v.project is not null group by 1, 2) v
      left join app.projecten pj on pj.org_id = org and pj.id = v.project
      group by v.wie
    )
    select jsonb_build_object('van', van, 'tot', tot, 'alleen_eigen', alleen_eigen)
      || case when alleen_eigen then jsonb_build_object('toelichting', 'Je ziet alleen je eigen uren.') else '{}' end
      || jsonb_build_object(
        'totaal', coalesce((select sum(v.aantal) from v), 0),
        'personen', coalesce(jsonb_agg(jsonb_build_object(
          'persoon', app_hidden.persoon_weergave(a.user_id, a.naam),
          'uren', coalesce(s.uren, 0),
          'per_prioriteit', coalesce(pp.lijst, '[]'),
          'per_project', coalesce(pj.lijst, '[]'),
          'losse_taken', coalesce(s.los, 0))
          order by a.naam, x.user_id), '[]'))
    from personen x join app_hidden.def_personen a on a.user_id = x.user_id
    left join som s on s.wie = x.user_id
    left join per_prioriteit pp on pp.wie = x.user_id
    left join per_project pj on pj.wie = x.user_id);
end
$$;

-- Policies ------------------------------------------------------------------------------------
-- No free text (omschrijving): the doors show hours as figures only.
grant select (org_id, id, user_id, datum, uren, taak_id, prioriteit_id, project_id) on app.uren to koers_door;
create policy "members see their own hours, those who may see all hours everyone's" on app.uren
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mag_lezen('prioriteiten', 'uren'))
         and (user_id = (select g.user_id from app_hidden.mijn_gebruiker() g) or (select app_hidden.mijn_recht('uren')) = 'alles')
         and (project_id is null or not project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[]))
         and (taak_id is null or exists (select 1 from app.taken t where t.org_id = uren.org_id and t.id = uren.taak_id)));
