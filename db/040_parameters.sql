-- Every parameter helper, in one place. Parameters arrive as one jsonb object. These turn a
-- value into its SQL meaning and refuse, naming the parameter, what cannot mean anything:
-- a date that does not exist, a week that has passed, a reference to nothing the caller may see.
-- Casts happen only after the shape is checked, so no error ever lacks its parameter.

create function app_hidden.param_tekst(p jsonb, naam text, verplicht boolean default false)
returns text language plpgsql immutable set search_path = '' as $$
declare v text;
begin
  if p ? naam and jsonb_typeof(p -> naam) not in ('string', 'null') then
    perform app_hidden.ongeldig(naam, format('%s moet tekst zijn.', naam));
  end if;
  v := nullif(trim(p ->> naam), '');
  if v is null and verplicht then
    perform app_hidden.ongeldig(naam, format('%s is verplicht.', naam));
  end if;
  return v;
end
$$;

create function app_hidden.param_uuid(p jsonb, naam text, verplicht boolean default false)
returns uuid language plpgsql immutable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam, verplicht);
begin
  if v is not null and v !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    perform app_hidden.ongeldig(naam, format('%s moet een uuid zijn.', naam));
  end if;
  return v::uuid;
end
$$;

-- A date <yyyy>-<mm>-<dd> that exists (no 30 February, no year 0).
create function app_hidden.param_datum(p jsonb, naam text, verplicht boolean default false)
returns date language plpgsql immutable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam, verplicht);
begin
  if v is null then return null; end if;
  if v !~ '^\d{4}-\d{2}-\d{2}$' then
    perform app_hidden.ongeldig(naam, format('%s moet een datum zijn als jjjj-mm-dd.', naam));
  end if;
  begin
    if substr(v, 1, 4)::int >= 1 then
      return make_date(substr(v, 1, 4)::int, substr(v, 6, 2)::int, substr(v, 9, 2)::int);
    end if;
  exception when others then null;
  end;
  perform app_hidden.ongeldig(naam, format('%s is geen bestaande datum: %s.', naam, v));
end
$$;

-- A flag: ja/nee or a JSON boolean.
create function app_hidden.param_vlag(p jsonb, naam text, standaard boolean default false) returns boolean
language plpgsql immutable set search_path = '' as $$
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' or p ->> naam = '' then return standaard; end if;
  if jsonb_typeof(p -> naam) = 'boolean' then return (p -> naam)::boolean; end if;
  if p ->> naam in ('ja', 'nee') then return p ->> naam = 'ja'; end if;
  perform app_hidden.ongeldig(naam, format('%s moet ja of nee zijn.', naam));
end
$$;

create function app_hidden.param_getal(p jsonb, naam text, verplicht boolean default false) returns numeric
language plpgsql immutable set search_path = '' as $$
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' or p ->> naam = '' then
    if verplicht then perform app_hidden.ongeldig(naam, format('%s is verplicht.', naam)); end if;
    return null;
  end if;
  if jsonb_typeof(p -> naam) = 'number' or p ->> naam ~ '^-?\d{1,15}(\.\d{1,15})?$' then return (p ->> naam)::numeric; end if;
  perform app_hidden.ongeldig(naam, format('%s moet een getal zijn.', naam));
end
$$;

create function app_hidden.param_keuze(p jsonb, naam text, waarden text[], verplicht boolean default false) returns text
language plpgsql immutable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam, verplicht);
begin
  if v is not null and not v = any (waarden) then
    perform app_hidden.ongeldig(naam, format('%s moet een van %s zijn.', naam, array_to_string(waarden, ', ')));
  end if;
  return v;
end
$$;

