-- Every parameter helper, in one place. Parameters arrive as one jsonb object, checked and
-- normalised by app_hidden.invoer_controleren against the registry's rules (type, pattern,
-- length, range, allowed values: written once, in src/registry.ts). The helpers after it turn
-- a value into its meaning and refuse, naming the parameter, what cannot mean anything: a date
-- that does not exist, a week that has passed, a reference to nothing the caller may see.
-- They parse before they cast, so no error ever lacks its parameter.

-- The keys of a list of objects, in their order, for a refusal.
create function app_hidden.element_sleutels(_elementen jsonb) returns text
language sql immutable parallel safe as $$
  select string_agg(e.key, ', ' order by (e.value ->> 'volgorde')::int) from jsonb_each(_elementen) e
$$;

-- One value against its rule (a row of app.operatie_parameters, or the rule of one key of a
-- list of objects): normalised (query-string and form text becomes the JSON type of its
-- parameter, text is trimmed) or refused with a reason that completes "<name> ...". Absent,
-- empty, only spaces, or null (which only text keeps: it clears a value) is not given: waarde
-- is then SQL null. The one check of every parameter and of every key of an element.
create function app_hidden.waarde_controleren(d app.operatie_parameters, v jsonb, out waarde jsonb, out reden text)
language plpgsql stable set search_path = '' as $$
declare
  t text;
  x jsonb;
  elementen jsonb;
  i integer := 0;
  sleutel text;
  regel app.operatie_parameters;
  c record;
  element jsonb;
