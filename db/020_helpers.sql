-- Small helpers every operation uses: the clock, refusals, dates, locks, redaction; and the maker
-- of constant functions from reference data.

-- "Now" for every figure. The test clock (setting koers.nu, from KOERS_NOW) replaces it
-- everywhere, so every figure is reproducible.
create function app_hidden.nu() returns timestamptz
language sql stable parallel safe as $$
  select coalesce(nullif(current_setting('koers.nu', true), '')::timestamptz, now())
$$;

-- A UUID of version 7 (RFC 9562): the Unix time in milliseconds in its first 48 bits, the rest
-- random as gen_random_uuid() makes it (74 random bits). The id of the rows of the append-only
-- logs with uuid keys (calls, events, webhook messages; history entries and audit rows are
-- numbered), whose primary keys lead with org_id: a random id puts each new row on a random leaf
-- page of its organisation's part of the index, so every insert touches a page that is cold in
-- memory (and, the first time after a checkpoint, writes the whole page to the WAL); a
-- time-ordered id puts it on the last page. The real clock, not the test clock (app_hidden.nu):
-- the order is that of the writes. Measured on the benchmark's data (1.3 million log rows of one
-- organisation): a log row insert 19-23 us with a random id, 12-14 us with this one; a door call
-- wie_ben_ik 7-9% more calls per second on one connection.
create function app_hidden.tijd_uuid() returns uuid
language sql volatile parallel safe as $$
  select encode(set_bit(set_bit(
    overlay(uuid_send(gen_random_uuid())
            placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
            from 1 for 6),
    52, 1), 53, 1), 'hex')::uuid  -- version bits 0100 (4) become 0111 (7); the variant stays
$$;

-- The ids those logs' rows get unless a statement names one (a call's log row takes the id its
-- caller row was made with, db/050_call.sql). Set with the code: dropping app_hidden
-- (000_schemas.sql) drops these defaults, and this file sets them again in the same transaction.
alter table app_private.aanroepen alter column id set default app_hidden.tijd_uuid();
alter table app_private.aanroepen_zonder_org alter column id set default app_hidden.tijd_uuid();
alter table app.gebeurtenissen alter column id set default app_hidden.tijd_uuid();
alter table app_private.webhook_berichten alter column id set default app_hidden.tijd_uuid();

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

-- The rules of the data model that a caller can break, each by the name of the check constraint
-- that holds it (or, for a rule no constraint can hold, a name of the same form): the parameter
-- at fault and the message. The one place for them: the operations and the app refuse with
-- app_hidden.regel_weigeren before writing, the import reports the same message at the item's
-- place, and a check violation that still reaches api.aanroep answers with it
-- (db/050_call.sql). sql-tests/012-catalogus_regels.sql checks that every name of a constraint
-- here exists.
create function app_hidden.regels() returns table (naam text, parameter text, bericht text)
language sql immutable parallel safe as $$
  values
    ('taken_prioriteit_of_project', 'project_id', 'Een taak hoort bij een prioriteit of bij een project, niet bij allebei.'),
    ('taken_grootte_of_inschatting', 'inschatting_uren', 'Geef grootte of inschatting_uren, niet allebei.'),
    ('kernresultaten_doel_niet_start', 'doel', 'Het doel moet verschillen van de startwaarde.'),
    ('reflecties_energie', 'energie', 'energie moet een geheel getal van 1 tot en met 10 zijn.'),
    ('gesprekken_met_een_ander', 'met', 'Een gesprek voert iemand met een ander: wie en met zijn dezelfde persoon.'),
    ('prioriteiten_deadline_na_start', 'deadline', 'De deadline ligt voor de startdatum.'),
    ('projecten_deadline_na_start', 'deadline', 'De deadline ligt voor de startdatum.'),
    ('uren_een_onderwerp', 'project', 'Uren horen bij een taak, een prioriteit of een project, niet bij meer tegelijk.')
$$;

create function app_hidden.regel(_naam text, out parameter text, out bericht text)
language sql immutable parallel safe as $$
  select r.parameter, r.bericht from app_hidden.regels() r where r.naam = _naam
$$;

-- Refuses by a rule of app_hidden.regel.
create function app_hidden.regel_weigeren(_naam text) returns void
language plpgsql immutable set search_path = '' as $$
declare r record := app_hidden.regel(_naam);
begin
  if r.bericht is null then raise exception 'app_hidden.regel_weigeren: no rule %', _naam; end if;
  perform app_hidden.ongeldig(r.parameter, r.bericht);
end
$$;

-- Dates in the organisation's time zone.
create function app_hidden.vandaag(org uuid) returns date
language plpgsql stable set search_path = '' as $$
begin
  return (select (app_hidden.nu() at time zone o.tijdzone)::date from app.organisaties o where o.org_id = org);
end
$$;

