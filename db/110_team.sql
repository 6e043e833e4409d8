-- Definitions (docs/definitions.md): members with their team, teams with their leader, business
-- processes with their owner, role seats with who holds them. Views over the tenant tables as the
-- caller reads them (RLS), naming people through app_hidden.def_personen.
create view app_hidden.def_leden with (security_invoker = true) as
  select l.org_id, l.user_id, p.naam, l.rol, l.functietitel, l.actief, l.team_id, t.naam as team_naam,
         l.aangemaakt_op, l.bijgewerkt_op
  from app.lidmaatschappen l
  join app_hidden.def_personen p on p.org_id = l.org_id and p.user_id = l.user_id
  left join app.teams t on t.org_id = l.org_id and t.id = l.team_id;

create view app_hidden.def_teams with (security_invoker = true) as
  select t.org_id, t.id, t.naam, t.leider_user_id, p.naam as leider_naam
  from app.teams t
  left join app_hidden.def_personen p on p.org_id = t.org_id and p.user_id = t.leider_user_id;

create view app_hidden.def_processen with (security_invoker = true) as
  select pr.org_id, pr.id, pr.naam, pr.volgorde, pr.eindverantwoordelijke_user_id,
         p.naam as eindverantwoordelijke_naam
  from app.processen pr
  left join app_hidden.def_personen p on p.org_id = pr.org_id and p.user_id = pr.eindverantwoordelijke_user_id;

create view app_hidden.def_rollen with (security_invoker = true) as
  select r.org_id, r.id, r.proces_id, pr.naam as proces_naam, r.naam, r.user_id as wie_user_id, p.naam as wie_naam
  from app.rollen r
  join app.processen pr on pr.org_id = r.org_id and pr.id = r.proces_id
  left join app_hidden.def_personen p on p.org_id = r.org_id and p.user_id = r.user_id;

grant select on app_hidden.def_leden, app_hidden.def_teams, app_hidden.def_processen, app_hidden.def_rollen
  to koers_door;

-- team: members, teams with their leader, business processes with their role seats (occupied
-- or open), open roles and members without a role. `team`/`teams` only when the organisation
-- has teams. One statement over the definitions, built as json text and made jsonb once
-- (building jsonb per element and gathering it with jsonb_agg takes every value apart and puts it
-- together again). A key present only with teams is the first pair of its object, named after
-- the object's next key when there are no teams: jsonb keeps the last value of a key, so then
-- the key is absent and the object the same.
create function api.team(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
  -- Materialized: heeft_teams is read several times, and is worked out once.
  with org as materialized (select exists (select 1 from app.teams) as heeft_teams),
  leden as (select * from app_hidden.def_leden l where l.actief),
  rollen as (select * from app_hidden.def_rollen),
  processen as (select * from app_hidden.def_processen)
  select json_build_object(
    case when org.heeft_teams then 'teams' else 'leden' end, case when org.heeft_teams then (
         select json_agg(json_build_object('id', t.id, 'naam', t.naam,
                                           'leider', app_hidden.persoon_weergave(t.leider_user_id, t.leider_naam))
                         order by t.naam, t.id)
         from app_hidden.def_teams t) end,
    'leden', coalesce((
      select json_agg(json_build_object(
                        case when org.heeft_teams then 'team' else 'user_id' end,
                        case when org.heeft_teams and l.team_id is not null
                             then json_build_object('id', l.team_id, 'naam', l.team_naam) end,
                        'user_id', l.user_id, 'naam', l.naam, 'rol', l.rol, 'functietitel', l.functietitel)
                      order by l.naam, l.user_id)
      from leden l), '[]'),
    'processen', coalesce((
      select json_agg(json_build_object(
        'id', pr.id, 'naam', pr.naam,
        'eindverantwoordelijke', app_hidden.persoon_weergave(pr.eindverantwoordelijke_user_id, pr.eindverantwoordelijke_naam),
        'rollen', coalesce(r.rollen, '[]'))
        order by pr.volgorde, pr.naam, pr.id)
      from processen pr
      left join (select r.proces_id,
                        json_agg(json_build_object('id', r.id, 'naam', r.naam,
                                                   'wie', app_hidden.persoon_weergave(r.wie_user_id, r.wie_naam))
                                 order by r.naam, r.id) as rollen
                 from rollen r group by r.proces_id) r on r.proces_id = pr.id), '[]'),
    'open_rollen', coalesce((
      select json_agg(json_build_object('id', r.id, 'naam', r.naam, 'proces', r.proces_naam)
                      order by r.proces_naam, r.naam, r.id)
      from rollen r where r.wie_user_id is null), '[]'),
    'zonder_rol', coalesce((
      select json_agg(json_build_object('user_id', l.user_id, 'naam', l.naam) order by l.naam, l.user_id)
      from leden l
      where not exists (select 1 from rollen r where r.wie_user_id = l.user_id)
        and not exists (select 1 from processen pr where pr.eindverantwoordelijke_user_id = l.user_id)), '[]'))::jsonb
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
  -- Company-wide without a look-up: a statement whose team is mostly null is planned anew for
  -- every call (a plan for null costs nothing, so one for any team never looks cheap enough).
  if _team is null then return jsonb_build_object('team', null); end if;
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
