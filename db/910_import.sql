-- koers import: an organisation's data from one JSON file (docs/import.md). The CLI checks
-- the file's shape against docs/import.schema.json first; beheer.importeren checks what the
-- shape cannot (references between items, dates that exist, rules of the domain), reports
-- every fault with its place in the file (a JSON pointer), and only when there is none writes
-- everything, through the tables and so through their triggers (history, events, audit), as
-- the app, with one call-log row. The CLI runs it in one transaction: all or nothing.
--
-- Identity, so a second run adds nothing: an item is found again by its file's own `sleutel`,
-- else by a key derived from its natural key, recorded in app_private.import_sleutels; people
-- by e-mail, teams by name, and what the data model holds once per natural key (a KPI's
-- measurement of a period, a quarter target, a person's reflection of a period, a valuation
-- of a period, a conversation) by that key. Found again, an item is updated with what the
-- file gives; what the file leaves out keeps its value.
--
-- The file is read defensively: it may still hold shape faults the CLI reports itself, so
-- nothing here casts a value it has not checked.

-- Reading the file ---------------------------------------------------------------------------

create function beheer.imp_tekst(_v jsonb) returns text
language sql immutable parallel safe as $$
  select case when jsonb_typeof(_v) = 'string' then nullif(trim(_v #>> '{}'), '') end
$$;

create function beheer.imp_email(_v jsonb) returns text
language sql immutable parallel safe as $$ select lower(beheer.imp_tekst(_v)) $$;

create function beheer.imp_getal(_v jsonb) returns numeric
language sql immutable parallel safe as $$
  select case when jsonb_typeof(_v) = 'number' then (_v #>> '{}')::numeric end
$$;

create function beheer.imp_vlag(_v jsonb) returns boolean
language sql immutable parallel safe as $$
  select case when jsonb_typeof(_v) = 'boolean' then (_v #>> '{}')::boolean end
$$;

-- The objects of a list, with their index (0-based, as in a JSON pointer).
create function beheer.imp_lijst(_v jsonb) returns table (i integer, e jsonb)
language sql immutable parallel safe as $$
  select (x.n - 1)::integer, x.e
  from jsonb_array_elements(case when jsonb_typeof(_v) = 'array' then _v else '[]' end) with ordinality x (e, n)
  where jsonb_typeof(x.e) = 'object'
$$;

-- A list of texts as the file gives it, or null when it gives none.
create function beheer.imp_teksten(_v jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case when jsonb_typeof(_v) = 'array' then
    coalesce((select jsonb_agg(trim(x #>> '{}')) from jsonb_array_elements(_v) x
              where jsonb_typeof(x) = 'string' and trim(x #>> '{}') <> ''), '[]') end
$$;

-- A date <yyyy>-<mm>-<dd> that exists, or null.
create function beheer.imp_datum(_v text) returns date
language plpgsql immutable set search_path = '' as $$
declare j int; m int; d int;
begin
  if _v is null or _v !~ '^\d{4}-\d{2}-\d{2}$' then return null; end if;
  j := substr(_v, 1, 4)::int; m := substr(_v, 6, 2)::int; d := substr(_v, 9, 2)::int;
  if j < 1 or m not between 1 and 12 or d < 1
     or d > extract(day from make_date(j, m, 1) + interval '1 month' - interval '1 day') then
    return null;
  end if;
  return make_date(j, m, d);
end
$$;

-- The first day of a quarter Q<n>-<yyyy>, or null.
create function beheer.imp_kwartaal(_v text) returns date
language plpgsql immutable set search_path = '' as $$
begin
  if _v is null or _v !~ '^Q[1-4]-\d{4}$' or substr(_v, 4, 4)::int < 1 then return null; end if;
  return make_date(substr(_v, 4, 4)::int, (substr(_v, 2, 1)::int - 1) * 3 + 1, 1);
end
$$;

-- A KPI measurement's period for a cadence, as kpi_meting_invoeren judges it (the same rules:
-- one function), or the reason it is refused.
create function beheer.imp_kpi_periode(_cadans text, _periode text, _org uuid,
                                       out periode text, out van date, out laatste_dag date, out fout text)
language plpgsql stable set search_path = '' as $$
begin
  select p.periode, p.van, p.laatste_dag into periode, van, laatste_dag
  from app_hidden.param_kpi_periode(_cadans, _periode, _org) p;
exception when sqlstate 'KOERS' then
  get stacked diagnostics fout = message_text;
end
$$;

-- The key under which app_private.import_sleutels remembers an item (long keys by their hash).
create function beheer.imp_sleutel(_ident text) returns text
language sql immutable parallel safe as $$
  select case when length(_ident) <= 200 then _ident else 'md5:' || md5(_ident) end
$$;

create function beheer.imp_gevonden(_org uuid, _soort text, _ident text) returns uuid
language sql stable as $$
  select s.id from app_private.import_sleutels s
  where s.org_id = _org and s.soort = _soort and s.sleutel = beheer.imp_sleutel(_ident)
$$;

create function beheer.imp_onthouden(_org uuid, _soort text, _ident text, _id uuid) returns void
language sql volatile as $$
  insert into app_private.import_sleutels (org_id, soort, sleutel, id)
  values (_org, _soort, beheer.imp_sleutel(_ident), _id)
  on conflict (org_id, soort, sleutel) do update set id = excluded.id where import_sleutels.id <> excluded.id
$$;

-- A member by e-mail (written before whatever refers to them), active or not: the file may
-- hold the history of someone who left.
create function beheer.imp_persoon(_org uuid, _email text) returns uuid
language sql stable as $$
  select l.user_id from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
  where l.org_id = _org and lower(a.email) = _email
$$;

-- The row an earlier import wrote an item to, when it still exists.
create function beheer.imp_bestaand(_org uuid, _soort text, _ident text, _tabel regclass) returns uuid
language plpgsql stable set search_path = '' as $$
declare
  gevonden uuid := beheer.imp_gevonden(_org, _soort, _ident);
  bestaat boolean;
begin
  if gevonden is null then return null; end if;
  execute format('select exists (select 1 from %s x where x.org_id = $1 and x.id = $2)', _tabel)
    into bestaat using _org, gevonden;
  return case when bestaat then gevonden end;
end
$$;

-- Counts per kind: new, updated, unchanged. Also the progress line on a large file.
create function beheer.imp_tel(_aantallen jsonb, _soort text, _uitkomst text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  klaar integer := coalesce(nullif(current_setting('koers.import_klaar', true), ''), '0')::integer + 1;
  totaal integer := coalesce(nullif(current_setting('koers.import_totaal', true), ''), '0')::integer;
begin
  perform set_config('koers.import_klaar', klaar::text, true);
  if totaal >= 1000 and (klaar % 500 = 0 or klaar = totaal) then
    raise notice 'import: % of % items written', klaar, totaal;
  end if;
  return _aantallen || jsonb_build_object(_soort, coalesce(_aantallen -> _soort, '{}')
    || jsonb_build_object(_uitkomst, coalesce((_aantallen #>> array[_soort, _uitkomst])::integer, 0) + 1));
end
$$;

-- Unpacking the file into working tables -------------------------------------------------------

-- One working table per kind of item, in file order (nr), each row with its place in the file
-- (pad), its fields as far as they have the right type, and later its references resolved,
-- its identity (ident) and the id it was written to. They live for the transaction. Returns the
-- number of items (a session note's action points count as part of it).
create function beheer.imp_uitpakken(_bestand jsonb) returns integer
language plpgsql volatile set search_path = '' as $$
declare
  b jsonb := case when jsonb_typeof(_bestand) = 'object' then _bestand else '{}' end;
begin
  -- Left by an earlier call in this transaction.
  if to_regclass('pg_temp.imp_fouten') is not null then
    drop table pg_temp.imp_fouten, pg_temp.imp_mensen, pg_temp.imp_teams, pg_temp.imp_processen,
    pg_temp.imp_rollen, pg_temp.imp_projecten, pg_temp.imp_prioriteiten, pg_temp.imp_kernresultaten,
    pg_temp.imp_kpis, pg_temp.imp_doelen, pg_temp.imp_metingen, pg_temp.imp_taken, pg_temp.imp_opmerkingen,
    pg_temp.imp_uren, pg_temp.imp_weektaken, pg_temp.imp_reflecties, pg_temp.imp_waarderingen,
    pg_temp.imp_gesprekken, pg_temp.imp_sessienotities, pg_temp.imp_actiepunten, pg_temp.imp_strategie;
  end if;
  create temp table imp_fouten (pad text, bericht text) on commit drop;
  create temp table imp_mensen (nr bigint generated always as identity, pad text, email text, email_tekst text,
    naam text, rol text, functietitel text, team text, actief boolean) on commit drop;
  create temp table imp_teams (nr bigint generated always as identity, pad text, naam text, leider text) on commit drop;
  create temp table imp_processen (nr bigint generated always as identity, pad text, naam text,
    eindverantwoordelijke text, volgorde numeric, ident text, id uuid) on commit drop;
  create temp table imp_rollen (nr bigint generated always as identity, pad text, proces_pad text, naam text,
    wie text, ident text) on commit drop;
  create temp table imp_projecten (nr bigint generated always as identity, pad text, sleutel text, titel text,
    eigenaar text, omschrijving text, startdatum text, deadline text, besloten boolean, leden jsonb,
    afgerond boolean, ident text, id uuid) on commit drop;
  create temp table imp_prioriteiten (nr bigint generated always as identity, pad text, sleutel text, titel text,
    soort text, eigenaar text, kwartaal text, startdatum text, deadline text, omschrijving text, team text,
    afgerond boolean, ident text, id uuid) on commit drop;
  create temp table imp_kernresultaten (nr bigint generated always as identity, pad text, prio_pad text,
    titel text, start numeric, doel numeric, waarde numeric) on commit drop;
  create temp table imp_kpis (nr bigint generated always as identity, pad text, sleutel text, naam text,
    eenheid text, eigenaar text, meetsoort text, cadans text, lager_is_beter boolean, team text, ident text,
    id uuid) on commit drop;
  create temp table imp_doelen (nr bigint generated always as identity, pad text, kpi_pad text, kwartaal text,
    doel numeric) on commit drop;
  create temp table imp_metingen (nr bigint generated always as identity, pad text, kpi_pad text, periode text,
    waarde numeric, toelichting text, door text, norm text, van date, laatste_dag date) on commit drop;
  create temp table imp_taken (nr bigint generated always as identity, pad text, ouder_pad text, sleutel text,
    omschrijving text, toelichting text, prioriteit text, project text, eigenaar text, aangemaakt_door text,
    stand text, deadline text, week text, grootte text, inschatting_uren numeric, herhalen text, tags jsonb,
    prio_pad text, project_pad text, ident text, id uuid) on commit drop;
  create temp table imp_opmerkingen (nr bigint generated always as identity, pad text, taak_pad text,
    door text, tekst text) on commit drop;
  create temp table imp_uren (nr bigint generated always as identity, pad text, sleutel text, wie text,
    datum text, uren numeric, taak text, prioriteit text, project text, omschrijving text, taak_pad text,
    prio_pad text, project_pad text, ident text) on commit drop;
  create temp table imp_weektaken (nr bigint generated always as identity, pad text, wie text, week text,
    titel text, kolom text, prioriteit text, prio_pad text) on commit drop;
  create temp table imp_reflecties (nr bigint generated always as identity, pad text, wie text, soort text,
    periode text, goed text, beter text, geleerd text, focus text, energie numeric, ingediend boolean,
    label text, van date) on commit drop;
  create temp table imp_waarderingen (nr bigint generated always as identity, pad text, periode text,
    omzet numeric, ebitda numeric, multiple numeric, aandelenwaarde numeric) on commit drop;
  create temp table imp_gesprekken (nr bigint generated always as identity, pad text, wie text, met text,
    soort text, datum text, afgerond boolean, eindoordeel text) on commit drop;
  create temp table imp_sessienotities (nr bigint generated always as identity, pad text, sleutel text,
    datum text, titel text, soort text, samenvatting text, highlights jsonb, besluiten jsonb, learnings jsonb,
    vastgesteld boolean, geschreven_door text, ident text, id uuid) on commit drop;
  create temp table imp_actiepunten (nr bigint generated always as identity, pad text, notitie_pad text,
    tekst text, eigenaar text, deadline text) on commit drop;
  create temp table imp_strategie (nr bigint generated always as identity, pad text, veld text, waarde text) on commit drop;

  insert into pg_temp.imp_mensen (pad, email, email_tekst, naam, rol, functietitel, team, actief)
  select '/mensen/' || x.i, beheer.imp_email(x.e -> 'email'), beheer.imp_tekst(x.e -> 'email'), beheer.imp_tekst(x.e -> 'naam'),
         beheer.imp_tekst(x.e -> 'rol'), beheer.imp_tekst(x.e -> 'functietitel'), beheer.imp_tekst(x.e -> 'team'),
         beheer.imp_vlag(x.e -> 'actief')
  from beheer.imp_lijst(b -> 'mensen') x order by x.i;

  insert into pg_temp.imp_teams (pad, naam, leider)
  select '/teams/' || x.i, beheer.imp_tekst(x.e -> 'naam'), beheer.imp_email(x.e -> 'leider')
  from beheer.imp_lijst(b -> 'teams') x order by x.i;

  insert into pg_temp.imp_processen (pad, naam, eindverantwoordelijke, volgorde)
  select '/processen/' || x.i, beheer.imp_tekst(x.e -> 'naam'), beheer.imp_email(x.e -> 'eindverantwoordelijke'),
         beheer.imp_getal(x.e -> 'volgorde')
  from beheer.imp_lijst(b -> 'processen') x order by x.i;
  insert into pg_temp.imp_rollen (pad, proces_pad, naam, wie)
  select '/processen/' || x.i || '/rollen/' || y.i, '/processen/' || x.i, beheer.imp_tekst(y.e -> 'naam'),
         beheer.imp_email(y.e -> 'wie')
  from beheer.imp_lijst(b -> 'processen') x, beheer.imp_lijst(x.e -> 'rollen') y order by x.i, y.i;

  insert into pg_temp.imp_projecten (pad, sleutel, titel, eigenaar, omschrijving, startdatum, deadline, besloten, leden, afgerond)
  select '/projecten/' || x.i, beheer.imp_tekst(x.e -> 'sleutel'), beheer.imp_tekst(x.e -> 'titel'),
         beheer.imp_email(x.e -> 'eigenaar'), beheer.imp_tekst(x.e -> 'omschrijving'),
         beheer.imp_tekst(x.e -> 'startdatum'), beheer.imp_tekst(x.e -> 'deadline'), beheer.imp_vlag(x.e -> 'besloten'),
         beheer.imp_teksten(x.e -> 'leden'), beheer.imp_vlag(x.e -> 'afgerond')
  from beheer.imp_lijst(b -> 'projecten') x order by x.i;

  insert into pg_temp.imp_prioriteiten (pad, sleutel, titel, soort, eigenaar, kwartaal, startdatum, deadline, omschrijving, team, afgerond)
  select '/prioriteiten/' || x.i, beheer.imp_tekst(x.e -> 'sleutel'), beheer.imp_tekst(x.e -> 'titel'),
         beheer.imp_tekst(x.e -> 'soort'), beheer.imp_email(x.e -> 'eigenaar'), beheer.imp_tekst(x.e -> 'kwartaal'),
         beheer.imp_tekst(x.e -> 'startdatum'), beheer.imp_tekst(x.e -> 'deadline'),
         beheer.imp_tekst(x.e -> 'omschrijving'), beheer.imp_tekst(x.e -> 'team'), beheer.imp_vlag(x.e -> 'afgerond')
  from beheer.imp_lijst(b -> 'prioriteiten') x order by x.i;
  insert into pg_temp.imp_kernresultaten (pad, prio_pad, titel, start, doel, waarde)
  select '/prioriteiten/' || x.i || '/kernresultaten/' || y.i, '/prioriteiten/' || x.i, beheer.imp_tekst(y.e -> 'titel'),
         beheer.imp_getal(y.e -> 'start'), beheer.imp_getal(y.e -> 'doel'), beheer.imp_getal(y.e -> 'waarde')
  from beheer.imp_lijst(b -> 'prioriteiten') x, beheer.imp_lijst(x.e -> 'kernresultaten') y order by x.i, y.i;

  insert into pg_temp.imp_kpis (pad, sleutel, naam, eenheid, eigenaar, meetsoort, cadans, lager_is_beter, team)
  select '/kpis/' || x.i, beheer.imp_tekst(x.e -> 'sleutel'), beheer.imp_tekst(x.e -> 'naam'),
         beheer.imp_tekst(x.e -> 'eenheid'), beheer.imp_email(x.e -> 'eigenaar'), beheer.imp_tekst(x.e -> 'meetsoort'),
         beheer.imp_tekst(x.e -> 'cadans'), beheer.imp_vlag(x.e -> 'lager_is_beter'), beheer.imp_tekst(x.e -> 'team')
  from beheer.imp_lijst(b -> 'kpis') x order by x.i;
  insert into pg_temp.imp_doelen (pad, kpi_pad, kwartaal, doel)
  select '/kpis/' || x.i || '/doelen/' || y.i, '/kpis/' || x.i, beheer.imp_tekst(y.e -> 'kwartaal'),
         beheer.imp_getal(y.e -> 'doel')
  from beheer.imp_lijst(b -> 'kpis') x, beheer.imp_lijst(x.e -> 'doelen') y order by x.i, y.i;
  insert into pg_temp.imp_metingen (pad, kpi_pad, periode, waarde, toelichting, door)
  select '/kpis/' || x.i || '/metingen/' || y.i, '/kpis/' || x.i, beheer.imp_tekst(y.e -> 'periode'),
         beheer.imp_getal(y.e -> 'waarde'), beheer.imp_tekst(y.e -> 'toelichting'), beheer.imp_email(y.e -> 'door')
  from beheer.imp_lijst(b -> 'kpis') x, beheer.imp_lijst(x.e -> 'metingen') y order by x.i, y.i;

  -- A task, then its subtasks, so numbers follow the file.
  insert into pg_temp.imp_taken (pad, ouder_pad, sleutel, omschrijving, toelichting, prioriteit, project, eigenaar,
    aangemaakt_door, stand, deadline, week, grootte, inschatting_uren, herhalen, tags)
  select t.pad, t.ouder_pad, beheer.imp_tekst(t.e -> 'sleutel'), beheer.imp_tekst(t.e -> 'omschrijving'),
         beheer.imp_tekst(t.e -> 'toelichting'), beheer.imp_tekst(t.e -> 'prioriteit'), beheer.imp_tekst(t.e -> 'project'),
         beheer.imp_email(t.e -> 'eigenaar'), beheer.imp_email(t.e -> 'aangemaakt_door'), beheer.imp_tekst(t.e -> 'stand'),
         beheer.imp_tekst(t.e -> 'deadline'), beheer.imp_tekst(t.e -> 'week'), beheer.imp_tekst(t.e -> 'grootte'),
         beheer.imp_getal(t.e -> 'inschatting_uren'), beheer.imp_tekst(t.e -> 'herhalen'), beheer.imp_teksten(t.e -> 'tags')
  from (select '/taken/' || x.i as pad, null::text as ouder_pad, x.e, x.i, -1 as j from beheer.imp_lijst(b -> 'taken') x
        union all
        select '/taken/' || x.i || '/subtaken/' || y.i, '/taken/' || x.i, y.e, x.i, y.i
        from beheer.imp_lijst(b -> 'taken') x, beheer.imp_lijst(x.e -> 'subtaken') y) t
  order by t.i, t.j;
  insert into pg_temp.imp_opmerkingen (pad, taak_pad, door, tekst)
  select t.pad || '/opmerkingen/' || y.i, t.pad, beheer.imp_email(y.e -> 'door'), beheer.imp_tekst(y.e -> 'tekst')
  from (select '/taken/' || x.i as pad, x.e, x.i, -1 as j from beheer.imp_lijst(b -> 'taken') x
        union all
        select '/taken/' || x.i || '/subtaken/' || y.i, y.e, x.i, y.i
        from beheer.imp_lijst(b -> 'taken') x, beheer.imp_lijst(x.e -> 'subtaken') y) t,
       beheer.imp_lijst(t.e -> 'opmerkingen') y
  order by t.i, t.j, y.i;

  insert into pg_temp.imp_uren (pad, sleutel, wie, datum, uren, taak, prioriteit, project, omschrijving)
  select '/uren/' || x.i, beheer.imp_tekst(x.e -> 'sleutel'), beheer.imp_email(x.e -> 'wie'), beheer.imp_tekst(x.e -> 'datum'),
         beheer.imp_getal(x.e -> 'uren'), beheer.imp_tekst(x.e -> 'taak'), beheer.imp_tekst(x.e -> 'prioriteit'),
         beheer.imp_tekst(x.e -> 'project'), beheer.imp_tekst(x.e -> 'omschrijving')
  from beheer.imp_lijst(b -> 'uren') x order by x.i;

  insert into pg_temp.imp_weektaken (pad, wie, week, titel, kolom, prioriteit)
  select '/weektaken/' || x.i, beheer.imp_email(x.e -> 'wie'), beheer.imp_tekst(x.e -> 'week'), beheer.imp_tekst(x.e -> 'titel'),
         beheer.imp_tekst(x.e -> 'kolom'), beheer.imp_tekst(x.e -> 'prioriteit')
  from beheer.imp_lijst(b -> 'weektaken') x order by x.i;

  insert into pg_temp.imp_reflecties (pad, wie, soort, periode, goed, beter, geleerd, focus, energie, ingediend)
  select '/reflecties/' || x.i, beheer.imp_email(x.e -> 'wie'), beheer.imp_tekst(x.e -> 'soort'), beheer.imp_tekst(x.e -> 'periode'),
         beheer.imp_tekst(x.e -> 'goed'), beheer.imp_tekst(x.e -> 'beter'), beheer.imp_tekst(x.e -> 'geleerd'),
         beheer.imp_tekst(x.e -> 'focus'), beheer.imp_getal(x.e -> 'energie'), beheer.imp_vlag(x.e -> 'ingediend')
  from beheer.imp_lijst(b -> 'reflecties') x order by x.i;

  insert into pg_temp.imp_waarderingen (pad, periode, omzet, ebitda, multiple, aandelenwaarde)
  select '/waarderingen/' || x.i, beheer.imp_tekst(x.e -> 'periode'), beheer.imp_getal(x.e -> 'omzet'),
         beheer.imp_getal(x.e -> 'genormaliseerde_ebitda'), beheer.imp_getal(x.e -> 'multiple'),
         beheer.imp_getal(x.e -> 'aandelenwaarde')
  from beheer.imp_lijst(b -> 'waarderingen') x order by x.i;

  insert into pg_temp.imp_gesprekken (pad, wie, met, soort, datum, afgerond, eindoordeel)
  select '/gesprekken/' || x.i, beheer.imp_email(x.e -> 'wie'), beheer.imp_email(x.e -> 'met'), beheer.imp_tekst(x.e -> 'soort'),
         beheer.imp_tekst(x.e -> 'datum'), beheer.imp_vlag(x.e -> 'afgerond'), beheer.imp_tekst(x.e -> 'eindoordeel')
  from beheer.imp_lijst(b -> 'gesprekken') x order by x.i;

  insert into pg_temp.imp_sessienotities (pad, sleutel, datum, titel, soort, samenvatting, highlights, besluiten, learnings,
    vastgesteld, geschreven_door)
  select '/sessienotities/' || x.i, beheer.imp_tekst(x.e -> 'sleutel'), beheer.imp_tekst(x.e -> 'datum'),
         beheer.imp_tekst(x.e -> 'titel'), beheer.imp_tekst(x.e -> 'soort'), beheer.imp_tekst(x.e -> 'samenvatting'),
         beheer.imp_teksten(x.e -> 'highlights'), beheer.imp_teksten(x.e -> 'besluiten'), beheer.imp_teksten(x.e -> 'learnings'),
         beheer.imp_vlag(x.e -> 'vastgesteld'), beheer.imp_email(x.e -> 'geschreven_door')
  from beheer.imp_lijst(b -> 'sessienotities') x order by x.i;
  insert into pg_temp.imp_actiepunten (pad, notitie_pad, tekst, eigenaar, deadline)
  select '/sessienotities/' || x.i || '/actiepunten/' || y.i, '/sessienotities/' || x.i, beheer.imp_tekst(y.e -> 'tekst'),
         beheer.imp_email(y.e -> 'eigenaar'), beheer.imp_tekst(y.e -> 'deadline')
  from beheer.imp_lijst(b -> 'sessienotities') x, beheer.imp_lijst(x.e -> 'actiepunten') y order by x.i, y.i;

  insert into pg_temp.imp_strategie (pad, veld, waarde)
  select '/strategie/' || k, k, b -> 'strategie' ->> k
  from jsonb_object_keys(case when jsonb_typeof(b -> 'strategie') = 'object' then b -> 'strategie' else '{}' end) k
  where k = any (app_hidden.keuzes('strategie_veld')) and jsonb_typeof(b -> 'strategie' -> k) = 'string';

  -- Looked up row by row while writing.
  create index on pg_temp.imp_taken (nr);
  create index on pg_temp.imp_taken (pad);
  create index on pg_temp.imp_taken (sleutel);
  create index on pg_temp.imp_projecten (nr);
  create index on pg_temp.imp_prioriteiten (nr);
  create index on pg_temp.imp_kpis (nr);
  create index on pg_temp.imp_processen (nr);
  create index on pg_temp.imp_mensen (email);
  analyze pg_temp.imp_taken, pg_temp.imp_mensen, pg_temp.imp_uren;

  return (select count(*) from pg_temp.imp_mensen) + (select count(*) from pg_temp.imp_teams)
    + (select count(*) from pg_temp.imp_processen) + (select count(*) from pg_temp.imp_rollen)
    + (select count(*) from pg_temp.imp_projecten) + (select count(*) from pg_temp.imp_prioriteiten)
    + (select count(*) from pg_temp.imp_kernresultaten) + (select count(*) from pg_temp.imp_kpis)
    + (select count(*) from pg_temp.imp_doelen) + (select count(*) from pg_temp.imp_metingen)
    + (select count(*) from pg_temp.imp_taken) + (select count(*) from pg_temp.imp_opmerkingen)
    + (select count(*) from pg_temp.imp_uren) + (select count(*) from pg_temp.imp_weektaken)
    + (select count(*) from pg_temp.imp_reflecties) + (select count(*) from pg_temp.imp_waarderingen)
    + (select count(*) from pg_temp.imp_gesprekken) + (select count(*) from pg_temp.imp_sessienotities)
    + (select count(*) from pg_temp.imp_strategie);
end
$$;

-- Items of the file that have the identity of an earlier one: the place of each, and of the
-- first with that identity. _delen lists the expressions (over t) that make the identity; an
-- item with a part missing has none.
create function beheer.imp_dubbel(_tabel text, _delen text) returns table (pad text, eerste text)
language plpgsql volatile set search_path = '' as $$
begin
  return query execute format(
    'select x.pad, x.eerste from (select t.pad, first_value(t.pad) over w as eerste, row_number() over w as n
     from pg_temp.%I t where num_nulls(%s) = 0 window w as (partition by %s order by t.nr)) x where x.n > 1',
    _tabel, _delen, _delen);
end
$$;

-- Checking references and rules ------------------------------------------------------------------

-- Every fault with its place; resolves references and identities on the way. Writes nothing
-- but the working tables.
create function beheer.imp_controleren(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
declare
  vandaag date := app_hidden.vandaag(_org);
begin
  -- People: each once; every reference names someone in the file or a member.
  insert into pg_temp.imp_fouten
  select x.pad || '/email', format('%s staat al in het bestand op %s.', x.email_tekst, e.eerste)
  from pg_temp.imp_mensen x join beheer.imp_dubbel('imp_mensen', 't.email') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select r.pad, format('%s staat niet in mensen en is geen lid van deze organisatie.', r.email)
  from (select pad || '/leider' as pad, leider as email from pg_temp.imp_teams
        union all select pad || '/eindverantwoordelijke', eindverantwoordelijke from pg_temp.imp_processen
        union all select pad || '/wie', wie from pg_temp.imp_rollen
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_projecten
        union all select p.pad || '/leden/' || (l.n - 1), lower(l.e) from pg_temp.imp_projecten p,
                  jsonb_array_elements_text(coalesce(p.leden, '[]')) with ordinality l (e, n)
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_prioriteiten
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_kpis
        union all select pad || '/door', door from pg_temp.imp_metingen
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_taken
        union all select pad || '/aangemaakt_door', aangemaakt_door from pg_temp.imp_taken
        union all select pad || '/door', door from pg_temp.imp_opmerkingen
        union all select pad || '/wie', wie from pg_temp.imp_uren
        union all select pad || '/wie', wie from pg_temp.imp_weektaken
        union all select pad || '/wie', wie from pg_temp.imp_reflecties
        union all select pad || '/wie', wie from pg_temp.imp_gesprekken
        union all select pad || '/met', met from pg_temp.imp_gesprekken
        union all select pad || '/geschreven_door', geschreven_door from pg_temp.imp_sessienotities
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_actiepunten) r
  where r.email is not null
    and not exists (select 1 from pg_temp.imp_mensen m where m.email = r.email)
    and not exists (select 1 from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
                    where l.org_id = _org and lower(a.email) = r.email);
  -- An organisation with an active owner keeps one.
  if exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.rol = 'eigenaar' and l.actief)
     and not exists (
       select 1 from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
       where l.org_id = _org and l.rol = 'eigenaar' and l.actief
         and not exists (select 1 from pg_temp.imp_mensen m where m.email = lower(a.email)
                         and (m.rol is distinct from 'eigenaar' or m.actief is false))
       union all
       select 1 from pg_temp.imp_mensen m where m.rol = 'eigenaar' and m.actief is not false) then
    insert into pg_temp.imp_fouten values ('/mensen', 'Na de import heeft de organisatie geen actieve eigenaar meer.');
  end if;

  -- Teams: each once; a team named elsewhere is in the file or exists.
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Team %s staat al in het bestand op %s.', x.naam, e.eerste)
  from pg_temp.imp_teams x join beheer.imp_dubbel('imp_teams', 'lower(t.naam)') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select r.pad, format('Team %s staat niet in teams en bestaat niet in deze organisatie.', r.naam)
  from (select pad || '/team' as pad, team as naam from pg_temp.imp_mensen
        union all select pad || '/team', team from pg_temp.imp_prioriteiten
        union all select pad || '/team', team from pg_temp.imp_kpis) r
  where r.naam is not null
    and not exists (select 1 from pg_temp.imp_teams t where lower(t.naam) = lower(r.naam))
    and not exists (select 1 from app.teams t where t.org_id = _org and lower(t.naam) = lower(r.naam));

  -- Processes and their role seats: names once each.
  update pg_temp.imp_processen set ident = 'n:' || lower(naam) where naam is not null;
  update pg_temp.imp_rollen r set ident = p.ident || '/' || lower(r.naam)
  from pg_temp.imp_processen p where p.pad = r.proces_pad and r.naam is not null;
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Proces %s staat al in het bestand op %s.', x.naam, e.eerste)
  from pg_temp.imp_processen x join beheer.imp_dubbel('imp_processen', 't.ident') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Rol %s staat al in dit proces op %s.', x.naam, e.eerste)
  from pg_temp.imp_rollen x join beheer.imp_dubbel('imp_rollen', 't.ident') e on e.pad = x.pad;

  -- Projects.
  update pg_temp.imp_projecten set ident = coalesce('s:' || sleutel, 't:' || lower(titel));
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/titel' end,
    format('Hetzelfde project als %s (%s); geef elk project een eigen sleutel of titel.', e.eerste,
           case when x.sleutel is not null then 'zelfde sleutel' else 'zelfde titel' end)
  from pg_temp.imp_projecten x join beheer.imp_dubbel('imp_projecten', 't.ident') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select x.pad || '/' || v.veld, format('%s is geen bestaande datum.', v.waarde)
  from pg_temp.imp_projecten x cross join lateral (values ('startdatum', x.startdatum), ('deadline', x.deadline)) v (veld, waarde)
  where v.waarde is not null and beheer.imp_datum(v.waarde) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/deadline', format('deadline %s ligt voor de startdatum %s.', x.deadline, coalesce(x.startdatum, vandaag::text))
  from pg_temp.imp_projecten x
  where beheer.imp_datum(x.deadline) < coalesce(beheer.imp_datum(x.startdatum), vandaag);

  -- Priorities and their key results.
  update pg_temp.imp_prioriteiten set ident = coalesce('s:' || sleutel, 't:' || kwartaal || '/' || lower(titel));
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/titel' end,
    format('Dezelfde prioriteit als %s (%s); geef een van beide een eigen sleutel.', e.eerste,
           case when x.sleutel is not null then 'zelfde sleutel' else 'zelfde titel in hetzelfde kwartaal' end)
  from pg_temp.imp_prioriteiten x join beheer.imp_dubbel('imp_prioriteiten', 't.ident') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select x.pad || '/kwartaal', format('%s is geen kwartaal als Q2-2026.', x.kwartaal)
  from pg_temp.imp_prioriteiten x where x.kwartaal is not null and beheer.imp_kwartaal(x.kwartaal) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/' || v.veld, case
      when beheer.imp_datum(v.waarde) is null then format('%s is geen bestaande datum.', v.waarde)
      else format('%s %s ligt niet in %s (%s tot en met %s).', v.veld, v.waarde, x.kwartaal, q.start,
                  app_hidden.kwartaal_eind(q.start)) end
  from pg_temp.imp_prioriteiten x
  cross join lateral (select beheer.imp_kwartaal(x.kwartaal) as start) q
  cross join lateral (values ('startdatum', x.startdatum), ('deadline', x.deadline)) v (veld, waarde)
  where v.waarde is not null
    and (beheer.imp_datum(v.waarde) is null
         or (q.start is not null and beheer.imp_datum(v.waarde) not between q.start and app_hidden.kwartaal_eind(q.start)));
  insert into pg_temp.imp_fouten
  select x.pad || '/deadline', format('deadline %s ligt voor de startdatum %s.', x.deadline, x.startdatum)
  from pg_temp.imp_prioriteiten x where beheer.imp_datum(x.deadline) < beheer.imp_datum(x.startdatum);
  insert into pg_temp.imp_fouten
  select min(k.prio_pad) || '/kernresultaten', 'Alleen een OKR heeft kernresultaten; deze prioriteit is een rock.'
  from pg_temp.imp_kernresultaten k join pg_temp.imp_prioriteiten p on p.pad = k.prio_pad
  where p.soort = 'rock' group by k.prio_pad;
  insert into pg_temp.imp_fouten
  select k.pad || '/doel', 'Het doel moet verschillen van de startwaarde.'
  from pg_temp.imp_kernresultaten k where k.doel = coalesce(k.start, 0);
  insert into pg_temp.imp_fouten
  select x.pad || '/titel', format('Kernresultaat %s staat al bij deze prioriteit op %s.', x.titel, e.eerste)
  from pg_temp.imp_kernresultaten x join beheer.imp_dubbel('imp_kernresultaten', 't.prio_pad, lower(t.titel)') e on e.pad = x.pad;

  -- KPIs, their quarter targets and measurements.
  update pg_temp.imp_kpis set ident = coalesce('s:' || sleutel, 'n:' || lower(naam));
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/naam' end,
    format('Dezelfde KPI als %s (%s); geef een van beide een eigen sleutel.', e.eerste,
           case when x.sleutel is not null then 'zelfde sleutel' else 'zelfde naam' end)
  from pg_temp.imp_kpis x join beheer.imp_dubbel('imp_kpis', 't.ident') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select d.pad || '/kwartaal', format('%s is geen kwartaal als Q2-2026.', d.kwartaal)
  from pg_temp.imp_doelen d where d.kwartaal is not null and beheer.imp_kwartaal(d.kwartaal) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/kwartaal', format('Deze KPI heeft al een doel voor %s op %s.', x.kwartaal, e.eerste)
  from pg_temp.imp_doelen x join beheer.imp_dubbel('imp_doelen', 't.kpi_pad, t.kwartaal') e on e.pad = x.pad;
  update pg_temp.imp_metingen m set norm = p.periode, van = p.van, laatste_dag = p.laatste_dag
  from pg_temp.imp_metingen m0 join pg_temp.imp_kpis k on k.pad = m0.kpi_pad,
       beheer.imp_kpi_periode(k.cadans, m0.periode, _org) p
  where m0.nr = m.nr and k.cadans = any (app_hidden.keuzes('cadans')) and m0.periode is not null and p.fout is null;
  insert into pg_temp.imp_fouten
  select m.pad || '/periode', p.fout
  from pg_temp.imp_metingen m join pg_temp.imp_kpis k on k.pad = m.kpi_pad,
       beheer.imp_kpi_periode(k.cadans, m.periode, _org) p
  where k.cadans = any (app_hidden.keuzes('cadans')) and m.periode is not null and p.fout is not null;
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('Deze KPI heeft al een meting voor %s op %s.', x.norm, e.eerste)
  from pg_temp.imp_metingen x join beheer.imp_dubbel('imp_metingen', 't.kpi_pad, t.norm') e on e.pad = x.pad;

  -- Tasks: what they belong to (a priority or project of the file, by sleutel or by a title
  -- that is unique), then their identity, parents before subtasks.
  update pg_temp.imp_taken t set prio_pad = coalesce(
      (select p.pad from pg_temp.imp_prioriteiten p where p.sleutel = t.prioriteit order by p.nr limit 1),
      (select min(p.pad) from pg_temp.imp_prioriteiten p where lower(p.titel) = lower(t.prioriteit) having count(*) = 1))
  where t.prioriteit is not null;
  update pg_temp.imp_taken t set project_pad = coalesce(
      (select p.pad from pg_temp.imp_projecten p where p.sleutel = t.project order by p.nr limit 1),
      (select min(p.pad) from pg_temp.imp_projecten p where lower(p.titel) = lower(t.project) having count(*) = 1))
  where t.project is not null;
  update pg_temp.imp_uren t set prio_pad = coalesce(
      (select p.pad from pg_temp.imp_prioriteiten p where p.sleutel = t.prioriteit order by p.nr limit 1),
      (select min(p.pad) from pg_temp.imp_prioriteiten p where lower(p.titel) = lower(t.prioriteit) having count(*) = 1))
  where t.prioriteit is not null;
  update pg_temp.imp_uren t set project_pad = coalesce(
      (select p.pad from pg_temp.imp_projecten p where p.sleutel = t.project order by p.nr limit 1),
      (select min(p.pad) from pg_temp.imp_projecten p where lower(p.titel) = lower(t.project) having count(*) = 1))
  where t.project is not null;
  update pg_temp.imp_weektaken t set prio_pad = coalesce(
      (select p.pad from pg_temp.imp_prioriteiten p where p.sleutel = t.prioriteit order by p.nr limit 1),
      (select min(p.pad) from pg_temp.imp_prioriteiten p where lower(p.titel) = lower(t.prioriteit) having count(*) = 1))
  where t.prioriteit is not null;
  insert into pg_temp.imp_fouten
  select r.pad, case when (select count(*) from pg_temp.imp_prioriteiten p where lower(p.titel) = lower(r.naam)) > 1
      then format('Meer dan één prioriteit heet %s; verwijs met de sleutel.', r.naam)
      else format('Prioriteit %s staat niet in prioriteiten (verwijs met sleutel of titel).', r.naam) end
  from (select pad || '/prioriteit' as pad, prioriteit as naam from pg_temp.imp_taken where prioriteit is not null and prio_pad is null
        union all select pad || '/prioriteit', prioriteit from pg_temp.imp_uren where prioriteit is not null and prio_pad is null
        union all select pad || '/prioriteit', prioriteit from pg_temp.imp_weektaken where prioriteit is not null and prio_pad is null) r;
  insert into pg_temp.imp_fouten
  select r.pad, case when (select count(*) from pg_temp.imp_projecten p where lower(p.titel) = lower(r.naam)) > 1
      then format('Meer dan één project heet %s; verwijs met de sleutel.', r.naam)
      else format('Project %s staat niet in projecten (verwijs met sleutel of titel).', r.naam) end
  from (select pad || '/project' as pad, project as naam from pg_temp.imp_taken where project is not null and project_pad is null
        union all select pad || '/project', project from pg_temp.imp_uren where project is not null and project_pad is null) r;
  insert into pg_temp.imp_fouten
  select t.pad || '/project', 'Een taak hoort bij een prioriteit of bij een project, niet bij allebei.'
  from pg_temp.imp_taken t where t.prioriteit is not null and t.project is not null;
  update pg_temp.imp_taken t set ident = coalesce('s:' || t.sleutel,
      case when t.prioriteit is not null then 'p:' || coalesce(p.ident, '?') || '/'
           when t.project is not null then 'j:' || coalesce(j.ident, '?') || '/' else 'l:' end || lower(t.omschrijving))
  from pg_temp.imp_taken t0
  left join pg_temp.imp_prioriteiten p on p.pad = t0.prio_pad
  left join pg_temp.imp_projecten j on j.pad = t0.project_pad
  where t0.nr = t.nr and t.ouder_pad is null;
  update pg_temp.imp_taken t set ident = coalesce('s:' || t.sleutel, 'o:' || o.ident || '/' || lower(t.omschrijving))
  from pg_temp.imp_taken o where o.pad = t.ouder_pad;
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/omschrijving' end,
    case when x.sleutel is not null then format('Sleutel %s is al gebruikt door de taak op %s.', x.sleutel, e.eerste)
         else format('Dezelfde taak als %s (zelfde omschrijving, en hoort bij hetzelfde); geef een van beide een eigen sleutel.', e.eerste) end
  from pg_temp.imp_taken x join beheer.imp_dubbel('imp_taken', 't.ident') e on e.pad = x.pad
  where x.sleutel is not null or ((x.prioriteit is null or x.prio_pad is not null) and (x.project is null or x.project_pad is not null));
  insert into pg_temp.imp_fouten
  select t.pad || '/deadline', format('%s is geen bestaande datum.', t.deadline)
  from pg_temp.imp_taken t where t.deadline is not null and beheer.imp_datum(t.deadline) is null;
  insert into pg_temp.imp_fouten
  select t.pad || '/week', format('%s is geen bestaande ISO-week.', t.week)
  from pg_temp.imp_taken t where t.week is not null and app_hidden.week_maandag(t.week) is null;
  insert into pg_temp.imp_fouten
  select t.pad || '/inschatting_uren', 'Geef grootte of inschatting_uren, niet allebei.'
  from pg_temp.imp_taken t where t.grootte is not null and t.inschatting_uren is not null;

  -- Hours.
  update pg_temp.imp_uren u set taak_pad = t.pad from pg_temp.imp_taken t where t.sleutel = u.taak;
  insert into pg_temp.imp_fouten
  select u.pad || '/taak', format('Geen taak in het bestand heeft sleutel %s.', u.taak)
  from pg_temp.imp_uren u where u.taak is not null and u.taak_pad is null;
  insert into pg_temp.imp_fouten
  select u.pad || case when u.project is not null then '/project' else '/prioriteit' end,
    'Uren horen bij een taak, een prioriteit of een project, niet bij meer tegelijk.'
  from pg_temp.imp_uren u where num_nonnulls(u.taak, u.prioriteit, u.project) > 1;
  insert into pg_temp.imp_fouten
  select u.pad || '/datum', case when beheer.imp_datum(u.datum) is null then format('%s is geen bestaande datum.', u.datum)
                                 else format('%s ligt in de toekomst.', u.datum) end
  from pg_temp.imp_uren u
  where u.datum is not null and (beheer.imp_datum(u.datum) is null or beheer.imp_datum(u.datum) > vandaag);
  insert into pg_temp.imp_fouten
  select min(u.pad) || '/uren', format('%s komt op %s op %s uur; een dag heeft er 24.', u.wie, u.datum, sum(u.uren))
  from pg_temp.imp_uren u where u.wie is not null and u.datum is not null
  group by u.wie, u.datum having sum(u.uren) > 24;
  update pg_temp.imp_uren u set ident = coalesce('s:' || u.sleutel, 'u:' || u.wie || '/' || u.datum || '/'
    || coalesce(t.ident, p.ident, j.ident, '') || '/' || coalesce(lower(u.omschrijving), ''))
  from pg_temp.imp_uren u0
  left join pg_temp.imp_taken t on t.pad = u0.taak_pad
  left join pg_temp.imp_prioriteiten p on p.pad = u0.prio_pad
  left join pg_temp.imp_projecten j on j.pad = u0.project_pad
  where u0.nr = u.nr;
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '' end,
    case when x.sleutel is not null then format('Sleutel %s is al gebruikt door de uren op %s.', x.sleutel, e.eerste)
         else format('Dezelfde uren als %s (zelfde persoon, datum, waarvoor en omschrijving); tel ze op of geef een sleutel.', e.eerste) end
  from pg_temp.imp_uren x join beheer.imp_dubbel('imp_uren', 't.ident') e on e.pad = x.pad;

  -- The weekly board.
  insert into pg_temp.imp_fouten
  select w.pad || '/week', format('%s is geen bestaande ISO-week.', w.week)
  from pg_temp.imp_weektaken w where w.week is not null and app_hidden.week_maandag(w.week) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/titel', format('Dezelfde weektaak als %s (zelfde persoon, week en titel).', e.eerste)
  from pg_temp.imp_weektaken x join beheer.imp_dubbel('imp_weektaken', 't.wie, t.week, lower(t.titel)') e on e.pad = x.pad;

  -- Reflections: a period that fits the kind and has begun; one per person, kind and period.
  update pg_temp.imp_reflecties r set label = p.label, van = p.van
  from pg_temp.imp_reflecties r0, beheer.reflectie_periode(r0.soort, r0.periode) p where r0.nr = r.nr;
  insert into pg_temp.imp_fouten
  select r.pad || '/periode', case when r.van is null
      then format('periode past niet bij soort %s: gebruik %s.', r.soort,
                  case r.soort when 'maand' then '<jjjj>-<mm>' when 'kwartaal' then 'Q<n>-<jjjj>' else '<jjjj>' end)
      else format('Periode %s is nog niet begonnen.', r.periode) end
  from pg_temp.imp_reflecties r
  where r.soort = any (app_hidden.keuzes('reflectie_soort')) and r.periode is not null and (r.van is null or r.van > vandaag);
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('%s heeft al een reflectie voor %s op %s.', x.wie, x.periode, e.eerste)
  from pg_temp.imp_reflecties x join beheer.imp_dubbel('imp_reflecties', 't.wie, t.soort, t.label') e on e.pad = x.pad;

  insert into pg_temp.imp_fouten
  select r.pad || '/energie', 'energie moet een geheel getal van 1 tot en met 10 zijn.'
  from pg_temp.imp_reflecties r where r.energie is not null and (r.energie not between 1 and 10 or r.energie <> trunc(r.energie));

  -- Valuations: one per period; figures all four or none (an open invitation).
  insert into pg_temp.imp_fouten
  select w.pad || '/periode', case when beheer.waardering_periode(w.periode) is null
      then 'periode moet een maand (2026-05), een kwartaal (Q2-2026) of een jaar (2026) zijn.'
      else format('Periode %s is nog niet begonnen.', w.periode) end
  from pg_temp.imp_waarderingen w
  where w.periode is not null and (beheer.waardering_periode(w.periode) is null or beheer.waardering_periode(w.periode) > vandaag);
  insert into pg_temp.imp_fouten
  select w.pad, 'Geef omzet, genormaliseerde_ebitda, multiple en aandelenwaarde samen, of geen van vieren (een open uitnodiging).'
  from pg_temp.imp_waarderingen w where num_nonnulls(w.omzet, w.ebitda, w.multiple, w.aandelenwaarde) between 1 and 3;
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('Periode %s staat al in het bestand op %s.', x.periode, e.eerste)
  from pg_temp.imp_waarderingen x join beheer.imp_dubbel('imp_waarderingen', 't.periode') e on e.pad = x.pad;

  -- Review conversations.
  insert into pg_temp.imp_fouten
  select g.pad || '/datum', format('%s is geen bestaande datum.', g.datum)
  from pg_temp.imp_gesprekken g where g.datum is not null and beheer.imp_datum(g.datum) is null;
  insert into pg_temp.imp_fouten
  select g.pad || '/met', 'Een gesprek voert iemand met een ander: wie en met zijn dezelfde persoon.'
  from pg_temp.imp_gesprekken g where g.wie = g.met;
  insert into pg_temp.imp_fouten
  select g.pad || '/eindoordeel', 'Een eindoordeel hoort bij een afgerond gesprek; zet ook afgerond op true.'
  from pg_temp.imp_gesprekken g where g.eindoordeel is not null and g.afgerond is not true;
  insert into pg_temp.imp_fouten
  select x.pad, format('Hetzelfde gesprek als %s (zelfde mensen, soort en datum).', e.eerste)
  from pg_temp.imp_gesprekken x join beheer.imp_dubbel('imp_gesprekken', 't.wie, t.met, t.soort, t.datum') e on e.pad = x.pad;

  -- Session notes and their action points.
  update pg_temp.imp_sessienotities set ident = coalesce('s:' || sleutel, 'd:' || datum || '/' || lower(titel));
  insert into pg_temp.imp_fouten
  select n.pad || '/datum', format('%s is geen bestaande datum.', n.datum)
  from pg_temp.imp_sessienotities n where n.datum is not null and beheer.imp_datum(n.datum) is null;
  insert into pg_temp.imp_fouten
  select a.pad || '/deadline', format('%s is geen bestaande datum.', a.deadline)
  from pg_temp.imp_actiepunten a where a.deadline is not null and beheer.imp_datum(a.deadline) is null;
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/titel' end,
    format('Dezelfde sessienotitie als %s (%s); geef een van beide een eigen sleutel.', e.eerste,
           case when x.sleutel is not null then 'zelfde sleutel' else 'zelfde datum en titel' end)
  from pg_temp.imp_sessienotities x join beheer.imp_dubbel('imp_sessienotities', 't.ident') e on e.pad = x.pad;
end
$$;

-- Writing ------------------------------------------------------------------------------------------

create function beheer.imp_schrijven(_org uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  vandaag date := app_hidden.vandaag(_org);
  aantallen jsonb := '{}';
  r record;
  rij_id uuid;
  uitkomst text;
  gebruiker uuid;
  oude_tekst text;
  oude_tags jsonb;
  oude_punten jsonb;
  nieuwe_punten jsonb;
begin
  -- People: an account per e-mail address (shared across organisations), a membership here.
  -- Teams come first without their leader, who may be a person of the file.
  for r in select * from pg_temp.imp_teams order by nr loop
    insert into app.teams (org_id, naam) values (_org, r.naam) on conflict (org_id, lower(naam)) do nothing;
    aantallen := beheer.imp_tel(aantallen, 'teams', case when found then 'nieuw' else 'ongewijzigd' end);
  end loop;
  for r in select m.*, (select t.id from app.teams t where t.org_id = _org and lower(t.naam) = lower(m.team)) as team_id
           from pg_temp.imp_mensen m order by m.nr loop
    insert into app.accounts (email, naam, aangemaakt_op) values (r.email_tekst, r.naam, nu)
    on conflict (lower(email)) do nothing returning id into gebruiker;
    if gebruiker is null then
      select a.id into gebruiker from app.accounts a where lower(a.email) = r.email;
      -- A name is the person's own: changed only while they belong to no other organisation.
      update app.accounts a set naam = r.naam where a.id = gebruiker and a.naam is distinct from r.naam
        and not exists (select 1 from app.lidmaatschappen l where l.user_id = gebruiker and l.org_id <> _org);
    end if;
    if not exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = gebruiker) then
      insert into app.lidmaatschappen (org_id, user_id, rol, functietitel, team_id, actief, aangemaakt_op)
      values (_org, gebruiker, r.rol, r.functietitel, r.team_id, coalesce(r.actief, true), nu);
      uitkomst := 'nieuw';
    else
      update app.lidmaatschappen l set rol = r.rol, functietitel = coalesce(r.functietitel, l.functietitel),
        team_id = coalesce(r.team_id, l.team_id), actief = coalesce(r.actief, l.actief)
      where l.org_id = _org and l.user_id = gebruiker
        and (l.rol, l.functietitel, l.team_id, l.actief) is distinct from
            (r.rol, coalesce(r.functietitel, l.functietitel), coalesce(r.team_id, l.team_id), coalesce(r.actief, l.actief));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'mensen', uitkomst);
  end loop;
  update app.teams t set leider_user_id = l.user_id
  from pg_temp.imp_teams x, app.lidmaatschappen l join app.accounts a on a.id = l.user_id
  where t.org_id = _org and lower(t.naam) = lower(x.naam) and x.leider is not null
    and l.org_id = _org and lower(a.email) = x.leider and t.leider_user_id is distinct from l.user_id;

  -- Processes and role seats.
  for r in select p.*, beheer.imp_persoon(_org, p.eindverantwoordelijke) as wie from pg_temp.imp_processen p order by p.nr loop
    rij_id := coalesce(beheer.imp_bestaand(_org, 'proces', r.ident, 'app.processen'),
      (select x.id from app.processen x where x.org_id = _org and lower(x.naam) = lower(r.naam) order by x.volgorde, x.id limit 1));
    if rij_id is null then
      insert into app.processen (org_id, naam, eindverantwoordelijke_user_id, volgorde)
      values (_org, r.naam, r.wie, coalesce(r.volgorde, (select max(x.volgorde) + 1 from app.processen x where x.org_id = _org), 1))
      returning processen.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.processen x set eindverantwoordelijke_user_id = coalesce(r.wie, x.eindverantwoordelijke_user_id),
        volgorde = coalesce(r.volgorde, x.volgorde)
      where x.org_id = _org and x.id = rij_id
        and (x.eindverantwoordelijke_user_id, x.volgorde) is distinct from
            (coalesce(r.wie, x.eindverantwoordelijke_user_id), coalesce(r.volgorde, x.volgorde));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'proces', r.ident, rij_id);
    update pg_temp.imp_processen x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'processen', uitkomst);
  end loop;
  for r in select x.*, p.id as proces_id, beheer.imp_persoon(_org, x.wie) as bezetter
           from pg_temp.imp_rollen x join pg_temp.imp_processen p on p.pad = x.proces_pad order by x.nr loop
    rij_id := coalesce(beheer.imp_bestaand(_org, 'rol', r.ident, 'app.rollen'),
      (select x.id from app.rollen x where x.org_id = _org and x.proces_id = r.proces_id and lower(x.naam) = lower(r.naam)
       order by x.id limit 1));
    if rij_id is null then
      insert into app.rollen (org_id, proces_id, naam, user_id) values (_org, r.proces_id, r.naam, r.bezetter)
      returning rollen.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.rollen x set user_id = coalesce(r.bezetter, x.user_id)
      where x.org_id = _org and x.id = rij_id and x.user_id is distinct from coalesce(r.bezetter, x.user_id);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'rol', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'rollen', uitkomst);
  end loop;

  -- Projects, with the people who work on them.
  for r in select p.*, beheer.imp_persoon(_org, p.eigenaar) as eigenaar_id from pg_temp.imp_projecten p order by p.nr loop
    rij_id := beheer.imp_bestaand(_org, 'project', r.ident, 'app.projecten');
    if rij_id is null then
      insert into app.projecten (org_id, titel, omschrijving, eigenaar_user_id, startdatum, deadline, besloten,
                                 afgerond_op, aangemaakt_op)
      values (_org, r.titel, r.omschrijving, r.eigenaar_id, coalesce(beheer.imp_datum(r.startdatum), vandaag),
              beheer.imp_datum(r.deadline), coalesce(r.besloten, false), case when r.afgerond then nu end, nu)
      returning projecten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.projecten x set titel = r.titel, omschrijving = coalesce(r.omschrijving, x.omschrijving),
        eigenaar_user_id = r.eigenaar_id, startdatum = coalesce(beheer.imp_datum(r.startdatum), x.startdatum),
        deadline = coalesce(beheer.imp_datum(r.deadline), x.deadline), besloten = coalesce(r.besloten, x.besloten),
        afgerond_op = case when r.afgerond is null then x.afgerond_op when r.afgerond then coalesce(x.afgerond_op, nu) end
      where x.org_id = _org and x.id = rij_id
        and (x.titel, x.omschrijving, x.eigenaar_user_id, x.startdatum, x.deadline, x.besloten, x.afgerond_op is not null)
            is distinct from (r.titel, coalesce(r.omschrijving, x.omschrijving), r.eigenaar_id,
              coalesce(beheer.imp_datum(r.startdatum), x.startdatum), coalesce(beheer.imp_datum(r.deadline), x.deadline),
              coalesce(r.besloten, x.besloten), coalesce(r.afgerond, x.afgerond_op is not null));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    insert into app.project_leden (org_id, project_id, user_id)
    select distinct _org, rij_id, u from unnest(array[r.eigenaar_id] || array(
      select beheer.imp_persoon(_org, lower(l)) from jsonb_array_elements_text(coalesce(r.leden, '[]')) l)) u
    where u is not null
    on conflict do nothing;
    perform beheer.imp_onthouden(_org, 'project', r.ident, rij_id);
    update pg_temp.imp_projecten x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'projecten', uitkomst);
  end loop;

  -- Priorities and key results.
  for r in select p.*, beheer.imp_persoon(_org, p.eigenaar) as eigenaar_id, beheer.imp_kwartaal(p.kwartaal) as start,
                  (select t.id from app.teams t where t.org_id = _org and lower(t.naam) = lower(p.team)) as team_id
           from pg_temp.imp_prioriteiten p order by p.nr loop
    rij_id := beheer.imp_bestaand(_org, 'prioriteit', r.ident, 'app.prioriteiten');
    if rij_id is null then
      insert into app.prioriteiten (org_id, soort, titel, omschrijving, eigenaar_user_id, kwartaal_start, startdatum,
                                    deadline, team_id, afgerond_op, aangemaakt_op)
      values (_org, r.soort, r.titel, r.omschrijving, r.eigenaar_id, r.start, beheer.imp_datum(r.startdatum),
              coalesce(beheer.imp_datum(r.deadline), app_hidden.kwartaal_eind(r.start)), r.team_id,
              case when r.afgerond then nu end, nu)
      returning prioriteiten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.prioriteiten x set soort = r.soort, titel = r.titel, omschrijving = coalesce(r.omschrijving, x.omschrijving),
        eigenaar_user_id = r.eigenaar_id, kwartaal_start = r.start,
        startdatum = coalesce(beheer.imp_datum(r.startdatum), x.startdatum),
        deadline = coalesce(beheer.imp_datum(r.deadline), x.deadline), team_id = coalesce(r.team_id, x.team_id),
        afgerond_op = case when r.afgerond is null then x.afgerond_op when r.afgerond then coalesce(x.afgerond_op, nu) end
      where x.org_id = _org and x.id = rij_id
        and (x.soort, x.titel, x.omschrijving, x.eigenaar_user_id, x.kwartaal_start, x.startdatum, x.deadline, x.team_id,
             x.afgerond_op is not null)
            is distinct from (r.soort, r.titel, coalesce(r.omschrijving, x.omschrijving), r.eigenaar_id, r.start,
              coalesce(beheer.imp_datum(r.startdatum), x.startdatum), coalesce(beheer.imp_datum(r.deadline), x.deadline),
              coalesce(r.team_id, x.team_id), coalesce(r.afgerond, x.afgerond_op is not null));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'prioriteit', r.ident, rij_id);
    update pg_temp.imp_prioriteiten x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'prioriteiten', uitkomst);
  end loop;
  for r in select k.*, p.id as prioriteit_id, p.ident || '/' || lower(k.titel) as ident
           from pg_temp.imp_kernresultaten k join pg_temp.imp_prioriteiten p on p.pad = k.prio_pad order by k.nr loop
    rij_id := beheer.imp_bestaand(_org, 'kernresultaat', r.ident, 'app.kernresultaten');
    if rij_id is null then
      insert into app.kernresultaten (org_id, prioriteit_id, titel, startwaarde, doelwaarde, huidige_waarde, aangemaakt_op)
      values (_org, r.prioriteit_id, r.titel, coalesce(r.start, 0), r.doel, coalesce(r.waarde, r.start, 0), nu)
      returning kernresultaten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.kernresultaten x set titel = r.titel, startwaarde = coalesce(r.start, x.startwaarde), doelwaarde = r.doel,
        huidige_waarde = coalesce(r.waarde, x.huidige_waarde)
      where x.org_id = _org and x.id = rij_id
        and (x.titel, x.startwaarde, x.doelwaarde, x.huidige_waarde) is distinct from
            (r.titel, coalesce(r.start, x.startwaarde), r.doel, coalesce(r.waarde, x.huidige_waarde));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'kernresultaat', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'kernresultaten', uitkomst);
  end loop;

  -- KPIs, quarter targets (before the measurements, which are judged against them), measurements.
  for r in select k.*, beheer.imp_persoon(_org, k.eigenaar) as eigenaar_id,
                  (select t.id from app.teams t where t.org_id = _org and lower(t.naam) = lower(k.team)) as team_id
           from pg_temp.imp_kpis k order by k.nr loop
    rij_id := beheer.imp_bestaand(_org, 'kpi', r.ident, 'app.kpis');
    if rij_id is null then
      insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, team_id, aangemaakt_op)
      values (_org, r.naam, r.eenheid, r.eigenaar_id, r.meetsoort, r.cadans, coalesce(r.lager_is_beter, false), r.team_id, nu)
      returning kpis.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.kpis x set naam = r.naam, eenheid = coalesce(r.eenheid, x.eenheid), eigenaar_user_id = r.eigenaar_id,
        meetsoort = r.meetsoort, cadans = r.cadans, lager_is_beter = coalesce(r.lager_is_beter, x.lager_is_beter),
        team_id = coalesce(r.team_id, x.team_id)
      where x.org_id = _org and x.id = rij_id
        and (x.naam, x.eenheid, x.eigenaar_user_id, x.meetsoort, x.cadans, x.lager_is_beter, x.team_id) is distinct from
            (r.naam, coalesce(r.eenheid, x.eenheid), r.eigenaar_id, r.meetsoort, r.cadans,
             coalesce(r.lager_is_beter, x.lager_is_beter), coalesce(r.team_id, x.team_id));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'kpi', r.ident, rij_id);
    update pg_temp.imp_kpis x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'kpis', uitkomst);
  end loop;
  for r in select d.*, k.id as kpi_id, beheer.imp_kwartaal(d.kwartaal) as start
           from pg_temp.imp_doelen d join pg_temp.imp_kpis k on k.pad = d.kpi_pad order by d.nr loop
    uitkomst := case
      when not exists (select 1 from app.kpi_kwartaaldoelen x where x.org_id = _org and x.kpi_id = r.kpi_id and x.kwartaal_start = r.start)
        then 'nieuw'
      when exists (select 1 from app.kpi_kwartaaldoelen x where x.org_id = _org and x.kpi_id = r.kpi_id and x.kwartaal_start = r.start
                   and x.doel = r.doel) then 'ongewijzigd'
      else 'bijgewerkt' end;
    if uitkomst <> 'ongewijzigd' then
      insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (_org, r.kpi_id, r.start, r.doel)
      on conflict (org_id, kpi_id, kwartaal_start) do update set doel = excluded.doel;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'kpi_doelen', uitkomst);
  end loop;
  for r in select m.*, k.id as kpi_id, beheer.imp_persoon(_org, m.door) as door_id,
                  x.waarde as oude_waarde, x.toelichting as oude_toelichting, x.kpi_id is not null as bestaat
           from pg_temp.imp_metingen m join pg_temp.imp_kpis k on k.pad = m.kpi_pad
           left join app.kpi_metingen x on x.org_id = _org and x.kpi_id = k.id and x.periode = m.norm
           order by m.nr loop
    if not r.bestaat then
      insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op)
      values (_org, r.kpi_id, r.norm, r.van, r.laatste_dag, r.waarde, r.toelichting, r.door_id, nu);
      uitkomst := 'nieuw';
    elsif (r.oude_waarde, r.oude_toelichting) is distinct from (r.waarde, coalesce(r.toelichting, r.oude_toelichting)) then
      update app.kpi_metingen x set waarde = r.waarde, toelichting = coalesce(r.toelichting, x.toelichting),
        ingevoerd_door = coalesce(r.door_id, x.ingevoerd_door), ingevoerd_op = nu
      where x.org_id = _org and x.kpi_id = r.kpi_id and x.periode = r.norm;
      uitkomst := 'bijgewerkt';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'kpi_metingen', uitkomst);
  end loop;

  -- Tasks: each parent before its subtasks; tags and comments with them.
  for r in select t.*, coalesce(o.nr, t.nr) as groep, beheer.imp_persoon(_org, t.eigenaar) as eigenaar_id,
                  beheer.imp_persoon(_org, t.aangemaakt_door) as maker_id
           from pg_temp.imp_taken t left join pg_temp.imp_taken o on o.pad = t.ouder_pad
           order by coalesce(o.nr, t.nr), t.ouder_pad is not null, t.nr loop
    if r.ouder_pad is not null and not exists (select 1 from pg_temp.imp_taken o where o.pad = r.ouder_pad and o.id is not null) then
      aantallen := beheer.imp_tel(aantallen, 'taken', 'ongewijzigd');  -- under a task that stays deleted
      continue;
    end if;
    rij_id := beheer.imp_gevonden(_org, 'taak', r.ident);
    if rij_id is not null and exists (select 1 from app.taken x where x.org_id = _org and x.id = rij_id
                                       and x.verwijderd_op is not null) then
      -- Deleted in the app since the last import: it stays deleted.
      aantallen := beheer.imp_tel(aantallen, 'taken', 'ongewijzigd');
      continue;
    end if;
    if rij_id is not null and not exists (select 1 from app.taken x where x.org_id = _org and x.id = rij_id) then
      rij_id := null;
    end if;
    if rij_id is null then
      insert into app.taken (org_id, omschrijving, toelichting, prioriteit_id, project_id, ouder_id, eigenaar_user_id,
                             aangemaakt_door, stand, deadline, week, grootte, inschatting_uren, herhalen)
      select _org, r.omschrijving, r.toelichting, coalesce(p.id, o.prioriteit_id), coalesce(j.id, o.project_id), o.id,
             coalesce(r.eigenaar_id, o.eigenaar_user_id), r.maker_id, coalesce(r.stand, 'open'), beheer.imp_datum(r.deadline),
             r.week, r.grootte, r.inschatting_uren, r.herhalen
      from (select 1) x
      left join pg_temp.imp_prioriteiten p on p.pad = r.prio_pad
      left join pg_temp.imp_projecten j on j.pad = r.project_pad
      left join pg_temp.imp_taken ot on ot.pad = r.ouder_pad
      left join app.taken o on o.org_id = _org and o.id = ot.id
      returning taken.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.taken x set omschrijving = r.omschrijving, toelichting = coalesce(r.toelichting, x.toelichting),
        prioriteit_id = case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null)
                             then p.id else x.prioriteit_id end,
        project_id = case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null)
                          then j.id else x.project_id end,
        eigenaar_user_id = coalesce(r.eigenaar_id, x.eigenaar_user_id), stand = coalesce(r.stand, x.stand),
        deadline = coalesce(beheer.imp_datum(r.deadline), x.deadline), week = coalesce(r.week, x.week),
        grootte = case when r.inschatting_uren is not null then null else coalesce(r.grootte, x.grootte) end,
        inschatting_uren = case when r.grootte is not null then null else coalesce(r.inschatting_uren, x.inschatting_uren) end,
        herhalen = coalesce(r.herhalen, x.herhalen)
      from (select 1) y
      left join pg_temp.imp_prioriteiten p on p.pad = r.prio_pad
      left join pg_temp.imp_projecten j on j.pad = r.project_pad
      where x.org_id = _org and x.id = rij_id
        and (x.omschrijving, x.toelichting, x.prioriteit_id, x.project_id, x.eigenaar_user_id, x.stand, x.deadline, x.week,
             x.grootte, x.inschatting_uren, x.herhalen) is distinct from
            (r.omschrijving, coalesce(r.toelichting, x.toelichting),
             case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null) then p.id else x.prioriteit_id end,
             case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null) then j.id else x.project_id end,
             coalesce(r.eigenaar_id, x.eigenaar_user_id), coalesce(r.stand, x.stand),
             coalesce(beheer.imp_datum(r.deadline), x.deadline), coalesce(r.week, x.week),
             case when r.inschatting_uren is not null then null else coalesce(r.grootte, x.grootte) end,
             case when r.grootte is not null then null else coalesce(r.inschatting_uren, x.inschatting_uren) end,
             coalesce(r.herhalen, x.herhalen));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    if r.tags is not null then
      oude_tags := app_hidden.taak_tags(_org, rij_id);
      if (select coalesce(jsonb_agg(lower(x) order by lower(x)), '[]') from jsonb_array_elements_text(oude_tags) x)
         is distinct from
         (select coalesce(jsonb_agg(distinct lower(x)), '[]') from jsonb_array_elements_text(r.tags) x) then
        perform app_hidden.tags_zetten(_org, rij_id, array(select jsonb_array_elements_text(r.tags)));
        if uitkomst = 'ongewijzigd' then uitkomst := 'bijgewerkt'; end if;
      end if;
    end if;
    perform beheer.imp_onthouden(_org, 'taak', r.ident, rij_id);
    update pg_temp.imp_taken x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'taken', uitkomst);
  end loop;
  for r in select o.*, t.id as taak_id, t.ident || '/' || coalesce(o.door, '') || '/' || md5(o.tekst) as ident,
                  beheer.imp_persoon(_org, o.door) as door_id
           from pg_temp.imp_opmerkingen o join pg_temp.imp_taken t on t.pad = o.taak_pad
           where t.id is not null order by o.nr loop
    if beheer.imp_bestaand(_org, 'opmerking', r.ident, 'app.opmerkingen') is null then
      insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id, geplaatst_op)
      values (_org, r.taak_id, r.tekst, r.door_id, nu) returning opmerkingen.id into rij_id;
      perform beheer.imp_onthouden(_org, 'opmerking', r.ident, rij_id);
      uitkomst := 'nieuw';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'opmerkingen', uitkomst);
  end loop;

  -- Hours.
  for r in select u.*, beheer.imp_persoon(_org, u.wie) as wie_id, t.id as taak_id, p.id as prioriteit_id, j.id as project_id
           from pg_temp.imp_uren u
           left join pg_temp.imp_taken t on t.pad = u.taak_pad
           left join pg_temp.imp_prioriteiten p on p.pad = u.prio_pad
           left join pg_temp.imp_projecten j on j.pad = u.project_pad
           order by u.nr loop
    rij_id := beheer.imp_bestaand(_org, 'uren', r.ident, 'app.uren');
    if rij_id is null then
      insert into app.uren (org_id, user_id, datum, uren, taak_id, prioriteit_id, project_id, omschrijving, aangemaakt_op)
      values (_org, r.wie_id, beheer.imp_datum(r.datum), r.uren, r.taak_id, r.prioriteit_id, r.project_id, r.omschrijving, nu)
      returning uren.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.uren x set user_id = r.wie_id, datum = beheer.imp_datum(r.datum), uren = r.uren, taak_id = r.taak_id,
        prioriteit_id = r.prioriteit_id, project_id = r.project_id, omschrijving = r.omschrijving
      where x.org_id = _org and x.id = rij_id
        and (x.user_id, x.datum, x.uren, x.taak_id, x.prioriteit_id, x.project_id, x.omschrijving) is distinct from
            (r.wie_id, beheer.imp_datum(r.datum), r.uren, r.taak_id, r.prioriteit_id, r.project_id, r.omschrijving);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'uren', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'uren', uitkomst);
  end loop;

  -- The weekly board, in the file's order.
  for r in select w.*, beheer.imp_persoon(_org, w.wie) as wie_id, p.id as prioriteit_id,
                  'w:' || w.wie || '/' || w.week || '/' || lower(w.titel) as ident
           from pg_temp.imp_weektaken w left join pg_temp.imp_prioriteiten p on p.pad = w.prio_pad order by w.nr loop
    rij_id := beheer.imp_bestaand(_org, 'weektaak', r.ident, 'app.weektaken');
    if rij_id is null then
      insert into app.weektaken (org_id, user_id, week, titel, kolom, klaar, prioriteit_id, aangemaakt_op)
      values (_org, r.wie_id, r.week, r.titel, coalesce(r.kolom, 'nieuw'), coalesce(r.kolom, 'nieuw') = 'klaar',
              r.prioriteit_id, nu + r.nr * interval '1 microsecond')
      returning weektaken.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.weektaken x set kolom = coalesce(r.kolom, x.kolom), klaar = coalesce(r.kolom, x.kolom) = 'klaar',
        prioriteit_id = coalesce(r.prioriteit_id, x.prioriteit_id)
      where x.org_id = _org and x.id = rij_id
        and (x.kolom, x.prioriteit_id) is distinct from (coalesce(r.kolom, x.kolom), coalesce(r.prioriteit_id, x.prioriteit_id));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'weektaak', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'weektaken', uitkomst);
  end loop;

  -- Reflections: one per person, kind and period. Submitted (the default) sets ingediend_op once.
  for r in select x.*, beheer.imp_persoon(_org, x.wie) as wie_id, o.id as oud_id,
                  (o.goed, o.beter, o.geleerd, o.focus, o.energie, o.ingediend_op is not null) is not distinct from
                  (coalesce(x.goed, o.goed), coalesce(x.beter, o.beter), coalesce(x.geleerd, o.geleerd),
                   coalesce(x.focus, o.focus), coalesce(x.energie::integer, o.energie),
                   coalesce(x.ingediend, true)) as gelijk
           from pg_temp.imp_reflecties x
           left join app.reflecties o on o.org_id = _org and o.user_id = beheer.imp_persoon(_org, x.wie)
             and o.soort = x.soort and o.periode = x.label
           order by x.nr loop
    if r.oud_id is null then
      insert into app.reflecties (org_id, user_id, soort, periode, goed, beter, geleerd, focus, energie, ingediend_op)
      values (_org, r.wie_id, r.soort, r.label, r.goed, r.beter, r.geleerd, r.focus, r.energie::integer,
              case when coalesce(r.ingediend, true) then nu end);
      uitkomst := 'nieuw';
    elsif not r.gelijk then
      update app.reflecties x set goed = coalesce(r.goed, x.goed), beter = coalesce(r.beter, x.beter),
        geleerd = coalesce(r.geleerd, x.geleerd), focus = coalesce(r.focus, x.focus),
        energie = coalesce(r.energie::integer, x.energie),
        ingediend_op = case when coalesce(r.ingediend, true) then coalesce(x.ingediend_op, nu) end
      where x.org_id = _org and x.id = r.oud_id;
      uitkomst := 'bijgewerkt';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'reflecties', uitkomst);
  end loop;

  -- Valuations, one per period, as measured now.
  for r in select w.*, (select x.id from app.waarderingen x where x.org_id = _org and x.periode = w.periode
                        order by x.gemeten_op desc, x.id limit 1) as oud_id
           from pg_temp.imp_waarderingen w order by w.nr loop
    if r.oud_id is null then
      insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op)
      values (_org, r.periode, r.omzet, r.ebitda, r.multiple, r.aandelenwaarde, nu);
      uitkomst := 'nieuw';
    else
      update app.waarderingen x set omzet = r.omzet, genormaliseerde_ebitda = r.ebitda, multiple = r.multiple,
        aandelenwaarde = r.aandelenwaarde, gemeten_op = nu
      where x.org_id = _org and x.id = r.oud_id
        and (x.omzet, x.genormaliseerde_ebitda, x.multiple, x.aandelenwaarde) is distinct from
            (r.omzet, r.ebitda, r.multiple, r.aandelenwaarde);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'waarderingen', uitkomst);
  end loop;

  -- Review conversations, by who, with whom, kind and date.
  for r in select g.*, beheer.imp_persoon(_org, g.wie) as wie_id, beheer.imp_persoon(_org, g.met) as met_id
           from pg_temp.imp_gesprekken g order by g.nr loop
    select x.id into rij_id from app.gesprekken x where x.org_id = _org and x.medewerker_user_id = r.wie_id
      and x.leider_user_id = r.met_id and x.soort = r.soort and x.datum = beheer.imp_datum(r.datum) order by x.id limit 1;
    if rij_id is null then
      insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie)
      values (_org, r.wie_id, r.met_id, r.soort, beheer.imp_datum(r.datum), coalesce(r.afgerond, false), r.eindoordeel);
      uitkomst := 'nieuw';
    else
      update app.gesprekken x set afgerond = coalesce(r.afgerond, x.afgerond),
        eindclassificatie = coalesce(r.eindoordeel, x.eindclassificatie)
      where x.org_id = _org and x.id = rij_id
        and (x.afgerond, x.eindclassificatie) is distinct from
            (coalesce(r.afgerond, x.afgerond), coalesce(r.eindoordeel, x.eindclassificatie));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'gesprekken', uitkomst);
  end loop;

  -- Session notes with their action points (replaced as a whole when they differ).
  for r in select n.*, beheer.imp_persoon(_org, n.geschreven_door) as schrijver from pg_temp.imp_sessienotities n order by n.nr loop
    rij_id := beheer.imp_bestaand(_org, 'sessienotitie', r.ident, 'app.sessienotities');
    if rij_id is null then
      insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, highlights, besluiten, learnings, status,
                                      geschreven_door, aangemaakt_op, vastgesteld_op)
      values (_org, beheer.imp_datum(r.datum), r.titel, r.soort, r.samenvatting, coalesce(r.highlights, '[]'),
              coalesce(r.besluiten, '[]'), coalesce(r.learnings, '[]'),
              case when coalesce(r.vastgesteld, true) then 'vastgesteld' else 'concept' end, r.schrijver, nu,
              case when coalesce(r.vastgesteld, true) then nu end)
      returning sessienotities.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.sessienotities x set datum = beheer.imp_datum(r.datum), titel = r.titel, soort = r.soort,
        samenvatting = r.samenvatting, highlights = coalesce(r.highlights, x.highlights),
        besluiten = coalesce(r.besluiten, x.besluiten), learnings = coalesce(r.learnings, x.learnings),
        status = case when r.vastgesteld is null then x.status when r.vastgesteld then 'vastgesteld' else 'concept' end,
        vastgesteld_op = case when coalesce(r.vastgesteld, x.status = 'vastgesteld') then coalesce(x.vastgesteld_op, nu) end,
        geschreven_door = coalesce(r.schrijver, x.geschreven_door)
      where x.org_id = _org and x.id = rij_id
        and (x.datum, x.titel, x.soort, x.samenvatting, x.highlights, x.besluiten, x.learnings, x.status, x.geschreven_door)
            is distinct from (beheer.imp_datum(r.datum), r.titel, r.soort, r.samenvatting, coalesce(r.highlights, x.highlights),
              coalesce(r.besluiten, x.besluiten), coalesce(r.learnings, x.learnings),
              case when r.vastgesteld is null then x.status when r.vastgesteld then 'vastgesteld' else 'concept' end,
              coalesce(r.schrijver, x.geschreven_door));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    if exists (select 1 from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad) then
      select coalesce(jsonb_agg(jsonb_build_array(a.tekst, a.eigenaar_user_id, a.deadline) order by a.tekst, a.eigenaar_user_id, a.deadline), '[]')
        into oude_punten from app.sessie_actiepunten a where a.org_id = _org and a.notitie_id = rij_id;
      select coalesce(jsonb_agg(jsonb_build_array(a.tekst, beheer.imp_persoon(_org, a.eigenaar), beheer.imp_datum(a.deadline))
                                order by a.tekst, beheer.imp_persoon(_org, a.eigenaar), beheer.imp_datum(a.deadline)), '[]')
        into nieuwe_punten from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad;
      if oude_punten is distinct from nieuwe_punten then
        delete from app.sessie_actiepunten a where a.org_id = _org and a.notitie_id = rij_id;
        insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, deadline)
        select _org, rij_id, a.tekst, beheer.imp_persoon(_org, a.eigenaar), beheer.imp_datum(a.deadline)
        from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad order by a.nr;
        if uitkomst = 'ongewijzigd' then uitkomst := 'bijgewerkt'; end if;
      end if;
    end if;
    perform beheer.imp_onthouden(_org, 'sessienotitie', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'sessienotities', uitkomst);
  end loop;

  -- The strategy canvas: the fields the file gives.
  if exists (select 1 from pg_temp.imp_strategie) then
    insert into app.strategie (org_id, bijgewerkt_op) values (_org, nu) on conflict (org_id) do nothing;
    for r in select * from pg_temp.imp_strategie order by nr loop
      -- The column is a canvas field (imp_uitpakken kept only those of the list strategie_veld).
      execute format('select s.%I from app.strategie s where s.org_id = $1', r.veld) into oude_tekst using _org;
      if oude_tekst is distinct from r.waarde then
        execute format('update app.strategie s set %I = $2, bijgewerkt_op = $3 where s.org_id = $1', r.veld)
          using _org, r.waarde, nu;
      end if;
      aantallen := beheer.imp_tel(aantallen, 'strategie', case when oude_tekst is not distinct from r.waarde then 'ongewijzigd'
                                                               when oude_tekst is null then 'nieuw' else 'bijgewerkt' end);
    end loop;
  end if;
  return aantallen;