-- Written with immutable operators only (format() is stable), so that it is inlined where
-- definitions call it for every row.
create function app_hidden.kwartaal_label(d date) returns text
language sql immutable parallel safe as $$
  select 'Q' || extract(quarter from d)::integer::text || '-' || extract(year from d)::integer::text
$$;

create function app_hidden.kwartaal_eind(start date) returns date
language sql immutable parallel safe as $$ select (start + interval '3 months' - interval '1 day')::date $$;

-- Stable, as to_char is: declared immutable it was never inlined, and a call ran it as a SQL
-- function of its own, planned anew each time.
create function app_hidden.iso_week(d date) returns text
language sql stable parallel safe as $$
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

-- The one period parser: the first day of a period given as text in the interface's spelling
-- of its kind, or null when the text is no existing period of that kind (never raises, so free
-- text is null, not an error). The kinds: dag <yyyy>-<mm>-<dd>; week <yyyy>-W<nn>; maand
-- <yyyy>-<mm>; kwartaal Q<n>-<yyyy>; kwartaal_iso <yyyy>-Q<n> (a KPI's quarter); jaar <yyyy>.
-- No year 0.
create function app_hidden.periode_begin(_soort text, _tekst text) returns date
language plpgsql immutable set search_path = '' as $$
declare j int;
begin
  if _tekst is null or _tekst !~ '^(Q[1-4]-)?\d{4}' or substring(_tekst from '\d{4}')::int < 1 then return null; end if;
  j := substring(_tekst from '\d{4}')::int;
  if _soort = 'dag' and _tekst ~ '^\d{4}-(0[1-9]|1[0-2])-\d{2}$' and substr(_tekst, 9, 2)::int between 1 and
       extract(day from make_date(j, substr(_tekst, 6, 2)::int, 1) + interval '1 month' - interval '1 day') then
    return make_date(j, substr(_tekst, 6, 2)::int, substr(_tekst, 9, 2)::int);
  elsif _soort = 'week' then
    return app_hidden.week_maandag(_tekst);
  elsif _soort = 'maand' and _tekst ~ '^\d{4}-(0[1-9]|1[0-2])$' then
    return make_date(j, substr(_tekst, 6, 2)::int, 1);
  elsif _soort = 'kwartaal' and _tekst ~ '^Q[1-4]-\d{4}$' then
    return make_date(j, (substr(_tekst, 2, 1)::int - 1) * 3 + 1, 1);
  elsif _soort = 'kwartaal_iso' and _tekst ~ '^\d{4}-Q[1-4]$' then
    return make_date(j, (substr(_tekst, 7, 1)::int - 1) * 3 + 1, 1);
  elsif _soort = 'jaar' and _tekst ~ '^\d{4}$' then
    return make_date(j, 1, 1);
  end if;
  return null;
end
$$;

-- One field of a proposal: what stands now and what it becomes.
create function app_hidden.veld(nu jsonb, wordt jsonb) returns jsonb
language sql stable as $$
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
-- JSON in all (a longer value becomes {"_afgekapt": <the redacted text, cut short>}). A SQL
-- function, inlined where it is called: the common case (short, nothing shaped like a secret)
-- costs no function entry; the rest goes to redigeren_json.
create function app_hidden.redigeren_json(_waarde jsonb, _max integer) returns jsonb
language plpgsql immutable set search_path = '' as $$
declare tekst text := app_hidden.redigeren(_waarde::text, 1000000);
begin
  if length(tekst) <= _max then
    begin
      return tekst::jsonb;
    exception when others then null;
    end;
  end if;
  return jsonb_build_object('_afgekapt', left(tekst, _max));
end
$$;

create function app_hidden.redigeren(_waarde jsonb, _max integer default 2048) returns jsonb
language sql immutable as $$
  select case when _waarde is null then null
              when length(_waarde::text) <= _max and _waarde::text !~* '(koers_live_|koers_at_|koers_rt_|koers_whsec_|bearer)'
                then _waarde
              else app_hidden.redigeren_json(_waarde, _max) end
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

-- Makes the immutable SQL function _functie(_parameter text) returns _type that answers each key
-- of _waarden with its value (text, cast to _type) as a constant and any other key with _anders
-- (SQL; default null): reference data that a call reads without touching a table (see
-- app_hidden.operaties_json, 030_caller.sql), made while db/ is applied. Not for the doors
-- (db/999_grants.sql).
create function app_hidden.constanten_maken(_functie text, _parameter text, _type text, _waarden jsonb,
                                            _anders text default 'null') returns void
language plpgsql volatile set search_path = '' as $$
begin
  execute format('create function %s(%I text) returns %s language sql immutable parallel safe as $b$ select case %I %s else %s end $b$',
    _functie, _parameter, _type, _parameter,
    coalesce((select string_agg(format('when %L then %L::%s', w.key, w.value, _type), ' ' order by w.key)
              from jsonb_each_text(_waarden) w), 'when null then null'),
    _anders);
end
$$;
