-- Every figure of the planning core, computed here and only here: periods and weeks, task
-- weight, priority progress and stand, KPI line and traffic light. Every operation and every
-- view calls these; no door recomputes them.

-- Periods ---------------------------------------------------------------------------------

create function app_hidden.kwartaal_eind(start date) returns date
language sql immutable parallel safe as $$ select (start + interval '3 months' - interval '1 day')::date $$;

-- 'Q<n>-<yyyy>' (the kwartaal parameter); empty is the running quarter.
create function app_hidden.param_kwartaal(p jsonb, naam text, org uuid) returns date
language plpgsql stable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam);
begin
  if v is null then return date_trunc('quarter', app_hidden.vandaag(org))::date; end if;
  if v !~ '^Q[1-4]-\d{4}$' then
    perform app_hidden.ongeldig(naam, format('%s moet een kwartaal zijn als Q2-2026.', naam));
  end if;
  return make_date(split_part(v, '-', 2)::int, (substr(v, 2, 1)::int - 1) * 3 + 1, 1);
end
$$;

-- The Monday of an ISO week 'YYYY-Wnn', or null when that week does not exist (W53 only in
-- long years).
create function app_hidden.week_maandag(week text) returns date
language plpgsql immutable set search_path = '' as $$
declare
  jaar int := split_part(week, '-W', 1)::int;
  nr int := split_part(week, '-W', 2)::int;
  -- 4 January is always in ISO week 1.
  maandag date := make_date(jaar, 1, 4) - (extract(isodow from make_date(jaar, 1, 4))::int - 1) + (nr - 1) * 7;
begin
  if week !~ '^\d{4}-W\d{2}$' or nr < 1 or to_char(maandag, 'IYYY-"W"IW') <> week then return null; end if;
  return maandag;
end
$$;

-- A week parameter: 'YYYY-Wnn', 'deze' or 'volgende'. With _toekomst, a week that has passed
-- is refused. JSON null stays null (taak_bijwerken: remove from every week).
create function app_hidden.param_week(p jsonb, naam text, org uuid, _toekomst boolean default true) returns text
language plpgsql stable set search_path = '' as $$
declare
  v text := app_hidden.param_tekst(p, naam);
  vandaag date := app_hidden.vandaag(org);
  maandag date;
begin
  if v is null then return null; end if;
  if v = 'deze' then return app_hidden.iso_week(vandaag); end if;
  if v = 'volgende' then return app_hidden.iso_week(vandaag + 7); end if;
  maandag := app_hidden.week_maandag(v);
  if maandag is null then
    perform app_hidden.ongeldig(naam, format('%s moet een bestaande ISO-week zijn als 2026-W07, of deze of volgende.', naam));
  end if;
  if _toekomst and maandag + 6 < vandaag then
    perform app_hidden.ongeldig(naam, format('Week %s is al voorbij.', v));
  end if;
  return v;
end
$$;

-- A KPI period for a cadence: its label, first and last day. Empty is the running week or
-- month, or for a quarter KPI the previous quarter. A period that has not begun, or a quarter
-- still running, is refused.
create function app_hidden.kpi_periode(_cadans text, _periode text, org uuid,
                                       out periode text, out van date, out tot date)
language plpgsql stable set search_path = '' as $$
declare vandaag date := app_hidden.vandaag(org);
begin
  if _periode is null then
    van := case _cadans when 'week' then date_trunc('week', vandaag)::date
                        when 'month' then date_trunc('month', vandaag)::date
                        else (date_trunc('quarter', vandaag) - interval '3 months')::date end;
  elsif _cadans = 'week' and _periode ~ '^\d{4}-W\d{2}$' then
    van := app_hidden.week_maandag(_periode);
  elsif _cadans = 'month' and _periode ~ '^\d{4}-(0[1-9]|1[0-2])$' then
    van := (_periode || '-01')::date;
  elsif _cadans = 'quarter' and _periode ~ '^\d{4}-Q[1-4]$' then
    van := make_date(split_part(_periode, '-Q', 1)::int, (split_part(_periode, '-Q', 2)::int - 1) * 3 + 1, 1);
  end if;
  if van is null then
    perform app_hidden.ongeldig('periode', format('periode past niet bij de cadans %s: gebruik %s.', _cadans,
      case _cadans when 'week' then '<jjjj>-W<nn>' when 'month' then '<jjjj>-<mm>' else '<jjjj>-Q<n>' end));
  end if;
  tot := case _cadans when 'week' then van + 6
                      when 'month' then (van + interval '1 month' - interval '1 day')::date
                      else app_hidden.kwartaal_eind(van) end;
  periode := case _cadans when 'week' then app_hidden.iso_week(van)
                          when 'month' then to_char(van, 'YYYY-MM')
                          else to_char(van, 'YYYY-"Q"Q') end;
  if _cadans = 'quarter' and tot >= vandaag then
    perform app_hidden.ongeldig('periode', format('Kwartaal %s loopt nog of moet nog beginnen; een kwartaal-KPI vul je in na afloop.', periode));
  elsif van > vandaag then
    perform app_hidden.ongeldig('periode', format('Periode %s is nog niet begonnen.', periode));
  end if;