begin
  if v is null or (jsonb_typeof(v) = 'string' and trim(v #>> '{}') = '')
     or (jsonb_typeof(v) = 'null' and d.type <> 'text') then
    if d.verplicht then reden := 'is verplicht'; end if;
    return;
  elsif jsonb_typeof(v) = 'null' then
    waarde := v;  -- text: null clears the value
    return;
  end if;
  -- From a query string or a form, an object or a list of objects arrives as JSON text.
  if jsonb_typeof(v) = 'string' and (d.type = 'object' or d.elementen is not null) then
    begin
      v := (v #>> '{}')::jsonb;
    exception when others then
      null;  -- not JSON: refused below as the wrong type
    end;
  end if;
  if d.type = 'uuid' then
    if jsonb_typeof(v) <> 'string' or trim(v #>> '{}') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      reden := 'moet een uuid zijn';
    else
      v := to_jsonb(lower(trim(v #>> '{}')));
    end if;
  elsif d.type in ('integer', 'number') or d.getal then
    if jsonb_typeof(v) = 'string' and trim(v #>> '{}') ~ '^-?\d{1,15}(\.\d{1,15})?$' then
      v := to_jsonb(trim(v #>> '{}')::numeric);
    end if;
    if jsonb_typeof(v) <> 'number' then
      reden := case when d.type = 'integer' then 'moet een geheel getal zijn'
                    when d.getal then 'moet een getal of null zijn' else 'moet een getal zijn' end;
    elsif d.type = 'integer' and v::numeric <> trunc(v::numeric) then
      reden := 'moet een geheel getal zijn';
    elsif v::numeric < d.minimum then
      reden := format('moet minstens %s zijn', d.minimum);
    elsif v::numeric > d.maximum then
      reden := format('mag hoogstens %s zijn', d.maximum);
    end if;
  elsif d.type in ('string', 'text') then
    t := trim(v #>> '{}');
    if jsonb_typeof(v) <> 'string' then
      reden := 'moet tekst zijn';
    elsif length(t) > d.max_lengte then
      reden := format('is te lang (hoogstens %s tekens)', d.max_lengte);
    elsif d.patroon is not null and t !~ d.patroon then
      reden := d.uitleg;
    else
      v := to_jsonb(t);
    end if;
  elsif d.type = 'keuze' then
    if jsonb_typeof(v) <> 'string' or not trim(v #>> '{}') = any (d.waarden) then
      reden := format('moet een van %s zijn', array_to_string(d.waarden, ', '));
    else
      v := to_jsonb(trim(v #>> '{}'));
    end if;
  elsif d.type = 'vlag' then
    if jsonb_typeof(v) = 'string' and lower(trim(v #>> '{}')) in ('ja', 'true') then v := 'true';
    elsif jsonb_typeof(v) = 'string' and lower(trim(v #>> '{}')) in ('nee', 'false') then v := 'false';
    end if;
    if jsonb_typeof(v) <> 'boolean' then reden := 'moet ja of nee zijn'; end if;
  elsif d.type = 'array' then
    -- From a query string or a form: one text, separated by commas.
    if jsonb_typeof(v) = 'string' then
      v := coalesce((select jsonb_agg(trim(e)) from unnest(string_to_array(v #>> '{}', ',')) e where trim(e) <> ''), '[]');
    end if;
    if jsonb_typeof(v) <> 'array' then
      reden := 'moet een lijst zijn';
    elsif jsonb_array_length(v) > d.max_elementen then
      reden := format('heeft te veel elementen (hoogstens %s)', d.max_elementen);
    elsif d.elementen is not null then
      -- A list of objects: only the keys of the rule, each checked by its own rule.
      elementen := '[]';
      for x in select * from jsonb_array_elements(v) loop
        i := i + 1;
        if jsonb_typeof(x) <> 'object' then
          reden := format('moet een lijst van objecten zijn met %s; element %s is geen object',
                          app_hidden.element_sleutels(d.elementen), i);
          exit;
        end if;
        select format('element %s: onbekende sleutel %s; kies uit %s', i, left(k, 100), app_hidden.element_sleutels(d.elementen))
          into reden from jsonb_object_keys(x) k where not d.elementen ? k limit 1;
        exit when reden is not null;
        element := '{}';
        for sleutel in select e.key from jsonb_each(d.elementen) e order by (e.value ->> 'volgorde')::int loop
          regel := jsonb_populate_record(null::app.operatie_parameters, d.elementen -> sleutel);
          select * into c from app_hidden.waarde_controleren(regel, x -> sleutel);
          if c.reden is not null then
            reden := format('element %s: %s %s', i, sleutel, c.reden);
            exit;
          end if;
          if c.waarde is not null then element := element || jsonb_build_object(sleutel, c.waarde); end if;
        end loop;
        exit when reden is not null;
        elementen := elementen || jsonb_build_array(element);
      end loop;
      v := elementen;
    else
      elementen := '[]';
      for x in select * from jsonb_array_elements(v) loop
        if jsonb_typeof(x) <> 'string' or trim(x #>> '{}') = '' then
          reden := 'moet een lijst van teksten zijn'; exit;
        elsif length(trim(x #>> '{}')) > d.max_lengte then
          reden := format('heeft een element dat te lang is (hoogstens %s tekens)', d.max_lengte); exit;
        elsif d.waarden is not null and not trim(x #>> '{}') = any (d.waarden) then
          reden := format('mag alleen %s bevatten', array_to_string(d.waarden, ', ')); exit;
        end if;
        elementen := elementen || to_jsonb(trim(x #>> '{}'));
      end loop;
      v := elementen;
    end if;
  elsif d.type = 'object' then
    if jsonb_typeof(v) <> 'object' then
      reden := 'moet een object zijn';
    else
      select format('mag geen sleutel %s hebben; kies uit %s', left(k, 100), array_to_string(d.waarden, ', '))
        into reden from jsonb_object_keys(v) k where d.waarden is not null and not k = any (d.waarden) limit 1;
      if reden is null then
        select case when jsonb_typeof(v -> k) <> 'string' then format('%s moet tekst zijn', k)
                    else format('%s is te lang (hoogstens %s tekens)', k, d.max_lengte) end
          into reden from jsonb_object_keys(v) k
        where jsonb_typeof(v -> k) <> 'string' or length(trim(v ->> k)) > d.max_lengte limit 1;
      end if;
      -- Texts trimmed, as every text parameter is.
      v := (select coalesce(jsonb_object_agg(e.key, trim(e.value)), '{}') from jsonb_each_text(v) e);
    end if;
  end if;
  if reden is null then waarde := v; end if;
end
$$;

-- The registry's parameter rules of each operation (app.operatie_parameters, written by
-- migrating before db/ is applied) as constants, in their order: a call reads them without
-- touching a table (every table a call touches costs it a lock; see operaties_vast).
select app_hidden.constanten_maken('app_hidden.parameter_regels', '_operatie', 'app.operatie_parameters[]',
  (select jsonb_object_agg(x.operatie, x.regels::text)
   from (select q.operatie, array_agg(q order by q.volgorde) as regels from app.operatie_parameters q group by q.operatie) x),
  $$'{}'::app.operatie_parameters[]$$);
select app_hidden.constanten_maken('app_hidden.parameter_namen', '_operatie', 'text[]',
  (select jsonb_object_agg(x.operatie, x.namen::text)
   from (select q.operatie, array_agg(q.naam order by q.volgorde) as namen from app.operatie_parameters q group by q.operatie) x),
  $$'{}'::text[]$$);

-- The shape of a call's input, checked against the registry's rule for each parameter
-- (app_hidden.parameter_regels: written once, in src/registry.ts) and normalised by
-- app_hidden.waarde_controleren. Returns the input as the operation receives it, or the refusal
-- naming the first parameter at fault; it does not raise, so api.aanroep logs the refusal
-- without a subtransaction. A parameter not given and not required needs no check.
create function app_hidden.invoer_controleren(_operatie text, _p jsonb, out invoer jsonb, out fout jsonb)
language plpgsql stable set search_path = '' as $$
declare
  regels app.operatie_parameters[] := app_hidden.parameter_regels(_operatie);
  d app.operatie_parameters;
  onbekend text;
  c record;
begin
  if jsonb_typeof(_p) is distinct from 'object' then
    fout := jsonb_build_object('code', 'ongeldige_parameters', 'bericht', 'De invoer moet een JSON-object zijn.');
    return;
  end if;
  -- Keys that no rule names: without a query in the usual case (none).
  if _p - app_hidden.parameter_namen(_operatie) <> '{}' then
    select k into onbekend from jsonb_object_keys(_p) k
    where not k = any (app_hidden.parameter_namen(_operatie)) limit 1;
    if onbekend is not null then
      fout := jsonb_build_object('code', 'ongeldige_parameters', 'parameter', left(onbekend, 100),
        'bericht', format('Onbekende parameter %s. De index op /api/v1 noemt de parameters.', left(onbekend, 100)));
      return;
    end if;
  end if;
  invoer := '{}';
  foreach d in array regels loop
    continue when not (d.verplicht or _p ? d.naam);
    c := app_hidden.waarde_controleren(d, _p -> d.naam);
    if c.reden is not null then
      fout := jsonb_build_object('code', 'ongeldige_parameters', 'parameter', d.naam,
                                 'bericht', format('%s %s.', d.naam, c.reden));
      invoer := null;
      return;
    end if;
    if c.waarde is not null then invoer := invoer || jsonb_build_object(d.naam, c.waarde); end if;
  end loop;
end
$$;

-- A date <yyyy>-<mm>-<dd> that exists (no 30 February, no year 0).
create function app_hidden.param_datum(p jsonb, naam text) returns date
language plpgsql immutable set search_path = '' as $$
declare v text := p ->> naam;
begin
  if v is null then return null; end if;
  if app_hidden.periode_begin('dag', v) is not null then return app_hidden.periode_begin('dag', v); end if;
  perform app_hidden.ongeldig(naam, format('%s is geen bestaande datum: %s.', naam, v));
end
$$;

-- Tag names from a list parameter, unique ignoring letter case (the interface: tags ignore
-- case), in the order given; null when not given.
create function app_hidden.param_tags(p jsonb, naam text) returns text[]
language plpgsql immutable set search_path = '' as $$
declare
  uit text[] := '{}';
  t text;
begin
  if not p ? naam then return null; end if;
  for t in select jsonb_array_elements_text(p -> naam) loop
    if not lower(t) = any (select lower(u) from unnest(uit) u) then uit := uit || t; end if;
  end loop;
  return uit;
end
$$;

-- 'Q<n>-<yyyy>' (the kwartaal parameter): its first day; empty is the running quarter.
create function app_hidden.param_kwartaal(p jsonb, naam text, org uuid) returns date
language plpgsql stable set search_path = '' as $$
declare v text := p ->> naam;
begin
  if v is null then return date_trunc('quarter', app_hidden.vandaag(org))::date; end if;
  if app_hidden.periode_begin('kwartaal', v) is null then
    perform app_hidden.ongeldig(naam, format('%s moet een kwartaal zijn als Q2-2026.', naam));
  end if;
  return app_hidden.periode_begin('kwartaal', v);
end
$$;

-- A week parameter: 'YYYY-Wnn', 'deze' or 'volgende'. With _toekomst, a week that has passed
-- is refused. JSON null stays null (taak_bijwerken: remove from every week).
create function app_hidden.param_week(p jsonb, naam text, org uuid, _toekomst boolean default true) returns text
language plpgsql stable set search_path = '' as $$
declare
  v text := p ->> naam;
  vandaag date;
  maandag date;
begin
  if v is null then return null; end if;
  -- Today only when a week is given: most calls give none (a list of taken, a task by number).
  vandaag := app_hidden.vandaag(org);
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
  else
    van := app_hidden.periode_begin(case _cadans when 'month' then 'maand' when 'quarter' then 'kwartaal_iso' else _cadans end, _periode);
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
create function app_hidden.param_verwijzing(p jsonb, naam text, soort text) returns uuid
language plpgsql stable set search_path = '' as $$
declare
  org uuid;
  v text := p ->> naam;
  id uuid;
begin
  if v is null then return null; end if;
  org := app_hidden.huidige_org();  -- the caller row, read only for a reference given
  case soort
    when 'taaknummer' then select x.id into id from app.taken x where x.org_id = org and x.nummer = v::int and x.verwijderd_op is null;
    when 'team' then
      if lower(v) = 'geen' then return '00000000-0000-0000-0000-000000000000'; end if;
      select x.id into id from app.teams x where x.org_id = org and (lower(x.naam) = lower(v) or x.id::text = lower(v));
    when 'brand_label' then select x.id into id from app.brand_labels x where x.org_id = org and lower(x.naam) = lower(v);
    when 'prioriteit' then select x.id into id from app.prioriteiten x where x.org_id = org and x.id = v::uuid;
    when 'project' then select x.id into id from app.projecten x where x.org_id = org and x.id = v::uuid;
    when 'kpi' then select x.id into id from app.kpis x where x.org_id = org and x.id = v::uuid;
    when 'taak' then select x.id into id from app.taken x where x.org_id = org and x.id = v::uuid and x.verwijderd_op is null;
    when 'lid' then select x.user_id into id from app.lidmaatschappen x where x.org_id = org and x.user_id = v::uuid and x.actief;
  end case;
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
