-- Reflections per person per month or quarter (annual ones are written in the app): what went
-- well, what can be better, what was learned, focus and energy. A caller always sees their own;
-- the team's only once the round is open: everyone has submitted, the caller too.

-- The first and last day of a period as the app writes it: a year <yyyy>, a month <yyyy>-<mm>,
-- a quarter Q<n>-<yyyy> or <yyyy>-Q<n>. Null for anything else (no year 0, no month 13). SQL
-- expressions, inlined where a query orders or filters by them (no function call per row).
create function app_hidden.periode_van(_periode text) returns date
language sql immutable parallel safe as $$
  select case
    when _periode ~ '^0000' or _periode ~ '-0000$' then null
    when _periode ~ '^\d{4}$' then make_date(_periode::int, 1, 1)
    when _periode ~ '^\d{4}-(0[1-9]|1[0-2])$' then make_date(substr(_periode, 1, 4)::int, substr(_periode, 6, 2)::int, 1)
    when _periode ~ '^(Q[1-4]-\d{4}|\d{4}-Q[1-4])$'
      then make_date(substring(_periode from '\d{4}')::int, (substring(_periode from 'Q([1-4])')::int - 1) * 3 + 1, 1)
  end
$$;

create function app_hidden.periode_eind(_periode text) returns date
language sql immutable parallel safe as $$
  select case
    when _periode ~ '^0000' or _periode ~ '-0000$' then null
    when _periode ~ '^\d{4}$' then make_date(_periode::int, 12, 31)
    when _periode ~ '^\d{4}-(0[1-9]|1[0-2])$'
      then (make_date(substr(_periode, 1, 4)::int, substr(_periode, 6, 2)::int, 1) + interval '1 month' - interval '1 day')::date
    when _periode ~ '^(Q[1-4]-\d{4}|\d{4}-Q[1-4])$'
      then (make_date(substring(_periode from '\d{4}')::int, substring(_periode from 'Q([1-4])')::int * 3, 1)
            + interval '1 month' - interval '1 day')::date
  end
$$;

-- A reflection's period as app.reflecties stores it (<yyyy>-<mm>, <yyyy>-Q<n>, <yyyy>) from how
-- the interface spells it for its kind (a month, Q<n>-<yyyy>, a year), or null when it is not a
-- period of that kind. For every writer of reflections (the doors, the CLI, the import).
create function app_hidden.reflectie_periode(_soort text, _periode text) returns text
language plpgsql immutable set search_path = '' as $$
declare van date := app_hidden.periode_van(_periode);
begin
  if van is null then return null; end if;
  return case
    when _soort = 'maand' and _periode ~ '^\d{4}-\d{2}$' then _periode
    when _soort = 'kwartaal' and _periode ~ 'Q' then to_char(van, 'YYYY-"Q"Q')
    when _soort = 'jaar' and _periode ~ '^\d{4}$' then _periode
  end;
end
$$;

-- A stored period as the interface spells it: a quarter is Q<n>-<yyyy>.
create function app_hidden.reflectie_periode_label(_periode text) returns text
language sql immutable parallel safe as $$
  select case when _periode ~ '^\d{4}-Q[1-4]$' then right(_periode, 2) || '-' || left(_periode, 4) else _periode end
$$;

