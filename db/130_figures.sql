-- Every figure of the planning core, computed here and only here: elapsed time, task weight,
-- priority progress and stand, KPI line and traffic light. Every operation and every view
-- calls these; no door recomputes them. The rules are those of docs/decisions.md (Figures).

-- Time -------------------------------------------------------------------------------------

-- The quarter a KPI period counts in: a week counts where its Thursday is (ISO).
create function app_hidden.periode_kwartaal(van date, cadans text) returns date
language sql immutable parallel safe as $$
  select date_trunc('quarter', case when cadans = 'week' then van + 3 else van end)::date
$$;

-- Share of the days van .. laatste_dag (both whole, in the organisation's time zone) elapsed
-- now, or at the end of _peildag when that is earlier; in [0, 1]. Counted on the local
-- calendar, so every day weighs the same and a change to or from summer time moves no figure.
create function app_hidden.verstreken(van date, laatste_dag date, tijdzone text, _peildag date default null)
returns numeric language plpgsql stable set search_path = '' as $$
declare
  moment timestamp := app_hidden.nu() at time zone tijdzone;
begin
  if _peildag is not null then moment := least(moment, (_peildag + 1)::timestamp); end if;
  return greatest(0, least(1,
    extract(epoch from moment - van::timestamp) / extract(epoch from (laatste_dag + 1)::timestamp - van::timestamp)));
end
$$;

-- Tasks ------------------------------------------------------------------------------------

-- Weight of a task in a priority's progress: its estimate when above 0, else the hours of its
-- size (app.keuzes, list grootte), else 2 hours.
create function app_hidden.taak_gewicht(inschatting_uren numeric, grootte text) returns numeric
language sql stable parallel safe as $$
  select case when inschatting_uren > 0 then inschatting_uren
              else coalesce(app_hidden.betekenis('grootte', grootte)::numeric, 2) end
$$;

-- A task stand as the read side names it (open, bezig, wacht op feedback, klaar, vervallen).
create function app_hidden.stand_lezen(stand text) returns text
language sql stable parallel safe as $$
  select coalesce(app_hidden.betekenis('taak_stand', stand), stand)
$$;

-- Priorities -------------------------------------------------------------------------------

-- Progress, elapsed share and stand of one priority. Progress of a rock: done weight over the
-- weight of its tasks that are not vervallen (directly under it; a subtask counts inside its
-- parent), and 100% when all of them are done. Of an OKR: the mean progress of its key results.
-- Stand, first rule that holds: completed (op koers), not begun (nog niet gestart), past its
-- deadline short of 100% (loopt achter, also with nothing to measure), nothing to measure
-- (geen taken), then progress against the elapsed share.
create function app_hidden.prioriteit_cijfers(_org uuid, _id uuid,
  out voortgang numeric, out verstreken numeric, out stand text, out startdatum date, out deadline date, out afgerond boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  p app.prioriteiten;
  tz text;
  telt boolean;
  alles_klaar boolean;
begin
  select * into p from app.prioriteiten x where x.org_id = _org and x.id = _id and app_hidden.eigen_org(_org);
  if p.id is null then return; end if;
  select o.tijdzone into tz from app.organisaties o where o.org_id = _org;
  startdatum := coalesce(p.startdatum, p.kwartaal_start);
  deadline := coalesce(p.deadline, app_hidden.kwartaal_eind(p.kwartaal_start));
  afgerond := p.afgerond_op is not null;
  verstreken := app_hidden.verstreken(startdatum, deadline, tz);
  if p.soort = 'rock' then
    select count(*) > 0, bool_and(t.stand = 'voltooid'),
           sum(app_hidden.taak_gewicht(t.inschatting_uren, t.grootte)) filter (where t.stand = 'voltooid')
             / nullif(sum(app_hidden.taak_gewicht(t.inschatting_uren, t.grootte)), 0)
      into telt, alles_klaar, voortgang
    from app.taken t
    where t.org_id = _org and t.prioriteit_id = _id and t.ouder_id is null
      and t.stand <> 'vervallen' and t.verwijderd_op is null;
    if alles_klaar then voortgang := 1; end if;
  else
    select count(*) > 0, avg(greatest(0, least(1, (k.huidige_waarde - k.startwaarde) / (k.doelwaarde - k.startwaarde))))
      into telt, voortgang
    from app.kernresultaten k where k.org_id = _org and k.prioriteit_id = _id;
  end if;
  voortgang := coalesce(voortgang, 0);
  if afgerond then
    voortgang := 1;
    stand := 'op koers';
  elsif (app_hidden.nu() at time zone tz) < startdatum::timestamp then
    stand := 'nog niet gestart';
  elsif verstreken >= 1 and voortgang < 1 then
    stand := 'loopt achter';
  elsif not telt then
    stand := 'geen taken';
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

-- A KPI in one quarter, as of nu() (or as of the end of _peildag, the last day that counts). teller: the sum
-- of the quarter's measurements against the quarter target pro rata the elapsed share, and
-- reached when the sum meets the target. stand: the latest measurement against the target.
create function app_hidden.kpi_cijfers(_org uuid, _kpi uuid, _kwartaal date, _peildag date default null,
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
  aandeel := app_hidden.verstreken(_kwartaal, eind, tz, _peildag);
  if k.meetsoort = 'teller' then
    select sum(m.waarde), max(m.periode) into huidige_stand, laatste_periode
    from app.kpi_metingen m
    where m.org_id = _org and m.kpi_id = _kpi
      and app_hidden.periode_kwartaal(m.periode_start, k.cadans) = _kwartaal
      and (_peildag is null or m.periode_start <= _peildag);
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
      and (_peildag is null or m.periode_start <= _peildag)
    order by m.periode_start desc limit 1;
    lijn := kwartaaldoel;
    bereikt := false;
  end if;
  stoplicht := app_hidden.stoplicht(huidige_stand, lijn, k.lager_is_beter);
end
$$;
