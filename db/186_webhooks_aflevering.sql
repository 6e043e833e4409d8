-- Webhooks (docs/webhooks.md), what the worker does: the task src/tasks/deliver_webhook.ts begins
-- an attempt, POSTs and records the result (the next attempt, or the switch-off after fifteen
-- failed deliveries in a row); a dead worker's attempts are closed; the delivery log is trimmed
-- (src/tasks/trim_webhook_log.ts). Messages and their jobs are made in 180_webhooks.sql.

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

-- Retention of the delivery log: attempts older than _dagen days, finished messages of that age
-- without attempts left, and events of that age that no message refers to (an event exists for
-- the messages made from it when it was recorded; one no webhook wanted has none), in batches
-- of _batch rows.
create function beheer.webhook_log_inkorten(_dagen integer, _batch integer default 5000) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  grens timestamptz := app_hidden.nu() - make_interval(days => _dagen);
  afleveringen_weg integer;
  berichten_weg integer;
  gebeurtenissen_weg integer;
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
  delete from app.gebeurtenissen g where g.ctid = any (array(
    select x.ctid from app.gebeurtenissen x
    where x.tijdstip < grens
      and not exists (select 1 from app_private.webhook_berichten b where b.org_id = x.org_id and b.gebeurtenis_id = x.id)
    limit _batch));
  get diagnostics gebeurtenissen_weg = row_count;
  return jsonb_build_object('webhook_afleveringen', afleveringen_weg, 'webhook_berichten', berichten_weg,
                            'gebeurtenissen', gebeurtenissen_weg);
end
$$;
