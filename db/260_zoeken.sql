-- Search (zoeken): tasks, attachments (name and file text), comments, priorities with key
-- results, projects, KPIs and people, in Dutch (app.koers_nl: unaccent, then the Dutch stemmer).
-- Search runs as the door role under every policy: what the caller cannot see in the app, a
-- search cannot find. The vectors are generated columns with GIN indexes (migrations/0010_search.sql);
-- the triggers that keep their text are in db/255_zoektekst.sql.

-- Under row-level security PostgreSQL uses an index only for a condition whose function is
-- LEAKPROOF (it cannot reveal a row the policies hide), and tsvector @@ tsquery is not marked
-- so, although it only answers true or false. Without the mark every search reads all of an
-- organisation's rows through the policies. Only a superuser can set it; the embedded database
-- and the tests migrate as one. Elsewhere a superuser runs this statement once (README).
do $$
begin
  if (select r.rolsuper from pg_roles r where r.rolname = current_user) then
    alter function pg_catalog.ts_match_vq(tsvector, tsquery) leakproof;
  elsif not (select p.proleakproof from pg_proc p where p.oid = 'pg_catalog.ts_match_vq(tsvector, tsquery)'::regprocedure) then
    raise warning 'zoeken: run "alter function pg_catalog.ts_match_vq(tsvector, tsquery) leakproof" as a superuser, '
                  'or search reads every row of an organisation';
  end if;
end
$$;


-- zoeken -------------------------------------------------------------------------------------

-- The kinds of hit the caller may see: those whose read operation (the meaning of each value of
-- the list zoek_soort) the caller may call: its section released, its module on, the role
-- allowed. The policies limit the rows within each kind.
create function app_hidden.zoek_soorten_zichtbaar() returns text[]
language plpgsql stable security definer set search_path = '' as $$
declare b app_hidden.aanroep_start := app_hidden.beller();
begin
  if b.org_id is null then return '{}'; end if;
  return array(
    select k.waarde from app.keuzes k join app.operaties o on o.naam = k.betekenis
    where k.lijst = 'zoek_soort'
      and (o.sectie is null or exists (select 1 from app.secties s
                                       where s.org_id = b.org_id and s.sectie = o.sectie and s.vrijgegeven))
      and not exists (select 1 from app.modules m where m.org_id = b.org_id and m.module = o.module and not m.aan)
      and app_hidden.recht(b.org_id, b.rol, o.naam) <> 'geen'
    order by k.volgorde);
end
$$;

-- A snippet: a short text whole, a longer one the passages around the matches; each match
-- between ** (Markdown bold).
create function app_hidden.fragment(_tekst text, _q tsquery) returns text
language sql immutable parallel safe as $$
  select case when length(_tekst) <= 300
    then ts_headline('app.koers_nl', _tekst, _q, 'StartSel=**, StopSel=**, MaxWords=60, MinWords=30, ShortWord=2')
    else ts_headline('app.koers_nl', left(_tekst, 5000), _q,
      'StartSel=**, StopSel=**, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "') end
$$;

create function app_hidden.treft(_tekst text, _q tsquery) returns boolean
language sql immutable parallel safe as $$
  select coalesce(to_tsvector('app.koers_nl', left(_tekst, 100000)) @@ _q, false)
$$;

-- The hits as the answer shows them, in the order given (_soorten, _ids and _delen side by
-- side), in one statement over the definitions: soort, id, nummer (of the task), titel, hoort_bij,
-- stand, waar (the field the text was found in; for an attachment's file also plek, its page or
-- sheet), fragment and bijgewerkt_op. Without a query, waar and fragment are null. Each kind
-- lists its searchable fields in order (namen, teksten): waar is the first that holds the words;
-- when the words were found across fields (title and tags, say), the snippet spans them. A KPI's
-- stand is its traffic light in _kwartaal (the running quarter).
create function app_hidden.zoek_weergave(_org uuid, _q tsquery, _kwartaal date, _soorten text[], _ids uuid[],
                                         _delen integer[]) returns jsonb
