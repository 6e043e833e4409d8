-- KPIs: the scoreboard with traffic lights, new KPIs, and measurements.

-- The measurement definition: every measurement of every KPI the caller may see, with the
-- quarter it counts in (a week counts where its Thursday is).
create view app_hidden.def_kpi_metingen with (security_invoker = true) as
  select m.org_id, m.kpi_id, m.periode, m.periode_start, m.periode_eind,
    app_hidden.periode_kwartaal(m.periode_start, k.cadans) as kwartaal_start,
    m.waarde, m.toelichting, m.ingevoerd_door as ingevoerd_door_user_id, p.naam as ingevoerd_door_naam, m.ingevoerd_op
  from app.kpi_metingen m
  join app.kpis k on k.org_id = m.org_id and k.id = m.kpi_id
  left join app_hidden.def_personen p on p.org_id = m.org_id and p.user_id = m.ingevoerd_door;

grant select on app_hidden.def_kpi_metingen to koers_door, koers_definer;

-- The scoreboard definition: one row per KPI the caller may see (active or not) per quarter,
-- as of now, or as of the end of _peildag (the last day that counts: a measurement is judged
-- at the end of its period). _kwartaal is the quarter's first day; without it (null), every
-- quarter in which the KPI has a target or a measurement, and the running quarter. teller:
-- huidige_stand is the sum of the quarter's measurements, the line the quarter target pro rata
-- the elapsed share of the quarter; stand: the latest measurement against the target.
create function app_hidden.def_kpi_scorebord(_kwartaal date default null, _peildag date default null)
returns table (org_id uuid, id uuid, kwartaal_start date, kwartaal text, naam text, eenheid text,
               eigenaar_user_id uuid, eigenaar_naam text, meetsoort text, cadans text, lager_is_beter boolean,
               team_id uuid, team_naam text, actief boolean, kwartaaldoel numeric, huidige_stand numeric,
               lijn numeric, stoplicht text, bereikt boolean, laatste_periode text, bijgewerkt_op timestamptz)
language sql stable as $$
  select k.org_id, k.id, q.kwartaal_start, app_hidden.kwartaal_label(q.kwartaal_start),
    k.naam, k.eenheid, k.eigenaar_user_id, pe.naam, k.meetsoort, k.cadans, k.lager_is_beter,
    k.team_id, tm.naam, k.actief, d.doel, m.huidige_stand,
    round(app_hidden.kpi_lijn(k.meetsoort, d.doel, f.aandeel), 2),
    app_hidden.kpi_stoplicht(k.meetsoort, k.lager_is_beter, d.doel, m.huidige_stand, f.aandeel),
    app_hidden.kpi_bereikt(k.meetsoort, k.lager_is_beter, d.doel, m.huidige_stand, f.aandeel),
    m.laatste_periode, k.bijgewerkt_op
  from app.kpis k
  join app.organisaties o on o.org_id = k.org_id
  cross join lateral (
    select _kwartaal as kwartaal_start where _kwartaal is not null
    union all
    select x.kwartaal_start from (
      select dd.kwartaal_start from app.kpi_kwartaaldoelen dd where dd.org_id = k.org_id and dd.kpi_id = k.id
      union
      select app_hidden.periode_kwartaal(mm.periode_start, k.cadans) from app.kpi_metingen mm
      where mm.org_id = k.org_id and mm.kpi_id = k.id
      union
      select date_trunc('quarter', app_hidden.moment(o.tijdzone))::date) x
    where _kwartaal is null) q
  left join app_hidden.def_personen pe on pe.org_id = k.org_id and pe.user_id = k.eigenaar_user_id
  left join app.teams tm on tm.org_id = k.org_id and tm.id = k.team_id
  left join app.kpi_kwartaaldoelen d on d.org_id = k.org_id and d.kpi_id = k.id and d.kwartaal_start = q.kwartaal_start
  left join lateral (
    select case when k.meetsoort = 'teller' then sum(mm.waarde)
                else (array_agg(mm.waarde order by mm.periode_start desc))[1] end as huidige_stand,
           case when k.meetsoort = 'teller' then max(mm.periode)
                else (array_agg(mm.periode order by mm.periode_start desc))[1] end as laatste_periode
    from app.kpi_metingen mm
    where mm.org_id = k.org_id and mm.kpi_id = k.id
      and mm.periode_start >= q.kwartaal_start - 3 and mm.periode_start <= app_hidden.kwartaal_eind(q.kwartaal_start)
      and app_hidden.periode_kwartaal(mm.periode_start, k.cadans) = q.kwartaal_start
      and (_peildag is null or mm.periode_start <= _peildag)) m on true
  cross join lateral (
    select app_hidden.verstreken(q.kwartaal_start, app_hidden.kwartaal_eind(q.kwartaal_start),
                                 least(app_hidden.moment(o.tijdzone), (_peildag + 1)::timestamp)) as aandeel
    offset 0) f
