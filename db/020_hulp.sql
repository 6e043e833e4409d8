-- Small helpers every operation uses: the clock, refusals, parameters, dates.

-- "Now" for every figure. The test clock (setting koers.nu, from KOERS_NOW) replaces it
-- everywhere, so every figure is reproducible.
create function app_hidden.nu() returns timestamptz
language sql stable parallel safe as $$
  select coalesce(nullif(current_setting('koers.nu', true), '')::timestamptz, now())
$$;

-- A refusal with a stable fout code. SQLSTATE 'KOERS' carries the code in DETAIL and the
-- parameter at fault in HINT; api.aanroep turns it into status and fout body.
create function app_hidden.fout(code text, bericht text, parameter text default null) returns void
language plpgsql immutable set search_path = '' as $$
begin
  raise exception using errcode = 'KOERS', message = bericht, detail = code,
    hint = coalesce(parameter, '');
end
$$;

create function app_hidden.ongeldig(parameter text, bericht text) returns void
language sql immutable as $$
  select app_hidden.fout('ongeldige_parameters', bericht, parameter)
$$;

-- Parameters arrive as one jsonb object. The doors validate shape first; these check again,
-- so the SQL stands on its own (pgTAP calls it directly), and name the parameter at fault.

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

create function app_hidden.param_datum(p jsonb, naam text, verplicht boolean default false)
returns date language plpgsql immutable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam, verplicht);
begin
  if v is null then return null; end if;
  if v !~ '^\d{4}-\d{2}-\d{2}$' then
    perform app_hidden.ongeldig(naam, format('%s moet een datum zijn als jjjj-mm-dd.', naam));
  end if;
  begin
    return v::date;
  exception when others then
    perform app_hidden.ongeldig(naam, format('%s is geen bestaande datum.', naam));
  end;
end
$$;

-- A member of the caller's organisation (active), by user_id.
create function app_hidden.param_lid(p jsonb, naam text, verplicht boolean default false)
returns uuid language plpgsql stable set search_path = '' as $$
declare v uuid := app_hidden.param_uuid(p, naam, verplicht);
begin
  if v is not null and not exists (
    select 1 from app.lidmaatschappen l
    where l.org_id = app_hidden.huidige_org() and l.user_id = v and l.actief
  ) then
    perform app_hidden.ongeldig(naam, format('%s is geen lid van deze organisatie.', naam));
  end if;
  return v;
end
$$;

-- Dates in the organisation's time zone.
create function app_hidden.vandaag(org uuid) returns date
language plpgsql stable set search_path = '' as $$
begin
  return (select (app_hidden.nu() at time zone o.tijdzone)::date from app.organisaties o where o.org_id = org);
end
$$;

create function app_hidden.kwartaal_label(d date) returns text
language sql immutable parallel safe as $$
  select format('Q%s-%s', extract(quarter from d), extract(year from d))
$$;

create function app_hidden.iso_week(d date) returns text
language sql immutable parallel safe as $$
  select to_char(d, 'IYYY-"W"IW')
$$;

create function app_hidden.persoon(org uuid, u uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (select jsonb_build_object('user_id', a.id, 'naam', a.naam)
          from app.accounts a join app.lidmaatschappen l on l.user_id = a.id and l.org_id = org
          where a.id = u);
end
$$;

-- One field of a proposal: what stands now and what it becomes.
create function app_hidden.veld(nu jsonb, wordt jsonb) returns jsonb
language sql immutable as $$
  select jsonb_build_object('nu', coalesce(nu, 'null'), 'wordt', coalesce(wordt, 'null'))
$$;