language plpgsql stable set search_path = '' set plan_cache_mode = force_generic_plan as $$
begin
  -- PL/pgSQL for its plan, kept for the session: as a SQL function (not inlinable: it
  -- aggregates) this statement over seven definitions was planned at every search, about 15 ms
  -- as the superuser and 90 under the door's policies. The generic plan from the first call on:
  -- the hits come in as arrays, so a plan for given values could prune nothing, and each of the
  -- first five custom plans cost as much as that planning.
  return (  select coalesce(jsonb_agg(
             jsonb_build_object('soort', g.soort, 'id', g.id) || r.h
             || case when _q is null or r.h ? 'waar'
                     then jsonb_build_object('waar', r.h -> 'waar', 'fragment', r.h -> 'fragment')
                     else jsonb_build_object('waar', coalesce(m.naam, r.namen[1]),
                            'fragment', app_hidden.fragment(coalesce(m.tekst, array_to_string(r.teksten, ' · ')), _q)) end
             order by g.nr), '[]')
    from unnest(_soorten, _ids, _delen) with ordinality g (soort, id, deel, nr)
    cross join lateral (
      select jsonb_build_object('nummer', w.nummer, 'titel', t.omschrijving, 'hoort_bij', w.weergave -> 'hoort_bij',
               'stand', w.weergave -> 'stand', 'bijgewerkt_op', t.bijgewerkt_op) as h,
             array['titel', 'tags', 'toelichting'] as namen, array[t.omschrijving, t.tag_tekst, t.toelichting] as teksten
      from app_hidden.taak_weergaven w join app.taken t on t.org_id = w.org_id and t.id = w.id
      where g.soort = 'taak' and w.org_id = _org and w.id = g.id
      union all
      select jsonb_build_object('nummer', d.nummer, 'titel', b.naam,
               'hoort_bij', jsonb_build_object('soort', 'taak', 'id', d.id, 'nummer', d.nummer, 'titel', d.omschrijving),
               'stand', d.stand, 'bijgewerkt_op', b.geupload_op)
             || coalesce((select jsonb_build_object('waar', 'tekst', 'plek', x.plek, 'fragment', app_hidden.fragment(x.tekst, _q))
                          from app.bijlage_delen x where x.org_id = b.org_id and x.bijlage_id = b.id and x.nr = g.deel), '{}'),
             array['naam'], array[regexp_replace(b.naam, '[._\-]+', ' ', 'g')]
      from app.bijlagen b
      cross join lateral (select * from app_hidden.def_taken d where d.org_id = b.org_id and d.id = b.taak_id offset 0) d
      where g.soort = 'bijlage' and b.org_id = _org and b.id = g.id
      union all
      select jsonb_build_object('nummer', d.nummer,
               'titel', case when length(o.tekst) > 80 then left(o.tekst, 79) || '…' else o.tekst end,
               'hoort_bij', jsonb_build_object('soort', 'taak', 'id', d.id, 'nummer', d.nummer, 'titel', d.omschrijving),
               'stand', d.stand, 'bijgewerkt_op', o.geplaatst_op),
             array['tekst'], array[o.tekst]
      from app.opmerkingen o
      cross join lateral (select * from app_hidden.def_taken d where d.org_id = o.org_id and d.id = o.taak_id offset 0) d
      where g.soort = 'opmerking' and o.org_id = _org and o.id = g.id
      union all
      select jsonb_build_object('nummer', null, 'titel', p.titel,
               'hoort_bij', case when p.team_naam is not null
                                 then jsonb_build_object('soort', 'team', 'id', p.team_id, 'titel', p.team_naam) end,
               'stand', p.stand, 'afgerond', p.afgerond, 'kwartaal', p.kwartaal,
               'bijgewerkt_op', coalesce(p.bijgewerkt_op, p.aangemaakt_op)),
             array['titel', 'omschrijving', 'kernresultaat'],
             array[p.titel, p.omschrijving, (select string_agg(k ->> 'titel', ' · ' order by i)
                                             from jsonb_array_elements(p.kernresultaten) with ordinality e (k, i))]
      from app_hidden.def_prioriteiten p
      where g.soort = 'prioriteit' and p.org_id = _org and p.id = g.id
      union all
      select jsonb_build_object('nummer', null, 'titel', p.titel, 'hoort_bij', null,
               'stand', case when p.afgerond_op is not null then 'afgerond' else 'lopend' end,
               'bijgewerkt_op', coalesce(p.bijgewerkt_op, p.aangemaakt_op)),
             array['titel', 'omschrijving'], array[p.titel, p.omschrijving]
      from app_hidden.def_projecten p
      where g.soort = 'project' and p.org_id = _org and p.id = g.id
      union all
      select jsonb_build_object('nummer', null, 'titel', k.naam,
               'hoort_bij', case when d.team_naam is not null
                                 then jsonb_build_object('soort', 'team', 'id', d.team_id, 'titel', d.team_naam) end,
               'stand', d.stoplicht, 'bijgewerkt_op', coalesce(k.bijgewerkt_op, k.aangemaakt_op)),
             array['naam', 'eenheid', 'doel'], array[k.naam, k.eenheid, k.doel]
      from app_hidden.def_kpi_scorebord(_kwartaal) d join app.kpis k on k.org_id = d.org_id and k.id = d.id
      where g.soort = 'kpi' and d.org_id = _org and d.id = g.id
      union all
      select jsonb_build_object('nummer', null, 'titel', a.naam,
               'hoort_bij', case when x.id is not null then jsonb_build_object('soort', 'team', 'id', x.id, 'titel', x.naam) end,
               'stand', null, 'bijgewerkt_op', coalesce(l.bijgewerkt_op, l.aangemaakt_op)),
             array['naam', 'functietitel', 'team'], array[a.naam, l.functietitel, x.naam]
      from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
      left join app.teams x on x.org_id = l.org_id and x.id = l.team_id
      where g.soort = 'persoon' and l.org_id = _org and l.user_id = g.id) r
    left join lateral (
      select v.naam, v.tekst from unnest(r.namen, r.teksten) with ordinality v (naam, tekst, i)
      where _q is not null and app_hidden.treft(v.tekst, _q)
      order by v.i limit 1) m on true);