$$;

grant execute on function app_hidden.def_kpi_scorebord(date, date) to koers_door;

-- A KPI on the scoreboard of a quarter as answers show it; team only when the organisation has
-- teams. Built as json (weergave_json) and read as jsonb (weergave), as app_hidden.prioriteit_weergaven
-- does (db/140_prioriteiten.sql): the team pair comes first, named 'id' without teams (its value
-- null then), and jsonb keeps the last value of a key.
create function app_hidden.kpi_weergaven(_kwartaal date, _peildag date default null)
returns table (org_id uuid, id uuid, naam text, actief boolean, team_id uuid, weergave_json json, weergave jsonb)
language sql stable as $$
  select w.org_id, w.id, w.naam, w.actief, w.team_id, w.weergave_json, w.weergave_json::jsonb
  from (
    select d.org_id, d.id, d.naam, d.actief, d.team_id,
      json_build_object(
        case when (select exists (select 1 from app.teams t where t.org_id = (select o.org from app_hidden.mijn_org() o)))
             then 'team' else 'id' end,
        case when d.team_naam is not null then json_build_object('id', d.team_id, 'naam', d.team_naam) end,
        'id', d.id, 'naam', d.naam, 'eenheid', d.eenheid,
        'eigenaar', app_hidden.persoon_weergave(d.eigenaar_user_id, d.eigenaar_naam),
        'meetsoort', d.meetsoort, 'cadans', d.cadans, 'lager_is_beter', d.lager_is_beter,
        'kwartaaldoel', d.kwartaaldoel, 'huidige_stand', d.huidige_stand, 'lijn', d.lijn,
        'stoplicht', d.stoplicht, 'bereikt', d.bereikt, 'laatste_periode', d.laatste_periode)
        as weergave_json
    from app_hidden.def_kpi_scorebord(_kwartaal, _peildag) d) w
$$;

-- One KPI in one quarter as answers show it (the writes' results, the app).
create function app_hidden.kpi_weergave(_org uuid, _id uuid, _kwartaal date) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  -- PL/pgSQL for its plan, kept for the session: a SQL function holding a query is planned anew
  -- at every call, and planning the definition costs more than running it for one row.
  return (select w.weergave from app_hidden.kpi_weergaven(_kwartaal) w where w.org_id = _org and w.id = _id
            and w.org_id = (select o.org from app_hidden.mijn_org() o));
end
$$;

create function api.kpi_scorebord(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  kwartaal date := app_hidden.param_kwartaal(p, 'kwartaal', org);
  team uuid := app_hidden.param_verwijzing(p, 'team', 'team');
begin
  -- The answer as json text, turned into jsonb once (app_hidden.kpi_weergaven).
  return json_build_object(
    'kwartaal', app_hidden.kwartaal_label(kwartaal),
    'kpis', coalesce((
      select json_agg(w.weergave_json order by w.naam, w.id)
      from app_hidden.kpi_weergaven(kwartaal) w
      where w.org_id = org and w.actief and app_hidden.in_team(w.team_id, team)), '[]'))::jsonb;
end
$$;

create function api.kpi_aanmaken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  naam text := (p ->> 'naam');
  eenheid text := (p ->> 'eenheid');
  eigenaar uuid := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid');
  meetsoort text := (p ->> 'meetsoort');
  cadans text := (p ->> 'cadans');
  lager boolean := coalesce((p ->> 'lager_is_beter')::boolean, false);
  nieuw uuid;
  w jsonb;
begin
  insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, aangemaakt_door)
  values (org, naam, eenheid, eigenaar, meetsoort, cadans, lager, app_hidden.huidige_gebruiker())
  returning id into nieuw;
  w := app_hidden.kpi_weergave(org, nieuw, date_trunc('quarter', app_hidden.vandaag(org))::date);
  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'naam', app_hidden.veld(null, to_jsonb(naam)),
      'eenheid', app_hidden.veld(null, to_jsonb(eenheid)),
      'eigenaar', app_hidden.veld(null, w -> 'eigenaar'),
      'meetsoort', app_hidden.veld(null, to_jsonb(meetsoort)),
      'cadans', app_hidden.veld(null, to_jsonb(cadans)),
      'lager_is_beter', app_hidden.veld(null, to_jsonb(lager))),
    'resultaat', jsonb_build_object('kpi', w));
