-- KPIs: the scoreboard with traffic lights, new KPIs, and measurements.

create function app_hidden.kpi_weergave(_org uuid, _id uuid, _kwartaal date) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', k.id, 'naam', k.naam, 'eenheid', k.eenheid,
      'eigenaar', app_hidden.persoon(k.org_id, k.eigenaar_user_id),
      'meetsoort', k.meetsoort, 'cadans', k.cadans, 'lager_is_beter', k.lager_is_beter,
      'kwartaaldoel', c.kwartaaldoel, 'huidige_stand', c.huidige_stand, 'lijn', round(c.lijn, 2),
      'stoplicht', c.stoplicht, 'bereikt', c.bereikt, 'laatste_periode', c.laatste_periode)
      || app_hidden.team_veld(k.org_id, k.team_id)
    from app.kpis k, app_hidden.kpi_cijfers(k.org_id, k.id, _kwartaal) c
    where k.org_id = _org and k.id = _id);
end
$$;

create function api.kpi_scorebord(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  kwartaal date := app_hidden.param_kwartaal(p, 'kwartaal', org);
  team uuid := app_hidden.param_verwijzing(p, 'team', 'team');
begin
  return jsonb_build_object(
    'kwartaal', app_hidden.kwartaal_label(kwartaal),
    'kpis', coalesce((
      select jsonb_agg(app_hidden.kpi_weergave(org, k.id, kwartaal) order by k.naam, k.id)
      from app.kpis k
      where k.org_id = org and k.actief
        and app_hidden.in_team(k.team_id, team)), '[]'));
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
begin
  insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, aangemaakt_door)
  values (org, naam, eenheid, eigenaar, meetsoort, cadans, lager, app_hidden.huidige_gebruiker())
  returning id into nieuw;
  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'naam', app_hidden.veld(null, to_jsonb(naam)),
      'eenheid', app_hidden.veld(null, to_jsonb(eenheid)),
      'eigenaar', app_hidden.veld(null, app_hidden.persoon(org, eigenaar)),
      'meetsoort', app_hidden.veld(null, to_jsonb(meetsoort)),
      'cadans', app_hidden.veld(null, to_jsonb(cadans)),
      'lager_is_beter', app_hidden.veld(null, to_jsonb(lager))),
    'resultaat', jsonb_build_object('kpi',
      app_hidden.kpi_weergave(org, nieuw, date_trunc('quarter', app_hidden.vandaag(org))::date)));
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
  select c.stoplicht into voor from app_hidden.kpi_cijfers(org, k.id, kwartaal, per.laatste_dag) c;

  insert into app.kpi_metingen as m (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op)
  values (org, k.id, per.periode, per.van, per.laatste_dag, waarde, toelichting, ik, app_hidden.nu())
  on conflict (org_id, kpi_id, periode) do update
    set waarde = excluded.waarde, toelichting = excluded.toelichting,
        ingevoerd_door = excluded.ingevoerd_door, ingevoerd_op = excluded.ingevoerd_op;

  select * into na from app_hidden.kpi_cijfers(org, k.id, kwartaal, per.laatste_dag);
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
  select * into c from app_hidden.kpi_cijfers(new.org_id, new.kpi_id, kwartaal, new.periode_eind);
  if c.stoplicht = 'achter' and c.kwartaaldoel is not null then
    perform app_hidden.gebeurtenis(new.org_id, 'kpi.rood', new.kpi_id,
      jsonb_build_object(
        'kpi', jsonb_build_object('id', k.id, 'naam', k.naam, 'eigenaar_id', k.eigenaar_user_id,
                                  'meetsoort', k.meetsoort, 'cadans', k.cadans),
        'meting', jsonb_build_object('periode', new.periode, 'waarde', new.waarde),
        'kwartaal', app_hidden.kwartaal_label(kwartaal), 'kwartaaldoel', c.kwartaaldoel,
        'lijn', round(c.lijn, 2), 'stoplicht', c.stoplicht)
      || app_hidden.team_veld(k.org_id, k.team_id));
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update on app.kpi_metingen
  for each row execute function app_hidden.tg_kpi_metingen__gebeurtenis();
