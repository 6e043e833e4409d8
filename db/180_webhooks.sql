-- Webhooks (docs/webhooks.md). At the commit of a change, each of its events becomes a message
-- for every active webhook subscribed to it; a message that is due queues a graphile-worker
-- job, which the task src/tasks/deliver_webhook.ts runs: begin an attempt, POST, record the
-- result (next attempt, or the switch-off after fifteen failed deliveries in a row).

-- Events become messages at commit, not when they are recorded: until then the change may
-- still merge an event into another one or remove it (app_hidden.taak_gebeurtenis), and such
-- an event must not be sent. Events about private-project tasks are never sent.
create function app_hidden.tg_gebeurtenissen__webhook_berichten() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare
  g app.gebeurtenissen;
begin
  select * into g from app.gebeurtenissen x where x.org_id = new.org_id and x.id = new.id;
  if not found or g.besloten or g.soort = 'webhook.test' then
    return null;
  end if;
  insert into app_private.webhook_berichten (org_id, webhook_id, gebeurtenis_id, aangemaakt_op, volgende_poging_op)
  select w.org_id, w.id, g.id, app_hidden.nu(), app_hidden.nu()
  from app_private.webhooks w
  where w.org_id = g.org_id and w.aan and g.soort = any (w.gebeurtenissen)
  on conflict (org_id, webhook_id, gebeurtenis_id) do nothing;
  return null;
end
$$;
create constraint trigger _900_webhook_berichten after insert on app.gebeurtenissen
  deferrable initially deferred
  for each row execute function app_hidden.tg_gebeurtenissen__webhook_berichten();

create trigger _900_job after insert on app_private.webhook_berichten
  for each row when (new.status = 'wacht' and new.volgende_poging_op is not null)
  execute function app_hidden.tg__job('deliver_webhook', 'volgende_poging_op');
create trigger _900_job_opnieuw after update of volgende_poging_op on app_private.webhook_berichten
  for each row when (new.status = 'wacht' and new.volgende_poging_op is not null
                     and new.volgende_poging_op is distinct from old.volgende_poging_op)
  execute function app_hidden.tg__job('deliver_webhook', 'volgende_poging_op');

-- reflectie.ingediend: only who and which period, never the content.
create function app_hidden.tg_reflecties__gebeurtenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if new.ingediend_op is not null and (tg_op = 'INSERT' or old.ingediend_op is null) then
    perform app_hidden.gebeurtenis(new.org_id, 'reflectie.ingediend', new.id, jsonb_build_object(
      'reflectie', jsonb_build_object('id', new.id, 'user_id', new.user_id, 'soort', new.soort,
                                      'periode', new.periode)));
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update of ingediend_op on app.reflecties
  for each row execute function app_hidden.tg_reflecties__gebeurtenis();