end
$$;

-- The conditions a branch of the search adds for the creator (_maker: $4) and the dates
-- (na: $7, voor: $8), on the columns of its kind.
create function app_hidden.zoek_filters(_maker_kolom text, _datum_kolom text, _maker uuid, _na date, _voor date)
returns text language sql immutable parallel safe as $$
  select case when _maker is not null and _maker_kolom is not null then format(' and %s = $4', _maker_kolom) else '' end
      || case when _na is not null then format(' and %s >= $7', _datum_kolom) else '' end
      || case when _voor is not null then format(' and %s < $8', _datum_kolom) else '' end
$$;

-- The branches of the search over one source of (id, datum, deel). Hits are ordered by where
-- the words are found, then newest first: rang 2 when all are in the title or name (_titel, a
-- vector, or null for a source without), rang 1 anywhere (_alles); without text, rang 0. Each
-- branch takes the newest $9 rows, so it reads what an index gives in order and stops, however
-- common the words are.
create function app_hidden.zoek_takken(_soort text, _bron text, _titel text, _alles text, _tekst boolean)
returns text[] language sql immutable parallel safe as $$
  select case when not _tekst
    then array[format('select %L as soort, c.id, 0 as rang, c.datum, c.deel from (%s order by datum desc limit $9) c',
                      _soort, _bron)]
    else array(select format('select %L as soort, c.id, %s as rang, c.datum, c.deel from (%s and %s @@ $2 order by datum desc limit $9) c',
                             _soort, k.rang, _bron, k.vector)
               from (values (2, _titel), (1, _alles)) k (rang, vector) where k.vector is not null) end
$$;

-- The same for a kind of few rows (priorities, projects, KPIs, people): one branch that
-- ranks all its matches, instead of one per class; _kolommen and _van are its select list
-- (id, datum, deel) and from-where, _titel and _alles conditions.
create function app_hidden.zoek_tak_klein(_soort text, _kolommen text, _van text, _titel text, _alles text, _tekst boolean)
returns text[] language sql immutable parallel safe as $$
  select array[case when _tekst
    then format('select %L as soort, c.id, c.rang, c.datum, c.deel from (select %s, case when %s then 2 else 1 end as rang%s'
                || ' and %s order by rang desc, datum desc limit $9) c', _soort, _kolommen, _titel, _van, _alles)
    else format('select %L as soort, c.id, 0 as rang, c.datum, c.deel from (select %s%s order by datum desc limit $9) c',
                _soort, _kolommen, _van) end]