end
$$;

-- The quarter a KPI period counts in: a week counts where its Thursday is (ISO).
create function app_hidden.periode_kwartaal(van date, cadans text) returns date
language sql immutable parallel safe as $$
  select date_trunc('quarter', case when cadans = 'week' then van + 3 else van end)::date
$$;

-- Share of [van, tot] (whole days, in the organisation's time zone) elapsed at nu(), in [0, 1].
-- Share of [van, tot] (whole days, in the organisation's time zone) elapsed at _moment
-- (default nu()), in [0, 1].
create function app_hidden.verstreken(van date, tot date, tijdzone text, _moment timestamptz default null)
returns numeric language plpgsql stable set search_path = '' as $$
declare
  begin_ts timestamptz := van::timestamp at time zone tijdzone;
  eind_ts timestamptz := (tot + 1)::timestamp at time zone tijdzone;
begin
  return greatest(0, least(1,
    extract(epoch from coalesce(_moment, app_hidden.nu()) - begin_ts) / extract(epoch from eind_ts - begin_ts)));
end
$$;

-- Tasks ------------------------------------------------------------------------------------

-- Weight of a task in a priority's progress: its estimate, else its size, else 2 hours.
create function app_hidden.taak_gewicht(inschatting_uren numeric, grootte text) returns numeric
language sql immutable parallel safe as $$
  select coalesce(inschatting_uren,
    case grootte when 'klein' then 2 when 'middel' then 8 when 'groot' then 24 end, 2)
$$;

create function app_hidden.stand_lezen(stand text) returns text
language sql immutable parallel safe as $$
  select case stand when 'in_uitvoering' then 'bezig' when 'wacht_op_feedback' then 'wacht op feedback'
                    when 'voltooid' then 'klaar' else stand end
$$;

-- Priorities -------------------------------------------------------------------------------

-- Progress, elapsed share and stand of one priority. Progress of a rock: done weight over the
-- weight of its tasks that are not vervallen (directly under it; a subtask counts inside its
-- parent). Of an OKR: the mean progress of its key results.
create function app_hidden.prioriteit_cijfers(_org uuid, _id uuid,
  out voortgang numeric, out verstreken numeric, out stand text, out startdatum date, out deadline date, out afgerond boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  p app.prioriteiten;
  tz text;
  telt boolean;
begin
  select * into p from app.prioriteiten x where x.org_id = _org and x.id = _id and app_hidden.eigen_org(_org);
  if p.id is null then return; end if;
  select o.tijdzone into tz from app.organisaties o where o.org_id = _org;
  startdatum := coalesce(p.startdatum, p.kwartaal_start);
  deadline := coalesce(p.deadline, app_hidden.kwartaal_eind(p.kwartaal_start));
  afgerond := p.afgerond_op is not null;
  verstreken := app_hidden.verstreken(startdatum, deadline, tz);
  if p.soort = 'rock' then
    select count(*) > 0, sum(app_hidden.taak_gewicht(t.inschatting_uren, t.grootte)) filter (where t.stand = 'voltooid')
                         / nullif(sum(app_hidden.taak_gewicht(t.inschatting_uren, t.grootte)), 0)
      into telt, voortgang
    from app.taken t
    where t.org_id = _org and t.prioriteit_id = _id and t.ouder_id is null
      and t.stand <> 'vervallen' and t.verwijderd_op is null;
  else
    select count(*) > 0, avg(greatest(0, least(1, (k.huidige_waarde - k.startwaarde) / (k.doelwaarde - k.startwaarde))))
      into telt, voortgang
    from app.kernresultaten k where k.org_id = _org and k.prioriteit_id = _id;
  end if;
  voortgang := coalesce(voortgang, 0);
  if afgerond then
    voortgang := 1;
    stand := 'op koers';
  elsif app_hidden.nu() < (startdatum::timestamp at time zone tz) then
    stand := 'nog niet gestart';
  elsif not telt then
    stand := 'geen taken';
  elsif verstreken >= 1 and voortgang < 1 then
    stand := 'loopt achter';
  elsif voortgang >= verstreken then
    stand := 'op koers';
  elsif voortgang >= 0.8 * verstreken then
    stand := 'aandacht nodig';
  else
    stand := 'loopt achter';
  end if;
end
$$;

-- KPIs -------------------------------------------------------------------------------------

-- Traffic light of a value against a line: op koers at or beyond the line, attentie from 80%
-- of it, achter below. lager_is_beter mirrors the comparison.
create function app_hidden.stoplicht(waarde numeric, lijn numeric, lager_is_beter boolean) returns text
language sql immutable parallel safe as $$
  select case
    when waarde is null or lijn is null then null
    when not lager_is_beter and waarde >= lijn then 'op koers'
    when not lager_is_beter and waarde >= 0.8 * lijn then 'attentie'
    when not lager_is_beter then 'achter'
    when waarde <= lijn then 'op koers'
    when 0.8 * waarde <= lijn then 'attentie'
    else 'achter' end
$$;

-- A KPI in one quarter, as of nu() (or as of the end of day _tot, the last day that counts). teller: the sum
-- of the quarter's measurements against the quarter target pro rata the elapsed share, and
-- reached when the sum meets the target. stand: the latest measurement against the target.
create function app_hidden.kpi_cijfers(_org uuid, _kpi uuid, _kwartaal date, _tot date default null,
  out kwartaaldoel numeric, out huidige_stand numeric, out lijn numeric, out stoplicht text, out bereikt boolean,
  out laatste_periode text)
language plpgsql stable security definer set search_path = '' as $$
declare
  k app.kpis;
  tz text;
  eind date := app_hidden.kwartaal_eind(_kwartaal);
  aandeel numeric;
begin
  select * into k from app.kpis x where x.org_id = _org and x.id = _kpi and app_hidden.eigen_org(_org);
  if k.id is null then return; end if;
  select o.tijdzone into tz from app.organisaties o where o.org_id = _org;
  select d.doel into kwartaaldoel from app.kpi_kwartaaldoelen d
  where d.org_id = _org and d.kpi_id = _kpi and d.kwartaal_start = _kwartaal;
  -- A measurement is judged as of the end of its period (or now, when that is earlier).
  aandeel := app_hidden.verstreken(_kwartaal, eind, tz,
    least(app_hidden.nu(), ((_tot + 1)::timestamp at time zone tz)));
  if k.meetsoort = 'teller' then
    select sum(m.waarde), max(m.periode) into huidige_stand, laatste_periode
    from app.kpi_metingen m
    where m.org_id = _org and m.kpi_id = _kpi
      and app_hidden.periode_kwartaal(m.periode_start, k.cadans) = _kwartaal
      and (_tot is null or m.periode_start <= _tot);
    lijn := kwartaaldoel * aandeel;
    bereikt := case when kwartaaldoel is null or huidige_stand is null then false
                    when k.lager_is_beter then aandeel >= 1 and huidige_stand <= kwartaaldoel
                    else huidige_stand >= kwartaaldoel end;
    if bereikt then
      stoplicht := 'op koers';
      return;
    end if;
  else
    select m.waarde, m.periode into huidige_stand, laatste_periode
    from app.kpi_metingen m
    where m.org_id = _org and m.kpi_id = _kpi
      and app_hidden.periode_kwartaal(m.periode_start, k.cadans) = _kwartaal
      and (_tot is null or m.periode_start <= _tot)
    order by m.periode_start desc limit 1;
    lijn := kwartaaldoel;
    bereikt := false;
  end if;
  stoplicht := app_hidden.stoplicht(huidige_stand, lijn, k.lager_is_beter);
end
$$;