create function app_hidden.param_reflectie_periode(p jsonb, naam text, _soort text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v text := p ->> naam;
  periode text := app_hidden.reflectie_periode(_soort, v);
begin
  if v is not null and periode is null then
    perform app_hidden.ongeldig(naam, format('%s %s is geen %s; gebruik %s.', naam, v, _soort,
      case _soort when 'maand' then 'een maand als 2026-04' when 'kwartaal' then 'een kwartaal als Q2-2026' else 'een jaar als 2026' end));
  end if;
  return periode;
end
$$;

-- team_zichtbaar: the round of one period is open for the caller when every active member whose
-- role has reflections has submitted, the caller too. Counts everyone, also rows the caller may
-- not see yet: the one definition, used by the answer (def_reflecties) and by the policy, which
-- call it once per statement ("(select ...)") for the rounds (soort, periode) that are open.
create function app_hidden.open_rondes() returns table (soort text, periode text)
language plpgsql stable security definer set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  -- The roles that have reflections (a right on reflecties): one look-up per role, not per member.
  rollen text[] := array(select r from unnest(app_hidden.keuzes('rol')) r
                         where app_hidden.recht(org, r, 'reflecties') <> 'geen');
begin
  return query
    select r.soort, r.periode from app.reflecties r
    where r.org_id = org and r.user_id = ik and r.ingediend_op is not null
      and not exists (select 1 from app.lidmaatschappen l
                      where l.org_id = org and l.actief and l.rol = any (rollen)
                        and not exists (select 1 from app.reflecties x
                                        where x.org_id = org and x.soort = r.soort and x.periode = r.periode
                                          and x.user_id = l.user_id and x.ingediend_op is not null));
end
$$;

-- The latest period of a kind in which someone wrote something (the default of reflecties). It
-- names only a period, never whose or what.
create function app_hidden.reflectie_laatste_periode(_org uuid, _soort text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) or not app_hidden.sectie_zichtbaar('reviews')
     or app_hidden.mijn_recht('reflecties') = 'geen' then
    return null;
  end if;
  return (select r.periode from app.reflecties r
          where r.org_id = _org and r.soort = _soort
            and (r.ingediend_op is not null or r.energie is not null
                 or coalesce(r.goed, r.beter, r.geleerd, r.focus) is not null)
          order by app_hidden.periode_van(r.periode) desc nulls last
          limit 1);
end
$$;

-- Definition (docs/definitions.md): the reflections the caller may see (the policy below), with
-- the writer and whether the round of their period is open for the caller (team_zichtbaar).
create view app_hidden.def_reflecties with (security_invoker = true) as
  select r.org_id, r.id, r.user_id as persoon_user_id, p.naam as persoon_naam, r.soort, r.periode,
         app_hidden.reflectie_periode_label(r.periode) as periode_label,
         r.goed, r.beter, r.geleerd, r.focus, r.energie, r.ingediend_op is not null as ingediend, r.ingediend_op,
         (r.soort, r.periode) in (select o.soort, o.periode from app_hidden.open_rondes() o) as team_zichtbaar
  from app.reflecties r
  left join app_hidden.def_personen p on p.org_id = r.org_id and p.user_id = r.user_id;
grant select on app_hidden.def_reflecties to koers_door;

-- The policy below decides which rows the caller gets: their own, and the team's submitted
-- ones once the round is open.
create function api.reflecties(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  gekozen_soort text := p ->> 'soort';
  gekozen_periode text := coalesce(app_hidden.param_reflectie_periode(p, 'periode', gekozen_soort),
                                   app_hidden.reflectie_laatste_periode(app_hidden.huidige_org(), gekozen_soort));
begin
  return jsonb_build_object(
    'soort', gekozen_soort,
    'periode', app_hidden.reflectie_periode_label(gekozen_periode),
    'team_zichtbaar', exists (select 1 from app_hidden.open_rondes() o
                              where o.soort = gekozen_soort and o.periode = gekozen_periode),
    'reflecties', coalesce((
      select jsonb_agg(jsonb_build_object('persoon', app_hidden.persoon_weergave(r.persoon_user_id, r.persoon_naam),
                         'goed', r.goed, 'beter', r.beter, 'geleerd', r.geleerd, 'focus', r.focus, 'energie', r.energie,
                         'ingediend', r.ingediend, 'ingediend_op', r.ingediend_op)
                       order by r.persoon_naam, r.persoon_user_id)
      from app_hidden.def_reflecties r
      where r.soort = gekozen_soort and r.periode = gekozen_periode), '[]'));
end
$$;

-- Policies ------------------------------------------------------------------------------------
-- Submitting (ingediend_op) records reflectie.ingediend by a trigger of the webhooks part.
grant select (org_id, id, user_id, soort, periode, goed, beter, geleerd, focus, energie, ingediend_op)
  on app.reflecties to koers_door;
create policy "members see their own reflections, and the team's once everyone submitted" on app.reflecties
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mag_lezen('reviews', 'reflecties'))
         and (user_id = (select g.user_id from app_hidden.mijn_gebruiker() g)
              or (ingediend_op is not null
                  and (soort, periode) in (select o.soort, o.periode from app_hidden.open_rondes() o))));