-- A team as a message shows it: id and name, or null (company-wide).
create function app_hidden.webhook_team(t jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case when jsonb_typeof(t) = 'object' then jsonb_build_object('id', t -> 'id', 'naam', t -> 'naam') else 'null'::jsonb end
$$;

-- What a message may carry (interface, content restrictions): titles, statuses and ids, per
-- event kind, each key named here. Whatever else a trigger records (a figure, a description)
-- is left out, so the rule holds for every event, also one recorded before this rule changed.
create function app_hidden.webhook_gegevens(_soort text, g jsonb) returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  team jsonb := case when g ? 'team' then jsonb_build_object('team', app_hidden.webhook_team(g -> 'team')) else '{}' end;
  t jsonb := g -> 'taak';
  o jsonb := g -> 'onderdeel';
  p jsonb := g -> 'prioriteit';
  k jsonb := g -> 'kpi';
begin
  case
    when _soort in ('taak.aangemaakt', 'taak.gewijzigd', 'taak.klaar') then
      return jsonb_build_object(
        'taak', jsonb_build_object('id', t -> 'id', 'nummer', t -> 'nummer', 'titel', t -> 'titel', 'klaar', t -> 'klaar',
                                   'status', t -> 'status', 'deadline', t -> 'deadline', 'eigenaar_id', t -> 'eigenaar_id'),
        'onderdeel', case when jsonb_typeof(o) = 'object' then
          jsonb_build_object('id', o -> 'id', 'titel', o -> 'titel', 'soort', o -> 'soort')
          || case when o ? 'team' then jsonb_build_object('team', app_hidden.webhook_team(o -> 'team')) else '{}' end
        end);
    when _soort in ('prioriteit.aangemaakt', 'prioriteit.afgerond') then
      return jsonb_build_object('prioriteit', jsonb_build_object('id', p -> 'id', 'titel', p -> 'titel', 'soort', p -> 'soort',
        'kwartaal', p -> 'kwartaal', 'deadline', p -> 'deadline', 'eigenaar_id', p -> 'eigenaar_id', 'afgerond', p -> 'afgerond'))
        || team;
    when _soort = 'kpi.rood' then
      return jsonb_build_object(
        'kpi', jsonb_build_object('id', k -> 'id', 'naam', k -> 'naam', 'eigenaar_id', k -> 'eigenaar_id',
                                  'meetsoort', k -> 'meetsoort', 'cadans', k -> 'cadans'),
        'periode', g -> 'meting' -> 'periode', 'kwartaal', g -> 'kwartaal', 'stoplicht', g -> 'stoplicht') || team;
    when _soort = 'reflectie.ingediend' then
      return jsonb_build_object('reflectie', jsonb_build_object('id', g -> 'reflectie' -> 'id',
        'user_id', g -> 'reflectie' -> 'user_id', 'soort', g -> 'reflectie' -> 'soort', 'periode', g -> 'reflectie' -> 'periode'));
    when _soort = 'webhook.test' then
      return jsonb_build_object('webhook', jsonb_build_object('id', g -> 'webhook' -> 'id', 'naam', g -> 'webhook' -> 'naam'));
    else
      return '{}';
  end case;
end
$$;

-- Whether the subject of a task event is in a private project now: a project made private
-- after the event was recorded keeps its tasks to itself as well.
create function app_hidden.webhook_besloten(g app.gebeurtenissen) returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return g.besloten or (g.soort like 'taak.%' and exists (
    select 1 from app.taken t join app.projecten p on p.org_id = t.org_id and p.id = t.project_id
    where t.org_id = g.org_id and t.id = g.onderwerp_id and p.besloten));
end
$$;

-- Addresses ---------------------------------------------------------------------------------

-- Why a webhook address is refused, or null. The CLI checks first with the WHATWG URL parser
-- (which also reads 0x7f.1, 2130706433 and 0177.0.0.1 as IPv4) and stores what it made of
-- the address; this is the database's own guard for every other path.
create function app_hidden.webhook_adres_fout(_url text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  autoriteit text;
  host text;
  poort text;
  laatste text;
begin
  if _url is null or length(_url) > 2048 or _url ~ '[\s\x01-\x1f\\]' then
    return 'Het adres is geen geldige URL.';
  end if;
  if lower(_url) !~ '^https://' then
    return 'Het adres moet https gebruiken.';
  end if;
  autoriteit := substring(_url from '^https://([^/?#]*)');
  if autoriteit like '%@%' then
    return 'Het adres mag geen gebruikersnaam of wachtwoord bevatten.';
  end if;
  if autoriteit like '[%' then
    return 'Het adres moet een domeinnaam gebruiken, geen IP-adres.';
  end if;
  host := lower(split_part(autoriteit, ':', 1));
  poort := nullif(substring(autoriteit from ':(.*)$'), '');
  if poort is not null and (poort !~ '^\d{1,5}$' or poort::int not between 1 and 65535) then
    return 'De poort van het adres is ongeldig.';
  end if;
  if host !~ '^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$' then
    return 'Het adres moet een domeinnaam gebruiken.';
  end if;
  -- A host whose last label is a number is an IPv4 address in some notation (WHATWG URL).
  laatste := split_part(rtrim(host, '.'), '.', -1);
  if laatste ~ '^\d+$' or laatste ~ '^0x[0-9a-f]*$' then
    return 'Het adres moet een domeinnaam gebruiken, geen IP-adres.';
  end if;
  return null;
end
$$;

create function app_hidden.webhook_soorten() returns text[]
language sql stable parallel safe as $$
  select array_remove(app_hidden.keuzes('gebeurtenis_soort'), 'webhook.test')
$$;

-- What the app does (CLI): webhooks of an organisation, by their owner ----------------------

-- A webhook as the owner sees it: never its secret.
create function beheer.webhook_weergave(w app_private.webhooks) returns jsonb
language sql stable as $$
  select jsonb_build_object('id', w.id, 'org_id', w.org_id, 'naam', w.naam, 'url', w.url,
    'gebeurtenissen', to_jsonb(w.gebeurtenissen), 'aan', w.aan, 'opeenvolgende_fouten', w.opeenvolgende_fouten,
    'uitgezet_op', w.uitgezet_op, 'aangemaakt_door', w.aangemaakt_door, 'aangemaakt_op', w.aangemaakt_op)
$$;

create function beheer.webhook(_id uuid) returns app_private.webhooks
language plpgsql stable set search_path = '' as $$
declare w app_private.webhooks;
begin
  select * into w from app_private.webhooks x where x.id = _id;
  if not found then
    perform app_hidden.ongeldig('id', format('Webhook %s bestaat niet.', _id));
  end if;
  return w;
end
$$;

-- Only an owner creates webhooks (interface). Without _user the organisation's only owner
-- acts; with several owners the CLI must say which.
create function beheer.webhook_maken(_org uuid, _user text, _naam text, _url text, _gebeurtenissen text[],
                                     _geheim text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  eigenaar uuid;
  eigenaren uuid[];
  fout text := app_hidden.webhook_adres_fout(_url);
  onbekend text;
  w app_private.webhooks;
begin
  if _user is not null then
    eigenaar := beheer.lid(_org, _user);
    if not exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = eigenaar and l.rol = 'eigenaar') then
      perform app_hidden.fout('rol_mag_niet', 'Alleen een eigenaar van de organisatie maakt webhooks.', 'user');
    end if;
  else
    select array_agg(l.user_id order by l.aangemaakt_op) into eigenaren from app.lidmaatschappen l
    where l.org_id = _org and l.rol = 'eigenaar' and l.actief;
    if eigenaren is null then
      perform app_hidden.fout('rol_mag_niet', 'De organisatie heeft geen eigenaar; alleen een eigenaar maakt webhooks.', 'user');
    elsif cardinality(eigenaren) > 1 then
      perform app_hidden.ongeldig('user', 'De organisatie heeft meerdere eigenaren; zeg met --user welke de webhook maakt.');
    end if;
    eigenaar := eigenaren[1];
  end if;
  if nullif(trim(_naam), '') is null then
    perform app_hidden.ongeldig('naam', 'De naam van de webhook is verplicht.');
  end if;
  if fout is not null then
    perform app_hidden.ongeldig('url', fout);
  end if;
  select s into onbekend from unnest(_gebeurtenissen) s where s is null or s <> all (app_hidden.webhook_soorten()) limit 1;
  if onbekend is not null or coalesce(cardinality(_gebeurtenissen), 0) = 0 then
    perform app_hidden.ongeldig('gebeurtenissen', format('Onbekende gebeurtenis %s; kies uit %s.',
      coalesce(onbekend, '(geen)'), array_to_string(app_hidden.webhook_soorten(), ', ')));
  end if;
  if _geheim is null or length(_geheim) < 32 then
    raise exception 'beheer.webhook_maken: the signing secret is too short';
  end if;
  perform app_hidden.handelen_namens(_org, eigenaar, 'app', 'webhook_maken', jsonb_build_object(
    'naam', trim(_naam), 'host', lower(split_part(substring(_url from '^https://([^/?#]*)'), ':', 1)),
    'gebeurtenissen', to_jsonb(_gebeurtenissen)));
  insert into app_private.webhooks (org_id, naam, url, gebeurtenissen, geheim, aangemaakt_door, aangemaakt_op)
  values (_org, trim(_naam), _url, array(select distinct s from unnest(_gebeurtenissen) s order by s), _geheim,
          eigenaar, app_hidden.nu())
  returning * into w;
  return beheer.webhook_weergave(w);
end
$$;

create function beheer.webhooks(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select beheer.webhook_weergave(w) from app_private.webhooks w where w.org_id = _org order by w.aangemaakt_op, w.id
$$;

-- Switching on resets the count of failed deliveries; messages that fell due while the
-- webhook was off were skipped (status overgeslagen) and can be sent again one by one.
-- _user (here and below): the owner named in the log (the pages); the CLI acts as the app.
create function beheer.webhook_zetten(_id uuid, _aan boolean, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare w app_private.webhooks := beheer.webhook(_id);
begin
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', case when _aan then 'webhook_aan' else 'webhook_uit' end,
                                     jsonb_build_object('id', _id));
  update app_private.webhooks x
  set aan = _aan,
      opeenvolgende_fouten = case when _aan and not x.aan then 0 else x.opeenvolgende_fouten end,
      uitgezet_op = case when _aan then null when x.aan then app_hidden.nu() else x.uitgezet_op end
  where x.org_id = w.org_id and x.id = _id
  returning * into w;
  return beheer.webhook_weergave(w);
end
$$;

-- A webhook.test message for this webhook only.
create function beheer.webhook_testen(_id uuid, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  w app_private.webhooks := beheer.webhook(_id);
  g uuid;
  b uuid;
begin
  if not w.aan then
    perform app_hidden.fout('ongeldige_parameters', 'De webhook staat uit; zet hem eerst aan (koers webhook aan).', 'id');
  end if;
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', 'webhook_testen', jsonb_build_object('id', _id));
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, onderwerp_id)
  values (w.org_id, 'webhook.test', app_hidden.nu(), jsonb_build_object('webhook', jsonb_build_object('id', w.id, 'naam', w.naam)), w.id)
  returning id into g;
  insert into app_private.webhook_berichten (org_id, webhook_id, gebeurtenis_id, aangemaakt_op, volgende_poging_op)
  values (w.org_id, w.id, g, app_hidden.nu(), app_hidden.nu())
  returning id into b;
  return jsonb_build_object('webhook_id', w.id, 'bericht_id', b, 'gebeurtenis_id', g, 'gebeurtenis', 'webhook.test');
end
$$;

-- Sends a message again: the same id, a new round of attempts (each a new delivery).
create function beheer.webhook_opnieuw(_id uuid, _bericht uuid, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  w app_private.webhooks := beheer.webhook(_id);
  b app_private.webhook_berichten;
begin
  if not w.aan then
    perform app_hidden.fout('ongeldige_parameters', 'De webhook staat uit; zet hem eerst aan (koers webhook aan).', 'id');
  end if;
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', 'webhook_opnieuw', jsonb_build_object('id', _id, 'bericht', _bericht));
  update app_private.webhook_berichten x
  set status = 'wacht', mislukte_pogingen = 0, reden = null, volgende_poging_op = app_hidden.nu()
  where x.org_id = w.org_id and x.webhook_id = w.id and x.id = _bericht
  returning * into b;
  if not found then
    perform app_hidden.ongeldig('bericht', format('Bericht %s hoort niet bij deze webhook.', _bericht));
  end if;
  return jsonb_build_object('webhook_id', w.id, 'bericht_id', b.id, 'status', b.status,
                            'volgende_poging_op', b.volgende_poging_op);
end
$$;

-- The delivery log of a webhook, newest first.
create function beheer.webhook_afleveringen(_id uuid, _limiet integer default 50) returns setof jsonb
language plpgsql stable set search_path = '' as $$
declare w app_private.webhooks := beheer.webhook(_id);
begin
  return query
    select jsonb_build_object('tijdstip', a.tijdstip, 'bericht_id', b.id, 'gebeurtenis', g.soort,
      'aflevering_id', a.id, 'poging', a.poging, 'status_code', a.status_code, 'duur_ms', round(a.duur_ms, 1),
      'fout', a.fout, 'onderweg', a.werker_slot is not null, 'bericht_status', b.status)
    from app_private.webhook_berichten b
    join app_private.webhook_afleveringen a on a.org_id = b.org_id and a.bericht_id = b.id
    join app.gebeurtenissen g on g.org_id = b.org_id and g.id = b.gebeurtenis_id
    where b.org_id = w.org_id and b.webhook_id = w.id
    order by a.tijdstip desc, a.poging desc, a.id
    limit greatest(_limiet, 1);
end
$$;

-- Notifications of an organisation's owners (or of one member), newest first.
create function beheer.meldingen(_org uuid, _user text default null, _limiet integer default 50) returns setof jsonb
language plpgsql stable set search_path = '' as $$
declare u uuid := case when _user is not null then beheer.lid(_org, _user) end;
begin
  return query
    select jsonb_build_object('id', m.id, 'tijdstip', m.aangemaakt_op, 'user_id', m.user_id, 'naam', a.naam,
                              'tekst', m.tekst, 'gelezen_op', m.gelezen_op)
    from app.meldingen m
    join app.lidmaatschappen l on l.org_id = m.org_id and l.user_id = m.user_id
    join app.accounts a on a.id = m.user_id
    where m.org_id = _org and (m.user_id = u or (u is null and l.rol = 'eigenaar'))
    order by m.aangemaakt_op desc, m.id
    limit greatest(_limiet, 1);
end
$$;

-- What the worker does -------------------------------------------------------------------------

-- Every worker process holds this advisory lock (key 1265591666 = 'Koer', its slot) on a
-- connection of its own for as long as it lives; a slot nobody holds is a dead worker.
create function beheer.werker_leeft(_slot integer) returns boolean
language sql stable as $$
  select exists (select 1 from pg_catalog.pg_locks l
                 where l.locktype = 'advisory' and l.granted and l.objsubid = 2
                   and l.database = (select d.oid from pg_catalog.pg_database d where d.datname = pg_catalog.current_database())
                   and l.classid = 1265591666::oid and l.objid = _slot::oid)
$$;

-- A worker process registers its graphile-worker pools under its liveness slot before they
-- lock any job.
create function beheer.werker_aanmelden(_pool text, _slot integer) returns void
language sql volatile as $$
  insert into app_private.werkers (pool, slot) values (_pool, _slot)
  on conflict (pool) do update set slot = excluded.slot
$$;

-- A worker process that died (kill -9, a crash, a lost machine): its attempts under way are
-- recorded as interrupted (they count as no failure) and graphile-worker's locks of its pools
-- are released, so its jobs run again at once, here or on another worker, instead of after
-- graphile-worker's four hours. Returns the number of interrupted attempts.
create function beheer.webhook_onderbroken_herstellen() returns integer
language plpgsql volatile set search_path = '' as $$
declare
  pools text[];
  onderbroken integer;
begin
  with dood as (
    select a.org_id, a.id, a.werker_pool from app_private.webhook_afleveringen a
    where a.werker_slot is not null and not beheer.werker_leeft(a.werker_slot)
    for update skip locked
  ), afgesloten as (
    update app_private.webhook_afleveringen a
    set fout = 'onderbroken: de worker stopte tijdens de aflevering', werker_slot = null, werker_pool = null
    from dood where a.org_id = dood.org_id and a.id = dood.id
    returning dood.werker_pool
  )
  select array_agg(distinct werker_pool), count(*) into pools, onderbroken from afgesloten;
  with weg as (
    delete from app_private.werkers w where not beheer.werker_leeft(w.slot) returning w.pool
  )
  select array(select unnest(pools) union select pool from weg) into pools;
  if cardinality(pools) > 0 then
    perform graphile_worker.force_unlock_workers(pools);
  end if;
  return onderbroken;
end
$$;

-- Begins one attempt at a message: records it (so a crash cannot hide it), then returns what
-- to send. Or says why nothing is sent: already delivered, the webhook is off, private now.
-- Synchronous commit is off: an attempt whose record is lost in a database crash is simply
-- made again (a receiver recognises duplicates by the message id).
create function beheer.webhook_aflevering_begin(_org uuid, _bericht uuid, _slot integer, _pool text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  b app_private.webhook_berichten;
  w app_private.webhooks;
  g app.gebeurtenissen;
  onderweg integer;
  aflevering uuid := gen_random_uuid();
begin
  perform set_config('synchronous_commit', 'off', true);
  -- Counting the attempt locks the message: two runs of its job never begin at once.
  update app_private.webhook_berichten x set pogingen = x.pogingen + 1
  where x.org_id = _org and x.id = _bericht and x.status = 'wacht'
  returning * into b;
  if not found then
    return jsonb_build_object('actie', 'niets');
  end if;
  -- An attempt still under way: on a live worker it goes on; one of a dead worker (or of an
  -- earlier run of this job in this process that could not record its result) is over.
  select a.werker_slot into onderweg from app_private.webhook_afleveringen a
  where a.org_id = _org and a.bericht_id = _bericht and a.werker_slot is not null
  order by a.werker_slot = _slot or not beheer.werker_leeft(a.werker_slot)
  limit 1;
  if onderweg is not null then
    if onderweg <> _slot and beheer.werker_leeft(onderweg) then
      update app_private.webhook_berichten x set pogingen = x.pogingen - 1 where x.org_id = _org and x.id = _bericht;
      return jsonb_build_object('actie', 'bezig');
    end if;
    update app_private.webhook_afleveringen a
    set fout = 'onderbroken: de worker stopte tijdens de aflevering', werker_slot = null, werker_pool = null
    where a.org_id = _org and a.bericht_id = _bericht and a.werker_slot is not null;
  end if;

  select * into w from app_private.webhooks x where x.org_id = _org and x.id = b.webhook_id;
  select * into g from app.gebeurtenissen x where x.org_id = _org and x.id = b.gebeurtenis_id;
  if not w.aan or app_hidden.webhook_besloten(g) then
    update app_private.webhook_berichten x
    set status = 'overgeslagen', volgende_poging_op = null, pogingen = x.pogingen - 1,
        reden = case when not w.aan then 'de webhook stond uit' else 'taak in een besloten project' end
    where x.org_id = _org and x.id = _bericht;
    return jsonb_build_object('actie', 'overgeslagen');
  end if;
  insert into app_private.webhook_afleveringen (org_id, id, bericht_id, tijdstip, poging, werker_slot, werker_pool)
  values (_org, aflevering, _bericht, nu, b.pogingen, _slot, _pool);
  return jsonb_build_object('actie', 'versturen', 'aflevering_id', aflevering, 'bericht_id', b.id,
    'webhook_id', w.id, 'url', w.url, 'geheim', w.geheim, 'gebeurtenis', g.soort,
    't', floor(extract(epoch from nu))::bigint,
    'tijdstip', to_char(g.tijdstip at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'organisatie_id', g.org_id, 'gegevens', app_hidden.webhook_gegevens(g.soort, g.gegevens));
end
$$;

-- The delays between the attempts of a message (interface: retries).
create function app_hidden.webhook_wachttijden() returns interval[]
language sql immutable parallel safe as $$
  select array[interval '1 minute', interval '5 minutes', interval '30 minutes', interval '2 hours', interval '12 hours']
$$;

-- Records the result of an attempt. Success: delivered, and the webhook's count of failed
-- deliveries in a row goes back to 0. Failure: the count goes up (at fifteen the webhook is
-- switched off and its organisation's owners are notified) and the next attempt is planned,
-- or, after the last retry, the message has failed.
create function beheer.webhook_aflevering_einde(_org uuid, _aflevering uuid, _status integer, _fout text,
                                                _duur_ms numeric) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  gelukt boolean := _fout is null and _status between 200 and 299;
  wachttijden interval[] := app_hidden.webhook_wachttijden();
  bericht uuid;
  b app_private.webhook_berichten;
  w app_private.webhooks;
begin
  perform set_config('synchronous_commit', 'off', true);
  update app_private.webhook_afleveringen x
  set status_code = _status, fout = left(_fout, 500), duur_ms = _duur_ms, werker_slot = null, werker_pool = null
  where x.org_id = _org and x.id = _aflevering
  returning x.bericht_id into bericht;
  if gelukt then
    update app_private.webhook_berichten x
    set status = 'afgeleverd', afgeleverd_op = nu, volgende_poging_op = null, mislukte_pogingen = 0
    where x.org_id = _org and x.id = bericht and x.status = 'wacht'
    returning * into b;
    if found then
      update app_private.webhooks x set opeenvolgende_fouten = 0
      where x.org_id = _org and x.id = b.webhook_id and x.opeenvolgende_fouten <> 0;
    end if;
    return jsonb_build_object('gelukt', true, 'uitgezet', false);
  end if;

  -- The next attempt after the delay for this failure, or none after the last retry.
  update app_private.webhook_berichten x
  set mislukte_pogingen = x.mislukte_pogingen + 1,
      volgende_poging_op = nu + wachttijden[x.mislukte_pogingen + 1],
      status = case when x.mislukte_pogingen < cardinality(wachttijden) then 'wacht' else 'mislukt' end
  where x.org_id = _org and x.id = bericht and x.status = 'wacht'
  returning * into b;
  if not found then
    return jsonb_build_object('gelukt', false, 'uitgezet', false);
  end if;
  update app_private.webhooks x set opeenvolgende_fouten = x.opeenvolgende_fouten + 1
  where x.org_id = _org and x.id = b.webhook_id
  returning * into w;
  if w.aan and w.opeenvolgende_fouten >= 15 then
    update app_private.webhooks x set aan = false, uitgezet_op = nu where x.org_id = _org and x.id = w.id;
    perform app_hidden.handelen_namens(_org, null, 'app', 'webhook_uitgezet', jsonb_build_object(
      'id', w.id, 'naam', w.naam, 'opeenvolgende_fouten', w.opeenvolgende_fouten));
    insert into app.meldingen (org_id, user_id, tekst, aangemaakt_op)
    select _org, l.user_id, format(
      'Webhook "%s" is uitgezet na %s mislukte afleveringen op rij (laatste: %s). Zet hem weer aan met: koers webhook aan --id %s',
      w.naam, w.opeenvolgende_fouten, coalesce(left(_fout, 200), 'HTTP ' || _status), w.id), nu
    from app.lidmaatschappen l where l.org_id = _org and l.rol = 'eigenaar' and l.actief;
  end if;
  return jsonb_build_object('gelukt', false, 'uitgezet', w.aan and w.opeenvolgende_fouten >= 15, 'webhook_id', w.id,
                            'opeenvolgende_fouten', w.opeenvolgende_fouten, 'volgende_poging_op', b.volgende_poging_op);
end
$$;

-- The same for the attempts that begin or end at the same moment in one worker process, in one
-- statement (a burst costs a round trip per batch, not two per message). Items are taken in
-- the order of their webhook, so two batches never wait for each other's locks in a circle;
-- the results come back in the order of the items.
create function beheer.webhook_afleveringen_begin(_items jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  resultaten jsonb[] := array_fill(null::jsonb, array[jsonb_array_length(_items)]);
  i record;
begin
  for i in select x.value, x.n from jsonb_array_elements(_items) with ordinality x(value, n) order by x.value ->> 'bericht' loop
    resultaten[i.n] := beheer.webhook_aflevering_begin((i.value ->> 'org')::uuid, (i.value ->> 'bericht')::uuid,
                                                       (i.value ->> 'slot')::integer, i.value ->> 'pool');
  end loop;
  return to_jsonb(resultaten);
end
$$;

create function beheer.webhook_afleveringen_einde(_items jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  resultaten jsonb[] := array_fill(null::jsonb, array[jsonb_array_length(_items)]);
  i record;
begin
  for i in select x.value, x.n from jsonb_array_elements(_items) with ordinality x(value, n)
           order by x.value ->> 'webhook', x.value ->> 'aflevering' loop
    resultaten[i.n] := beheer.webhook_aflevering_einde((i.value ->> 'org')::uuid, (i.value ->> 'aflevering')::uuid,
      (i.value ->> 'status')::integer, i.value ->> 'fout', (i.value ->> 'duur_ms')::numeric);
  end loop;
  return to_jsonb(resultaten);
end
$$;

-- Retention of the delivery log: attempts older than _dagen days, and finished messages of
-- that age without attempts left, in batches of _batch rows.
create function beheer.webhook_log_inkorten(_dagen integer, _batch integer default 5000) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  grens timestamptz := app_hidden.nu() - make_interval(days => _dagen);
  afleveringen_weg integer;
  berichten_weg integer;
begin
  delete from app_private.webhook_afleveringen a where a.ctid = any (array(
    select x.ctid from app_private.webhook_afleveringen x
    where x.tijdstip < grens and x.werker_slot is null limit _batch));
  get diagnostics afleveringen_weg = row_count;
  delete from app_private.webhook_berichten b where b.ctid = any (array(
    select x.ctid from app_private.webhook_berichten x
    where x.aangemaakt_op < grens and x.status <> 'wacht'
      and not exists (select 1 from app_private.webhook_afleveringen a where a.org_id = x.org_id and a.bericht_id = x.id)
    limit _batch));
  get diagnostics berichten_weg = row_count;
  return jsonb_build_object('webhook_afleveringen', afleveringen_weg, 'webhook_berichten', berichten_weg);
end
$$;