$$;

-- The tasks of the caller's organisation that have all these tags (lower case), or null for no
-- tags filter. Only their ids, to narrow a search that then reads each task through its
-- policy: under row-level security PostgreSQL would not use the index on tag_sleutels
-- (array containment is not leakproof) and would read every task instead.
create function app_hidden.taken_met_tags(_tags text[]) returns uuid[]
language plpgsql stable security definer set search_path = '' as $$
declare org uuid := app_hidden.huidige_org();
begin
  if _tags is null then return null; end if;
  return array(select t.id from app.taken t where t.org_id = org and t.tag_sleutels @> _tags);
end
$$;

create function api.zoeken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  tz text := (select o.tijdzone from app.organisaties o where o.org_id = org);
  tekst text := p ->> 'tekst';
  gevraagd text[] := (select array_agg(x) from jsonb_array_elements_text(p -> 'soorten') x);
  alleen_open boolean := coalesce((p ->> 'alleen_open')::boolean, false);
  alleen_klaar boolean := coalesce((p ->> 'alleen_klaar')::boolean, false);
  eigenaar uuid := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid');
  maker uuid := app_hidden.param_verwijzing(p, 'aangemaakt_door_user_id', 'lid');
  hoort_bij uuid;
  tags text[] := (select array_agg(distinct lower(x)) from unnest(app_hidden.param_tags(p, 'tags')) x);
  na date := app_hidden.param_datum(p, 'na');
  voor date := app_hidden.param_datum(p, 'voor');
  na_t timestamptz := (na::timestamp at time zone tz);
  voor_t timestamptz := (voor::timestamp at time zone tz);
  soorten text[] := app_hidden.zoek_soorten_zichtbaar();
  q tsquery;
  maximum constant integer := 25;
  met_tekst boolean;
  taakfilter text := '';
  statusfilter text := '';
  delen text[] := '{}';
  zoek text;
  gevonden record;
  hit_soorten text[];
  hit_ids uuid[];
  hit_delen integer[];
  aantal integer := 0;
