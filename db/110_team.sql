-- team: members, teams with their leader, business processes with their role seats (occupied
-- or open), open roles and members without a role. `team`/`teams` only when the organisation
-- has teams.
create function api.team(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
  with org as (
    select app_hidden.huidige_org() as id,
           exists (select 1 from app.teams t where t.org_id = app_hidden.huidige_org()) as heeft_teams
  ),
  leden as (
    select l.user_id, a.naam, l.rol, l.functietitel, t.id as team_id, t.naam as team_naam
    from org join app.lidmaatschappen l on l.org_id = org.id and l.actief
    join app.accounts a on a.id = l.user_id
    left join app.teams t on t.org_id = l.org_id and t.id = l.team_id
  ),
  rollen as (
    select r.proces_id, r.id, r.naam, r.user_id, pr.naam as proces_naam
    from org join app.rollen r on r.org_id = org.id
    join app.processen pr on pr.org_id = r.org_id and pr.id = r.proces_id
  )
  select jsonb_build_object(
    'leden', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', l.user_id, 'naam', l.naam, 'rol', l.rol,
                                          'functietitel', l.functietitel)
                       || case when org.heeft_teams then jsonb_build_object('team',
                            case when l.team_id is null then null
                                 else jsonb_build_object('id', l.team_id, 'naam', l.team_naam) end)
                          else '{}' end
                       order by l.naam, l.user_id)
      from leden l), '[]'),
    'processen', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', pr.id, 'naam', pr.naam,
        'eindverantwoordelijke', app_hidden.persoon(pr.org_id, pr.eindverantwoordelijke_user_id),
        'rollen', coalesce((select jsonb_agg(jsonb_build_object(
                              'id', r.id, 'naam', r.naam, 'wie', app_hidden.persoon(org.id, r.user_id))
                            order by r.naam, r.id)
                            from rollen r where r.proces_id = pr.id), '[]'))
        order by pr.volgorde, pr.naam, pr.id)
      from app.processen pr where pr.org_id = org.id), '[]'),
    'open_rollen', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'naam', r.naam, 'proces', r.proces_naam)
                       order by r.proces_naam, r.naam, r.id)
      from rollen r where r.user_id is null), '[]'),
    'zonder_rol', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', l.user_id, 'naam', l.naam) order by l.naam, l.user_id)
      from leden l
      where not exists (select 1 from rollen r where r.user_id = l.user_id)
        and not exists (select 1 from app.processen pr
                        where pr.org_id = org.id and pr.eindverantwoordelijke_user_id = l.user_id)), '[]'))
    || case when org.heeft_teams then jsonb_build_object('teams', (
         select jsonb_agg(jsonb_build_object('id', t.id, 'naam', t.naam,
                                             'leider', app_hidden.persoon(t.org_id, t.leider_user_id))
                          order by t.naam, t.id)
         from app.teams t where t.org_id = org.id))
       else '{}' end
  from org);
end
$$;

-- The `team` key of an answer or event: {"team": {id, naam} or null} when the organisation
-- has teams, and no key at all when it has none (the interface: "present when the
-- organisation has teams").
create function app_hidden.team_veld(_org uuid, _team uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) or not exists (select 1 from app.teams t where t.org_id = _org) then return '{}'; end if;
  return jsonb_build_object('team', (select jsonb_build_object('id', t.id, 'naam', t.naam) from app.teams t
                                     where t.org_id = _org and t.id = _team));
end
$$;

-- The team filter of prioriteiten and kpi_scorebord: no filter (null), one team, or 'geen'
-- (company-wide, given by app_hidden.param_verwijzing as the nil uuid).
create function app_hidden.in_team(_team_id uuid, _filter uuid) returns boolean
language sql immutable parallel safe as $$
  select _filter is null or _team_id is not distinct from nullif(_filter, '00000000-0000-0000-0000-000000000000')
$$;