-- Tag names from an array parameter: trimmed, unique ignoring letter case, in given order.
create function app_hidden.param_tags(p jsonb, naam text) returns text[]
language plpgsql immutable set search_path = '' as $$
declare uit text[] := '{}'; x jsonb;
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' then return null; end if;
  if jsonb_typeof(p -> naam) <> 'array' then perform app_hidden.ongeldig(naam, format('%s moet een lijst zijn.', naam)); end if;
  for x in select * from jsonb_array_elements(p -> naam) loop
    if jsonb_typeof(x) <> 'string' or length(trim(x #>> '{}')) = 0 or length(x #>> '{}') > 50 then
      perform app_hidden.ongeldig(naam, format('%s moet tekst zijn van 1 tot 50 tekens per tag.', naam));
    end if;
    if not lower(trim(x #>> '{}')) = any (select lower(u) from unnest(uit) u) then
      uit := uit || trim(x #>> '{}');
    end if;
  end loop;
  return uit;
end
$$;

-- 'Q<n>-<yyyy>' (the kwartaal parameter): its first day; empty is the running quarter.
create function app_hidden.param_kwartaal(p jsonb, naam text, org uuid) returns date
language plpgsql stable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam);
begin
  if v is null then return date_trunc('quarter', app_hidden.vandaag(org))::date; end if;
  if v !~ '^Q[1-4]-\d{4}$' or substr(v, 4, 4)::int < 1 then
    perform app_hidden.ongeldig(naam, format('%s moet een kwartaal zijn als Q2-2026.', naam));
  end if;
  return make_date(substr(v, 4, 4)::int, (substr(v, 2, 1)::int - 1) * 3 + 1, 1);
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
create function app_hidden.param_kpi_periode(_cadans text, _periode text, org uuid,
                                             out periode text, out van date, out laatste_dag date)
language plpgsql stable set search_path = '' as $$
declare vandaag date := app_hidden.vandaag(org);
begin
  if _periode is null then
    van := case _cadans when 'week' then date_trunc('week', vandaag)::date
                        when 'month' then date_trunc('month', vandaag)::date
                        else (date_trunc('quarter', vandaag) - interval '3 months')::date end;
  elsif _cadans = 'week' then
    van := app_hidden.week_maandag(_periode);
  elsif _cadans = 'month' and _periode ~ '^\d{4}-(0[1-9]|1[0-2])$' and substr(_periode, 1, 4)::int >= 1 then
    van := make_date(substr(_periode, 1, 4)::int, substr(_periode, 6, 2)::int, 1);
  elsif _cadans = 'quarter' and _periode ~ '^\d{4}-Q[1-4]$' and substr(_periode, 1, 4)::int >= 1 then
    van := make_date(substr(_periode, 1, 4)::int, (substr(_periode, 7, 1)::int - 1) * 3 + 1, 1);
  end if;
  if van is null then
    perform app_hidden.ongeldig('periode', format('periode past niet bij de cadans %s: gebruik %s.', _cadans,
      case _cadans when 'week' then '<jjjj>-W<nn>' when 'month' then '<jjjj>-<mm>' else '<jjjj>-Q<n>' end));
  end if;
  laatste_dag := case _cadans when 'week' then van + 6
                              when 'month' then (van + interval '1 month' - interval '1 day')::date
                              else app_hidden.kwartaal_eind(van) end;
  periode := case _cadans when 'week' then app_hidden.iso_week(van)
                          when 'month' then to_char(van, 'YYYY-MM')
                          else to_char(van, 'YYYY-"Q"Q') end;
  if _cadans = 'quarter' and laatste_dag >= vandaag then
    perform app_hidden.ongeldig('periode', format('Kwartaal %s loopt nog of moet nog beginnen; een kwartaal-KPI vul je in na afloop.', periode));
  elsif van > vandaag then
    perform app_hidden.ongeldig('periode', format('Periode %s is nog niet begonnen.', periode));
  end if;
end
$$;

-- A reference to a row of the caller's organisation: its id, or a refusal naming the
-- parameter that never reveals whether the row exists elsewhere or is hidden by a policy.
-- The one lookup-or-refuse helper; `soort` says what the parameter names and how:
--   prioriteit, project, kpi, taak (by id), lid (an active member, by user_id): a uuid;
--   taaknummer: a task by its number; brand_label: by name; team: by name or id, and 'geen'
--   (company-wide) as the nil uuid.
create function app_hidden.param_verwijzing(p jsonb, naam text, soort text, verplicht boolean default false)
returns uuid language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  v text;
  gezocht uuid;
  getal numeric;
  id uuid;
begin
  if soort = 'taaknummer' then
    getal := app_hidden.param_getal(p, naam, verplicht);
    if getal is null then return null; end if;
    if getal <> trunc(getal) or getal < 1 or getal > 2147483647 then
      perform app_hidden.ongeldig(naam, format('%s moet een positief geheel getal zijn.', naam));
    end if;
    v := getal::text;
    select x.id into id from app.taken x where x.org_id = org and x.nummer = getal::int and x.verwijderd_op is null;
  elsif soort in ('team', 'brand_label') then
    v := app_hidden.param_tekst(p, naam, verplicht);
    if v is null then return null; end if;
    if soort = 'team' and lower(v) = 'geen' then return '00000000-0000-0000-0000-000000000000'; end if;
    if soort = 'team' then
      select x.id into id from app.teams x
      where x.org_id = org and (lower(x.naam) = lower(v) or x.id::text = lower(v));
    else
      select x.id into id from app.brand_labels x where x.org_id = org and lower(x.naam) = lower(v);
    end if;
  else
    gezocht := app_hidden.param_uuid(p, naam, verplicht);
    if gezocht is null then return null; end if;
    v := gezocht::text;
    case soort
      when 'prioriteit' then select x.id into id from app.prioriteiten x where x.org_id = org and x.id = gezocht;
      when 'project' then select x.id into id from app.projecten x where x.org_id = org and x.id = gezocht;
      when 'kpi' then select x.id into id from app.kpis x where x.org_id = org and x.id = gezocht;
      when 'taak' then select x.id into id from app.taken x where x.org_id = org and x.id = gezocht and x.verwijderd_op is null;
      when 'lid' then select x.user_id into id from app.lidmaatschappen x where x.org_id = org and x.user_id = gezocht and x.actief;
    end case;
  end if;
  if id is null then
    perform app_hidden.ongeldig(naam, case soort
      when 'prioriteit' then format('Prioriteit %s bestaat niet (gebruik een id uit prioriteiten).', v)
      when 'project' then format('Project %s bestaat niet (gebruik een id uit projecten).', v)
      when 'kpi' then format('KPI %s bestaat niet (gebruik een id uit kpi_scorebord).', v)
      when 'taak' then format('Taak %s bestaat niet (gebruik een id uit taken).', v)
      when 'taaknummer' then format('Taak #%s bestaat niet.', v)
      when 'lid' then format('%s is geen lid van deze organisatie (gebruik een user_id uit team).', v)
      when 'team' then format('Team %s bestaat niet; gebruik een naam of id uit team, of geen.', v)
      else format('Brand label %s bestaat niet; kies uit: %s.', v, coalesce(
        (select string_agg(b.naam, ', ' order by b.naam) from app.brand_labels b where b.org_id = org), 'geen'))
    end);
  end if;
  return id;
end
$$;
