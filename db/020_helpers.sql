-- Small helpers every operation uses: the clock, refusals, dates, locks, redaction.

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

create function app_hidden.kwartaal_eind(start date) returns date
language sql immutable parallel safe as $$ select (start + interval '3 months' - interval '1 day')::date $$;

create function app_hidden.iso_week(d date) returns text
language sql immutable parallel safe as $$
  select to_char(d, 'IYYY-"W"IW')
$$;

-- The Monday of an ISO week 'YYYY-Wnn', or null when that is no existing week (W53 only in
-- long years, no year 0). Checks the shape before any cast, so free text is null, not an error.
create function app_hidden.week_maandag(week text) returns date
language plpgsql immutable set search_path = '' as $$
declare
  jaar int;
  nr int;
  maandag date;
begin
  if week is null or week !~ '^\d{4}-W\d{2}$' then return null; end if;
  jaar := substr(week, 1, 4)::int;
  nr := substr(week, 7, 2)::int;
  if jaar < 1 or nr < 1 then return null; end if;
  -- 4 January is always in ISO week 1.
  maandag := make_date(jaar, 1, 4) - (extract(isodow from make_date(jaar, 1, 4))::int - 1) + (nr - 1) * 7;
  if to_char(maandag, 'IYYY-"W"IW') <> week then return null; end if;
  return maandag;
end
$$;

-- One field of a proposal: what stands now and what it becomes.
create function app_hidden.veld(nu jsonb, wordt jsonb) returns jsonb
language sql immutable as $$
  select jsonb_build_object('nu', coalesce(nu, 'null'), 'wordt', coalesce(wordt, 'null'))
$$;

-- Serialises writers of one logical object for the rest of the transaction, also when the
-- object has no row yet to lock (a measurement, a day's priorities). Needs no privilege.
create function app_hidden.vergrendel(variadic delen text[]) returns void
language sql volatile as $$
  select pg_advisory_xact_lock(hashtextextended(array_to_string(delen, '/'), 0))
$$;

-- Text as it may be stored in a log: anything shaped like a credential (an API key, a bearer
-- token) masked, and at most _max characters. Secrets are never written to a log.
create function app_hidden.redigeren(_tekst text, _max integer default 2048) returns text
language sql immutable parallel safe as $$
  select left(regexp_replace(_tekst,
    '(koers_live_|koers_at_|koers_rt_|koers_whsec_)[0-9A-Za-z_-]*|(bearer\s+)[^\s"\\,}]+', '\1\2[verborgen]', 'gi'), _max)
$$;

-- A JSON value as it may be stored in a log: every string redacted, at most _max characters of
-- JSON in all (a longer value becomes {"_afgekapt": <the redacted text, cut short>}).
create function app_hidden.redigeren(_waarde jsonb, _max integer default 2048) returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  tekst text;
begin
  if _waarde is null then return null; end if;
  tekst := _waarde::text;
  if tekst !~* '(koers_live_|koers_at_|koers_rt_|koers_whsec_|bearer)' and length(tekst) <= _max then return _waarde; end if;
  tekst := app_hidden.redigeren(tekst, 1000000);
  if length(tekst) <= _max then
    begin
      return tekst::jsonb;
    exception when others then null;
    end;
  end if;
  return jsonb_build_object('_afgekapt', left(tekst, _max));
end
$$;

-- Koers's public address followed by a path: where the refusals of both doors send people. The
-- setting koers.publieke_url comes from KOERS_PUBLIC_URL (src/db/connection.ts); without it, the
-- address the service last started on (app_private.instellingen); else the path alone. Called
-- by security-definer functions (app_hidden.aanroep_begin), which may read app_private.
create function app_hidden.app_adres(_pad text) returns text
language plpgsql stable set search_path = '' as $$
begin
  return coalesce(nullif(current_setting('koers.publieke_url', true), ''),
                  (select i.waarde from app_private.instellingen i where i.sleutel = 'dienst_adres'), '') || _pad;
end
$$;