end
$$;

create function api.kpi_meting_invoeren(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  kpi uuid := app_hidden.param_verwijzing(p, 'kpi_id', 'kpi');
  k app.kpis;
  waarde numeric := (p ->> 'waarde')::numeric;
  toelichting text := (p ->> 'toelichting');
  per record;
  kwartaal date;
  oud app.kpi_metingen;
  voor text;
  na record;
begin
  select * into k from app.kpis x where x.org_id = org and x.id = kpi;
  if not app_hidden.mag_kpi_meten(org, k.id) then
    perform app_hidden.fout('rol_mag_niet', 'Met jouw rol mag je alleen metingen invoeren op je eigen KPI''s.');
  end if;
  select * into per from app_hidden.param_kpi_periode(k.cadans, (p ->> 'periode'), org);
  kwartaal := app_hidden.periode_kwartaal(per.van, k.cadans);
  -- Two measurements of one period at once: the second waits, then reads the first as the
  -- current value; its confirmation is refused when that is not what its proposal showed.
  perform app_hidden.vergrendel('kpi_meting', org::text, k.id::text, per.periode);
  select * into oud from app.kpi_metingen m where m.org_id = org and m.kpi_id = k.id and m.periode = per.periode;
  select c.stoplicht into voor from app_hidden.def_kpi_scorebord(kwartaal, per.laatste_dag) c
  where c.org_id = org and c.id = k.id;

  insert into app.kpi_metingen as m (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op)
  values (org, k.id, per.periode, per.van, per.laatste_dag, waarde, toelichting, ik, app_hidden.nu())
  on conflict (org_id, kpi_id, periode) do update
    set waarde = excluded.waarde, toelichting = excluded.toelichting,
        ingevoerd_door = excluded.ingevoerd_door, ingevoerd_op = excluded.ingevoerd_op;

  select c.stoplicht into na from app_hidden.def_kpi_scorebord(kwartaal, per.laatste_dag) c
  where c.org_id = org and c.id = k.id;
  if na.stoplicht in ('attentie', 'achter') and toelichting is null then
    perform app_hidden.ongeldig('toelichting', format(
      'Met deze meting staat %s op %s; geef een toelichting.', k.naam, na.stoplicht));
  end if;

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'kpi', app_hidden.veld(null, jsonb_build_object('id', k.id, 'naam', k.naam)),
      'periode', app_hidden.veld(null, to_jsonb(per.periode)),
      'waarde', app_hidden.veld(to_jsonb(oud.waarde), to_jsonb(waarde)),
      'toelichting', app_hidden.veld(to_jsonb(oud.toelichting), to_jsonb(toelichting)),
      'stoplicht', app_hidden.veld(to_jsonb(voor), to_jsonb(na.stoplicht))),
    'resultaat', jsonb_build_object(
      'meting', jsonb_build_object('kpi_id', k.id, 'periode', per.periode, 'waarde', waarde, 'toelichting', toelichting,
                                   'overschreven', oud.waarde is not null),
      'kpi', app_hidden.kpi_weergave(org, k.id, kwartaal)));
end
$$;

-- kpi.rood: a measurement that comes out red (achter) against the quarter target.
create function app_hidden.tg_kpi_metingen__gebeurtenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  k app.kpis;
  kwartaal date;
  c record;
begin
  select * into k from app.kpis x where x.org_id = new.org_id and x.id = new.kpi_id;
  kwartaal := app_hidden.periode_kwartaal(new.periode_start, k.cadans);
  select * into c from app_hidden.def_kpi_scorebord(kwartaal, new.periode_eind) x
  where x.org_id = new.org_id and x.id = new.kpi_id;
  if c.stoplicht = 'achter' and c.kwartaaldoel is not null then
    perform app_hidden.gebeurtenis(new.org_id, 'kpi.rood', new.kpi_id,
      jsonb_build_object(
        'kpi', jsonb_build_object('id', k.id, 'naam', k.naam, 'eigenaar_id', k.eigenaar_user_id,
                                  'meetsoort', k.meetsoort, 'cadans', k.cadans),
        'meting', jsonb_build_object('periode', new.periode, 'waarde', new.waarde),
        'kwartaal', app_hidden.kwartaal_label(kwartaal), 'kwartaaldoel', c.kwartaaldoel,
        'lijn', c.lijn, 'stoplicht', c.stoplicht)
      || app_hidden.team_veld(k.org_id, k.team_id));
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update on app.kpi_metingen
  for each row execute function app_hidden.tg_kpi_metingen__gebeurtenis();