end
$$;

-- The entry point --------------------------------------------------------------------------------

-- Checks the file (see above) and, when nothing is wrong and _schrijven, writes it. Returns
-- {"fouten": [{"pad", "bericht"}]} (nothing written) or {"aantallen": {kind: {nieuw, bijgewerkt,
-- ongewijzigd}}}. The CLI passes _schrijven false when the file's shape already failed, so the
-- reference faults are reported with the shape faults. Imports of one organisation take turns.
create function beheer.importeren(_org uuid, _bestand jsonb, _schrijven boolean default true) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  totaal integer;
  fouten jsonb;
  aantallen jsonb;
begin
  if not exists (select 1 from app.organisaties o where o.org_id = _org) then
    perform app_hidden.ongeldig('org', format('Organisatie %s bestaat niet.', _org));
  end if;
  perform app_hidden.vergrendel('import', _org::text);
  totaal := beheer.imp_uitpakken(_bestand);
  if totaal >= 1000 then raise notice 'import: checking % items', totaal; end if;
  perform beheer.imp_controleren(_org);
  select coalesce(jsonb_agg(jsonb_build_object('pad', f.pad, 'bericht', f.bericht)), '[]') into fouten
  from (select distinct on (f.pad, f.bericht) f.* from pg_temp.imp_fouten f) f;
  if fouten <> '[]' or not _schrijven then
    return jsonb_build_object('fouten', fouten);
  end if;
  perform beheer.namens(_org, null, 'importeren', jsonb_build_object('items', totaal));
  perform set_config('koers.import_totaal', totaal::text, true);
  perform set_config('koers.import_klaar', '0', true);
  aantallen := beheer.imp_schrijven(_org);
  return jsonb_build_object('aantallen', aantallen);
end
$$;