begin
  if p ? 'hoort_bij_id' then
    hoort_bij := case when exists (select 1 from app.prioriteiten x where x.org_id = org and x.id = (p ->> 'hoort_bij_id')::uuid)
                      then app_hidden.param_verwijzing(p, 'hoort_bij_id', 'prioriteit')
                      else app_hidden.param_verwijzing(p, 'hoort_bij_id', 'project') end;
  end if;
  if alleen_open and alleen_klaar then
    perform app_hidden.ongeldig('alleen_klaar', 'alleen_open en alleen_klaar sluiten elkaar uit; kies er één.');
  end if;
  if voor <= na then
    perform app_hidden.ongeldig('voor', format('voor (%s) moet na na (%s) liggen.', voor, na));
  end if;
  if cardinality(tags) = 0 then tags := null; end if;
  if tekst is null and gevraagd is null and not alleen_open and not alleen_klaar and eigenaar is null
     and maker is null and hoort_bij is null and tags is null and na is null and voor is null then
    perform app_hidden.ongeldig('tekst',
      'tekst is verplicht: geef een zoektekst of #<nummer>, of zoek zonder tekst met soorten of een filter.');
  end if;

  -- #<nummer>: that one task, when the caller may see it; the filters do not count.
  if tekst ~ '^#\s*\d{1,9}$' then
    select x.id into gevonden from app.taken x
    where x.org_id = org and x.nummer = substr(tekst, 2)::int and x.verwijderd_op is null
      and 'taak' = any (soorten);
    return jsonb_build_object('resultaten',
      case when gevonden.id is null then '[]'::jsonb
           else app_hidden.zoek_weergave(org, null, null, array['taak'], array[gevonden.id], array[null::integer]) end,
      'afgekapt', false);
  end if;

  if tekst is not null then
    q := websearch_to_tsquery('app.koers_nl', tekst);
    -- Only words that carry no meaning (de, het, en): nothing can match.
    if numnode(q) = 0 then
      return jsonb_build_object('resultaten', '[]'::jsonb, 'afgekapt', false);
    end if;
  end if;
  met_tekst := q is not null;
  if gevraagd is not null then
    soorten := array(select s from unnest(soorten) s where s = any (gevraagd));
  end if;
  -- Kinds a filter cannot apply to are left out: only tasks have tags; only tasks (and their
  -- attachments and comments) belong to a priority or project; KPIs and people have no open
  -- or done; people have no owner or creator.
  if tags is not null then
    soorten := array(select s from unnest(soorten) s where s = 'taak');
  end if;
  if hoort_bij is not null then
    soorten := array(select s from unnest(soorten) s where s in ('taak', 'bijlage', 'opmerking'));
  end if;
  if alleen_open or alleen_klaar then
    soorten := array(select s from unnest(soorten) s where s not in ('kpi', 'persoon'));
  end if;
  if eigenaar is not null or maker is not null then
    soorten := array(select s from unnest(soorten) s where s <> 'persoon');
  end if;

  -- The filters on the task a hit is (or belongs to), alias t.
  if alleen_open then taakfilter := taakfilter || ' and t.stand not in (''voltooid'', ''vervallen'')'; end if;
  if alleen_klaar then taakfilter := taakfilter || ' and t.stand in (''voltooid'', ''vervallen'')'; end if;
  if eigenaar is not null then taakfilter := taakfilter || ' and t.eigenaar_user_id = $3'; end if;
  if hoort_bij is not null then taakfilter := taakfilter || ' and (t.prioriteit_id = $5 or t.project_id = $5)'; end if;

  -- Priorities and projects: open until completed.
  statusfilter := case when alleen_open then ' and p.afgerond_op is null'
                       when alleen_klaar then ' and p.afgerond_op is not null' else '' end
    || case when eigenaar is not null then ' and p.eigenaar_user_id = $3' else '' end;

  -- The branches of each kind (app_hidden.zoek_takken), each over (id, datum, deel).
  if 'taak' = any (soorten) then
    delen := delen || app_hidden.zoek_takken('taak',
      'select t.id, t.bijgewerkt_op as datum, null::integer as deel from app.taken t'
      || ' where t.org_id = $1 and t.verwijderd_op is null' || taakfilter
      || case when tags is not null then ' and t.id = any ($6)' else '' end
      || app_hidden.zoek_filters('t.aangemaakt_door', 't.bijgewerkt_op', maker, na, voor),
      't.titelvector', 't.zoekvector', met_tekst);
  end if;
  if 'opmerking' = any (soorten) then
    delen := delen || app_hidden.zoek_takken('opmerking',
      'select o.id, o.geplaatst_op as datum, null::integer as deel from app.opmerkingen o'
      || ' join app.taken t on t.org_id = o.org_id and t.id = o.taak_id and t.verwijderd_op is null'
      || ' where o.org_id = $1' || taakfilter
      || app_hidden.zoek_filters('o.door_user_id', 'o.geplaatst_op', maker, na, voor),
      null, 'o.zoekvector', met_tekst);
  end if;
  if 'bijlage' = any (soorten) then
    -- An attachment is found by its name, or by a part of its file's text.
    delen := delen || app_hidden.zoek_takken('bijlage',
      'select b.id, b.geupload_op as datum, null::integer as deel from app.bijlagen b'
      || ' join app.taken t on t.org_id = b.org_id and t.id = b.taak_id and t.verwijderd_op is null'
      || ' where b.org_id = $1' || taakfilter
      || app_hidden.zoek_filters('b.geupload_door', 'b.geupload_op', maker, na, voor),
      'b.zoekvector', null, met_tekst);
    if met_tekst then
      delen := delen || app_hidden.zoek_takken('bijlage',
        'select d.bijlage_id as id, d.geupload_op as datum, d.nr as deel from app.bijlage_delen d'
        || ' join app.taken t on t.org_id = d.org_id and t.id = d.taak_id and t.verwijderd_op is null'
        || case when maker is not null then ' join app.bijlagen b on b.org_id = d.org_id and b.id = d.bijlage_id' else '' end
        || ' where d.org_id = $1' || taakfilter
        || app_hidden.zoek_filters('b.geupload_door', 'd.geupload_op', maker, na, voor),
        null, 'd.zoekvector', true);
    end if;
  end if;
  if 'prioriteit' = any (soorten) then
    -- A priority is found by its title, its description or one of its key results.
    delen := delen || app_hidden.zoek_tak_klein('prioriteit',
      'p.id, coalesce(p.bijgewerkt_op, p.aangemaakt_op) as datum, null::integer as deel',
      ' from app.prioriteiten p where p.org_id = $1' || statusfilter
      || app_hidden.zoek_filters('p.aangemaakt_door', 'coalesce(p.bijgewerkt_op, p.aangemaakt_op)', maker, na, voor),
      'p.titelvector @@ $2',
      '(p.zoekvector @@ $2 or exists (select 1 from app.kernresultaten k where k.org_id = p.org_id'
      || ' and k.prioriteit_id = p.id and k.zoekvector @@ $2))', met_tekst);
  end if;
  if 'project' = any (soorten) then
    delen := delen || app_hidden.zoek_tak_klein('project',
      'p.id, coalesce(p.bijgewerkt_op, p.aangemaakt_op) as datum, null::integer as deel',
      ' from app.projecten p where p.org_id = $1' || statusfilter
      || app_hidden.zoek_filters('p.aangemaakt_door', 'coalesce(p.bijgewerkt_op, p.aangemaakt_op)', maker, na, voor),
      'p.titelvector @@ $2', 'p.zoekvector @@ $2', met_tekst);
  end if;
  if 'kpi' = any (soorten) then
    delen := delen || app_hidden.zoek_tak_klein('kpi',
      'k.id, coalesce(k.bijgewerkt_op, k.aangemaakt_op) as datum, null::integer as deel',
      ' from app.kpis k where k.org_id = $1'
      || case when eigenaar is not null then ' and k.eigenaar_user_id = $3' else '' end
      || app_hidden.zoek_filters('k.aangemaakt_door', 'coalesce(k.bijgewerkt_op, k.aangemaakt_op)', maker, na, voor),
      'k.titelvector @@ $2', 'k.zoekvector @@ $2', met_tekst);
  end if;
  if 'persoon' = any (soorten) then
    -- People are few: their vector (name, job title, team) is made on the fly.
    delen := delen || app_hidden.zoek_tak_klein('persoon',
      'l.user_id as id, coalesce(l.bijgewerkt_op, l.aangemaakt_op) as datum, null::integer as deel',
      ' from app.lidmaatschappen l join app.accounts a on a.id = l.user_id'
      || ' left join app.teams x on x.org_id = l.org_id and x.id = l.team_id'
      || ' where l.org_id = $1 and l.actief and (select app_hidden.sectie_zichtbaar(''team''))'
      || app_hidden.zoek_filters(null, 'coalesce(l.bijgewerkt_op, l.aangemaakt_op)', null, na, voor),
      'to_tsvector(''app.koers_nl'', a.naam) @@ $2',
      'to_tsvector(''app.koers_nl'', a.naam || '' '' || coalesce(l.functietitel, '''') || '' '' || coalesce(x.naam, '''')) @@ $2',
      met_tekst);
  end if;
  if cardinality(delen) = 0 then
    return jsonb_build_object('resultaten', '[]'::jsonb, 'afgekapt', false);
  end if;

  -- Per hit its best class (an attachment: its name first, else its newest matching part),
  -- then all hits by class and newest first; then all of them shown in one statement.
  zoek := 'select array_agg(soort order by nr), array_agg(id order by nr), array_agg(deel order by nr), count(*)::integer'
    || ' from (select soort, id, deel, row_number() over (order by rang desc, datum desc, soort, id) as nr'
    || ' from (select distinct on (soort, id) * from ('
    || array_to_string(delen, ' union all ')
    || ') a order by soort, id, rang desc, deel nulls first) b order by nr limit $9) c';
  execute zoek into hit_soorten, hit_ids, hit_delen, aantal
    using org, q, eigenaar, maker, hoort_bij, app_hidden.taken_met_tags(tags), na_t, voor_t, maximum + 1;
  return jsonb_build_object(
    'resultaten', app_hidden.zoek_weergave(org, q, date_trunc('quarter', app_hidden.vandaag(org))::date,
                                           hit_soorten[1:maximum], hit_ids[1:maximum], hit_delen[1:maximum]),
    'afgekapt', aantal > maximum);
end
$$;
