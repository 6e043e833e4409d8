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

-- Reports the items of _tabel that repeat an earlier one (its ident: the key, else what
-- _zelfde names): at the key, else at _veld, with _bericht (its first %s the first item's place,
-- its second 'zelfde sleutel' or _zelfde).
create function beheer.imp_dubbel_melden(_tabel text, _veld text, _bericht text, _zelfde text) returns void
language plpgsql volatile set search_path = '' as $$
begin
  execute format($q$
    insert into pg_temp.imp_fouten
    select x.pad || case when x.sleutel is not null then '/sleutel' else '/' || $1 end,
      format($2, e.eerste, case when x.sleutel is not null then 'zelfde sleutel' else $3 end)
    from pg_temp.%I x join beheer.imp_dubbel(%L, 't.ident') e on e.pad = x.pad$q$, _tabel, _tabel)
  using _veld, _bericht, _zelfde;
end
$$;

-- Reports the items of _tabel whose field _veld is given but names no date that exists.
create function beheer.imp_geen_datum(_tabel text, _veld text) returns void
language plpgsql volatile set search_path = '' as $$
begin
  execute format($q$
    insert into pg_temp.imp_fouten
    select x.pad || '/' || $1, format('%%s is geen bestaande datum.', x.%I)
    from pg_temp.%I x where x.%I is not null and app_hidden.periode_begin('dag', x.%I) is null$q$,
    _veld, _tabel, _veld, _veld)
  using _veld;
end
$$;
