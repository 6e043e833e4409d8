-- The one statement every door call costs: api.aanroep resolves the caller, counts the call
-- against the rate limit, checks the three conditions, runs the operation under RLS as the door
-- role, applies the two-step rule for writes, maps errors to fout codes and writes the call-log
-- row (once, at the end).
--
-- A write operation's function performs the write and returns
--   {"voorstel": {<field>: {"nu": .., "wordt": ..}}, "resultaat": {...}}.
-- The first call runs it inside a subtransaction that is always rolled back, so "nothing
-- changes" is enforced by the database, not by each operation's care. The second call runs it
-- again for real and only commits when the proposal it computes is the one the code was
-- issued for: the write is exactly what the user agreed to.
--
-- Two SQLSTATEs of our own: KOERS is a refusal (app_hidden.fout); KPROE ("proef", trial) is
-- raised only to roll the trial run of a first call back, and never leaves this file.

-- The HTTP status of each fout code (app.foutcodes) and the fout code of each built-in SQLSTATE
-- (app.sqlstate_fouten) as constants, made when db/ is applied (see operaties_vast): a refusal
-- or an error reads no table.
select app_hidden.constanten_maken('app_hidden.fout_status', '_code', 'integer',
  (select jsonb_object_agg(f.code, f.status) from app.foutcodes f));
select app_hidden.constanten_maken('app_hidden.sqlstate_fout', '_sqlstate', 'text',
  (select jsonb_object_agg(f.sqlstate, f.code) from app.sqlstate_fouten f));

-- Resolves the caller with the door's resolver and decides whether the call may run: the rate
-- limit first, then in the interface's order address, key, organisation, door on, section
-- released, role allowed, read only, input (app_hidden.invoer_controleren). Records the call
-- in this backend's caller row (app_hidden.bellers): for an admitted call that row is the
-- caller the operation runs as; for any call it holds what its call-log row will say, so
-- aanroep_einde writes that row from facts the door cannot forge. Parameters are stored as
-- checked, or the raw input of a refused call cut short; either way redacted.
--
-- The rate limit counts every call: per key when the key is valid, else per client address
-- (_adres). Limits come from the session (koers.limiet, koers.limiet_adres, koers.limiet_venster
-- in seconds: the door's connection settings); without them nothing is counted. Counting is one
-- statement on a row of this backend's own, so calls at once never wait for each other, and the
-- count of a window is the sum over the backends of every instance on this database.
--
-- Three statements, each with a small plan (the executor sets every node of a plan up anew in
-- each transaction, so a call pays for the size of its plans, not only for the rows they read):
-- the credential with the organisation's switches (app_hidden.org_toestand), the count, the
-- caller row. The operation's facts are one key of a constant (app_hidden.operatie_vast). For an
-- operation that reads tasks or projects the caller row also holds the private projects hidden
-- from the caller, worked out here once instead of in each policy that needs them
-- (app_hidden.verborgen_projecten, db/060_policies.sql).
--
-- Each statement keeps one plan for the connection (plan_cache_mode): PL/pgSQL otherwise plans a
-- statement for its values five times, then keeps the plan for any values only if the planner
-- prices it no higher than those. Depending on the statistics of the moment it priced the
-- count's (the sum over the other backends' rows of an unknown window) up to four times above
-- the same plan made for one window, and the count was then planned anew at every call: about
-- 80 us of a call's PostgreSQL CPU on one connection, for the same plan. The statements here,
-- and in the functions it calls, read their rows by key: their plans do not depend on the values.
create function app_hidden.aanroep_begin(_door text, _sleutel bytea, _operatie text, _parameters jsonb,
  _voorfout jsonb, _verzoek_id text, _adres text, _begonnen timestamptz,
  out aanroep_id uuid, out operatie text, out schrijft boolean, out twee_stappen boolean,
  out status integer, out fout jsonb, out invoer jsonb, out tempo jsonb)
language plpgsql volatile security definer set search_path = '' set plan_cache_mode = force_generic_plan as $$
declare
  o jsonb := app_hidden.operatie_vast(_operatie);
  k record;
  gecontroleerd record;
  weigering text;
  bericht text;
  parameter text;
  gevraagd text := case when jsonb_typeof(_parameters) = 'object' then lower(_parameters ->> 'org_id') end;
  gevraagd_id uuid := case when gevraagd ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                           then gevraagd::uuid end;
  venster integer := coalesce(nullif(current_setting('koers.limiet_venster', true), '')::integer, 60);
  -- Fixed windows: the current one ends at the next multiple of its length.
  einde bigint := (floor(extract(epoch from _begonnen) / venster)::bigint + 1) * venster;
  geldig boolean;
  limiet integer;
  geteld integer;
  nieuw_venster boolean := false;
  recht text;
  bewaard jsonb;
  wijzer text;
begin
  -- An operation of the AI door only, asked at another door, is an unknown address (like one
  -- whose function is not built yet: operatie_vast does not know it).
  if (o ->> 'alleen_mcp')::boolean and _door <> 'mcp' then
    o := null;
  end if;
  -- The credential (the door's resolver) with what its organisation switched.
  if _door = 'rest' then
    select c.org_id, c.user_id, c.rol, c.sleutel_id, c.ingetrokken, t.koppelingen -> _door as koppeling,
           t.secties, t.modules, t.rechten -> c.rol as eigen_rechten, (t.secties_per_rol ->> c.rol)::text[] as secties_rol
      into k
    from app_hidden.beller_rest(_sleutel, gevraagd_id) c left join app_hidden.org_toestand t on t.org = c.org_id;
  else
    select c.org_id, c.user_id, c.rol, c.sleutel_id, c.ingetrokken, t.koppelingen -> _door as koppeling,
           t.secties, t.modules, t.rechten -> c.rol as eigen_rechten, (t.secties_per_rol ->> c.rol)::text[] as secties_rol
      into k
    from app_hidden.beller_mcp(_sleutel, gevraagd_id) c left join app_hidden.org_toestand t on t.org = c.org_id
    where _door = 'mcp';
  end if;
  geldig := k.org_id is not null and not k.ingetrokken;
  limiet := nullif(current_setting(case when geldig then 'koers.limiet' else 'koers.limiet_adres' end, true), '')::integer;
  recht := coalesce(k.eigen_rechten ->> _operatie, o -> 'rechten' ->> k.rol, 'geen');
  schrijft := (o ->> 'schrijft')::boolean;
  twee_stappen := (o ->> 'twee_stappen')::boolean;
  operatie := case when o is not null then _operatie else left(app_hidden.redigeren(_operatie), 200) end;

  -- Every condition but the rate limit, whose count comes with the caller row below.
  if _voorfout ->> 'code' in ('ongeldig_verzoek', 'headers_te_groot', 'methode_niet_toegestaan') then
    -- The request itself is unusable (malformed HTTP or URL, a method the address does not
    -- take): like an unknown address, refused before the key.
    weigering := _voorfout ->> 'code';
    bericht := coalesce(_voorfout ->> 'bericht', 'Ongeldig verzoek.');
    parameter := _voorfout ->> 'parameter';
  elsif o is null or _voorfout ->> 'code' = 'onbekend_endpoint' then
    weigering := 'onbekend_endpoint';
    bericht := 'Dit adres bestaat niet. De index op /api/v1 noemt alle endpoints.';
  elsif k.org_id is null then
    weigering := 'geen_sleutel';
    bericht := 'Stuur een geldige API-sleutel mee: Authorization: Bearer <sleutel>.';
  elsif k.ingetrokken then
    weigering := 'sleutel_ingetrokken';
    bericht := 'Deze API-sleutel is ingetrokken.';
  elsif (o ->> 'vereist_org')::boolean and gevraagd_id is not null and gevraagd_id <> k.org_id then
    weigering := 'verkeerde_organisatie';
    bericht := 'Deze sleutel hoort bij een andere organisatie dan org_id.';
    parameter := 'org_id';
  elsif not coalesce((k.koppeling ->> 'aan')::boolean, false) then
    weigering := 'koppeling_uit';
    bericht := format('De koppeling staat uit voor deze organisatie. Een eigenaar zet haar aan op %s.',
                      app_hidden.app_adres('/app/integraties'));
  elsif o ->> 'sectie' is not null and not coalesce((k.secties ->> (o ->> 'sectie'))::boolean, false) then
    weigering := 'onderdeel_uit';
    bericht := format('Het onderdeel %s is niet vrijgegeven. Een eigenaar geeft het vrij op %s.', o ->> 'sectie',
                      app_hidden.app_adres('/app/integraties'));
  elsif not coalesce((k.modules ->> (o ->> 'module'))::boolean, true) or recht = 'geen' then
    weigering := 'rol_mag_niet';
    bericht := format('Met de rol %s mag je %s niet gebruiken.', k.rol, _operatie);
  elsif schrijft and (k.koppeling ->> 'alleen_lezen')::boolean then
    weigering := 'alleen_lezen';
    bericht := 'Deze koppeling staat op alleen lezen; schrijven kan niet.';
  elsif _voorfout is not null then
    weigering := coalesce(_voorfout ->> 'code', 'ongeldige_parameters');
    bericht := coalesce(_voorfout ->> 'bericht', 'Ongeldige invoer.');
    parameter := _voorfout ->> 'parameter';
  elsif _parameters = '{}' and (o ->> 'parameters')::integer = 0 then
    invoer := '{}';  -- nothing given, nothing asked
  else
    gecontroleerd := app_hidden.invoer_controleren(_operatie, _parameters);
    if gecontroleerd.fout is not null then
      weigering := 'ongeldige_parameters';
      bericht := gecontroleerd.fout ->> 'bericht';
      parameter := gecontroleerd.fout ->> 'parameter';
    end if;
    invoer := gecontroleerd.invoer;
  end if;

  -- The rate limit: one statement on a row of this backend's own for this window. A call over
  -- the limit is refused whatever else was found. The row is updated, and made (with a count of
  -- 0) by the first call of this backend with this key or address in the window: an update is a
  -- plain write, where an upsert (INSERT .. ON CONFLICT) first probes the key, then locks the
  -- row it finds. A row per window, not one per backend for good: while a transaction holds back
  -- the horizon no old version can be pruned, and the count reads every version of its rows, so
  -- it reads those of this window only (see app_hidden.bellers).
  if limiet is not null then
    loop
      with mijn as (
        update app_private.tempo t
        set aantal = t.aantal + 1
        where t.wie = case when geldig then 'sleutel:' || k.sleutel_id else 'adres:' || coalesce(_adres, '') end
          and t.tot = einde and t.pid = pg_backend_pid()
        returning t.wie, t.aantal)
      select m.aantal + coalesce((select sum(x.aantal) from app_private.tempo x
                                  where x.wie = m.wie and x.tot = einde and x.pid <> pg_backend_pid()), 0)
        into geteld from mijn m;
      exit when found;
      insert into app_private.tempo (wie, pid, tot, aantal)
      values (case when geldig then 'sleutel:' || k.sleutel_id else 'adres:' || coalesce(_adres, '') end, pg_backend_pid(), einde, 0)
      on conflict (wie, tot, pid) do nothing;
      nieuw_venster := true;
    end loop;
    tempo := jsonb_build_object('beleid', case when geldig then 'sleutel' else 'adres' end,
      'q', limiet, 'w', venster, 'r', greatest(limiet - geteld, 0), 't', ceil(einde - extract(epoch from _begonnen))::integer);
    -- Counts of windows that have ended, now and then (one in a hundred of the rows made for a
    -- new window). Rows another call holds (its own count, being updated, or a cleanup of its
    -- own) are left for the next time: waiting for them could deadlock two calls that clean up
    -- at once.
    if nieuw_venster and random() < 0.01 then
      delete from app_private.tempo t
      where (t.wie, t.tot, t.pid) in (select x.wie, x.tot, x.pid from app_private.tempo x
                                      where x.tot < extract(epoch from _begonnen) for update skip locked);
    end if;
    if geteld > limiet then
      weigering := 'te_veel_verzoeken';
      bericht := format('Te veel verzoeken: hoogstens %s per %s seconden. Probeer het over %s seconden opnieuw.',
                        limiet, venster, tempo ->> 't');
      parameter := null;
    end if;
  end if;

  if weigering is not null then
    status := coalesce(app_hidden.fout_status(weigering), 500);
    fout := jsonb_strip_nulls(jsonb_build_object('code', weigering, 'bericht', bericht, 'parameter', parameter));
    invoer := null;
    bewaard := coalesce(app_hidden.redigeren(_parameters), '{}');
  else
    bewaard := coalesce(app_hidden.redigeren(invoer, 16384), '{}');
  end if;
  -- The caller row: the backend's row of this tenth of a second (app_hidden.bellers), updated: a
  -- plain write, where an upsert would first probe the key, then lock the row. The first call in
  -- a tenth makes the row (blank, not admitted) and removes the one before it by its whole key
  -- (app_hidden.bellers_vorige_weg).
  aanroep_id := app_hidden.tijd_uuid();  -- the call-log row's id, time-ordered (db/020_helpers.sql)
  loop
    update app_hidden.bellers b
    set xid = pg_current_xact_id(), sinds = now(), wijzer = coalesce(k.org_id::text, '') || '/' || aanroep_begin.aanroep_id,
        toegelaten = weigering is null,
        aanroep_id = aanroep_begin.aanroep_id, org = k.org_id, user_id = k.user_id, rol = k.rol, sleutel_id = k.sleutel_id,
        door = _door, operatie = aanroep_begin.operatie,
        secties = case when weigering is null then coalesce(k.secties_rol, '{}') end,
        verborgen = case when weigering is null and app_hidden.leest_projecten(_operatie)
                         then app_hidden.verborgen_projecten_van(k.org_id, k.user_id) end,
        parameters = bewaard, status = aanroep_begin.status, fout_code = weigering, verzoek_id = _verzoek_id
    where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak()
    returning b.wijzer into wijzer;
    exit when found;
    insert into app_hidden.bellers (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, door, operatie, parameters)
    values (pg_backend_pid(), app_hidden.beller_vak(), pg_current_xact_id(), now(), '', false, aanroep_id, _door, '', '{}')
    on conflict (pid, vak) do nothing;
    perform app_hidden.bellers_vorige_weg();
  end loop;

  if weigering is null then
    if not schrijft or (twee_stappen and invoer ->> 'bevestigcode' is null) then
      -- A read, or the first call of a write (its proposal), changes nothing: its log row and
      -- code may be lost in a crash (the client asks again), so it need not wait for the WAL flush.
      bericht := set_config('synchronous_commit', 'off', true);
    end if;
    -- The caller of the admitted call: koers.aanroep points at this backend's row.
    bericht := set_config('koers.aanroep', wijzer, true);
  end if;
end
$$;

-- Writes the call-log row of this backend's call from its caller row (in the organisation's
-- log, or in aanroepen_zonder_org), with the outcome of an admitted call. Only the row of this
-- very call, and only once: the log cannot be forged or rewritten from the door. "Once" is a
-- look-up of the row, not ON CONFLICT: only this backend writes rows with this call's id, and
-- a speculative insertion costs a lock and a WAL record of its own for every call.
create function app_hidden.aanroep_einde(_aanroep_id uuid, _status integer, _fout_code text, _fout_detail text,
                                         _begonnen timestamptz, _pogingen integer default null)
returns boolean language plpgsql volatile security definer set search_path = '' as $$
declare duur numeric := round(extract(epoch from clock_timestamp() - _begonnen) * 1000, 3);
begin
  insert into app_private.aanroepen (org_id, id, xid, tijdstip, door, operatie, user_id, rol, sleutel_id, parameters,
                                     status, fout_code, fout_detail, duur_ms, verzoek_id, pogingen)
  select b.org, b.aanroep_id, b.xid, _begonnen, b.door, b.operatie, b.user_id, b.rol, b.sleutel_id, b.parameters,
         case when b.toegelaten then _status else b.status end, case when b.toegelaten then _fout_code else b.fout_code end,
         case when b.toegelaten then app_hidden.redigeren(_fout_detail) end, duur, b.verzoek_id,
         case when b.toegelaten then _pogingen end
  from app_hidden.bellers b
  where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak() and b.sinds = now() and b.xid = pg_current_xact_id()
    and b.aanroep_id = _aanroep_id and b.org is not null
    and not exists (select 1 from app_private.aanroepen a where a.org_id = b.org and a.id = b.aanroep_id);
  if found then return true; end if;
  insert into app_private.aanroepen_zonder_org (id, tijdstip, door, operatie, parameters, status, fout_code, duur_ms, verzoek_id)
  select b.aanroep_id, _begonnen, b.door, b.operatie, b.parameters, b.status, b.fout_code, duur, b.verzoek_id
  from app_hidden.bellers b
  where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak() and b.sinds = now() and b.xid = pg_current_xact_id()
    and b.aanroep_id = _aanroep_id and b.org is null
  on conflict do nothing;
  return found;
end
$$;

-- Runs an operation by name: made here without branches, and with one per registered operation
-- by db/995_uitvoeren.sql once every operation's function exists, so a call's operation is a
-- plain function call with a cached plan, not a statement parsed and planned anew (EXECUTE) on
-- every call. An operation not yet built is refused by aanroep_begin before it gets here.
create function app_hidden.onbekende_operatie(_operatie text) returns jsonb
language plpgsql volatile set search_path = '' as $$
begin
  raise exception 'onbekende operatie %', _operatie using errcode = '42883';
end
$$;

create function app_hidden.uitvoeren(_operatie text, p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
begin
  return app_hidden.onbekende_operatie(_operatie);
end
$$;

-- The body of uitvoeren for the names _namen[_van.._tot] (sorted): IF statements that halve the
-- range until one name is left. Used by db/995_uitvoeren.sql, then dropped.
create function app_hidden.uitvoeren_boom(_namen text[], _van integer, _tot integer, _inspringen text) returns text
language plpgsql immutable set search_path = '' as $$
declare midden integer := (_van + _tot + 1) / 2;
begin
  if _tot < _van then return ''; end if;
  if _van = _tot then
    return format(E'%sif _operatie = %L then return api.%I(p); end if;\n', _inspringen, _namen[_van], _namen[_van]);
  end if;
  return format(E'%sif _operatie < %L then\n%s%selse\n%s%send if;\n', _inspringen, _namen[midden],
                app_hidden.uitvoeren_boom(_namen, _van, midden - 1, _inspringen || '  '), _inspringen,
                app_hidden.uitvoeren_boom(_namen, midden, _tot, _inspringen || '  '), _inspringen);
end
$$;

-- Codes belong to the running call's caller (app_hidden.beller), never to an argument.
create function app_hidden.bevestiger() returns app_hidden.aanroep_start
language plpgsql stable set search_path = '' as $$
declare s app_hidden.aanroep_start := app_hidden.beller();
begin
  if s.org_id is null then raise exception 'bevestigcodes need a running call' using errcode = '42501'; end if;
  return s;
end
$$;

create function app_hidden.bevestigcode_maken(_parameters jsonb, _voorstel jsonb)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  s app_hidden.aanroep_start := app_hidden.bevestiger();
  -- No 0/O or 1/I: the code is meant to be read aloud. 32 symbols, so byte % 32 is uniform.
  alfabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  willekeurig bytea;
  code text;
  tot timestamptz := app_hidden.nu() + interval '15 minutes';
begin
  loop
    willekeurig := uuid_send(gen_random_uuid());  -- bytes 0..5 of a v4 uuid are random
    code := '';
    for i in 0..5 loop
      code := code || substr(alfabet, get_byte(willekeurig, i) % 32 + 1, 1)
                   || case when i = 2 then '-' else '' end;
    end loop;
    insert into app_private.bevestigcodes
      (org_id, code, user_id, door, operatie, parameters, voorstel, aangemaakt_op, geldig_tot)
    values (s.org_id, code, s.user_id, s.door, s.operatie, _parameters, _voorstel,
            app_hidden.nu(), tot)
    on conflict do nothing;
    exit when found;
  end loop;
  return jsonb_build_object('voorstel', _voorstel, 'bevestigcode', code,
    'geldig_tot', to_char(tot at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
end
$$;

-- Takes in a code for the second call. Returns {"gebruikt": true, "resultaat": ..} when the
-- code was already confirmed (the first result again, nothing written twice), else
-- {"gebruikt": false, "voorstel": ..}. Locks the code so two confirmations cannot race.
create function app_hidden.bevestigcode_innemen(_parameters jsonb, _code text)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  s app_hidden.aanroep_start := app_hidden.bevestiger();
  c app_private.bevestigcodes;
begin
  select * into c from app_private.bevestigcodes b
  where b.org_id = s.org_id and b.code = upper(trim(_code))
  for update;
  if not found or c.user_id <> s.user_id or c.door <> s.door or c.operatie <> s.operatie then
    perform app_hidden.ongeldig('bevestigcode',
      'Deze bevestigcode is onbekend. Doe eerst de aanroep zonder bevestigcode voor een voorstel.');
  end if;
  if c.parameters <> _parameters then
    perform app_hidden.ongeldig('bevestigcode',
      'De invoer wijkt af van het voorstel bij deze bevestigcode. Stuur dezelfde invoer, of vraag een nieuw voorstel aan.');
  end if;
  if c.gebruikt_op is not null then
    return jsonb_build_object('gebruikt', true, 'resultaat', c.resultaat);
  end if;
  if c.geldig_tot <= app_hidden.nu() then
    perform app_hidden.ongeldig('bevestigcode',
      'Deze bevestigcode is verlopen. Vraag een nieuw voorstel aan.');
  end if;
  return jsonb_build_object('gebruikt', false, 'voorstel', c.voorstel);
end
$$;

create function app_hidden.bevestigcode_gebruikt(_code text, _resultaat jsonb)
returns void language plpgsql volatile security definer set search_path = '' as $$
declare s app_hidden.aanroep_start := app_hidden.bevestiger();
begin
  update app_private.bevestigcodes b
  set gebruikt_op = app_hidden.nu(), resultaat = _resultaat
  where b.org_id = s.org_id and b.code = upper(trim(_code)) and b.user_id = s.user_id;
end
$$;

-- How often a call's operation is tried when PostgreSQL breaks it off for a conflict with another
-- transaction (a deadlock, 40P01; a serialization failure, 40001). The operation's block is a
-- subtransaction: breaking it off undoes all it did, the other transaction goes on, and the
-- next try starts afresh (under READ COMMITTED with a new snapshot). After the last try the
-- answer is 503 tijdelijk_onbeschikbaar, never 500; the log row counts the tries (pogingen).
create function app_hidden.max_pogingen() returns integer language sql immutable as $$ select 3 $$;

-- The one statement of a door call. verzoek_id: the request id the door answers with;
-- adres: the client's address (the rate limit of calls without a valid key). The answer is
-- {"status": .., "body": .., "tempo": {beleid, q, w, r, t} when a rate limit applies}.
create function api.aanroep(door text, sleutel bytea, operatie text, parameters jsonb,
                            voorfout jsonb default null, verzoek_id text default null, adres text default null)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  begonnen timestamptz := clock_timestamp();
  s record;
  invoer jsonb;
  code text;
  uitvoer jsonb;
  antwoord jsonb;
  ingenomen jsonb;
  status integer := 200;
  fout jsonb;
  detail text;
  st text; bericht text; fdetail text; hint text; beperking text;
  gelogd boolean;
  pogingen integer := 0;
begin
  s := app_hidden.aanroep_begin(door, sleutel, operatie, parameters, voorfout, verzoek_id, adres, begonnen);
  if s.fout is not null then
    status := s.status;
    fout := s.fout;
  else
    invoer := s.invoer - 'bevestigcode';
    code := s.invoer ->> 'bevestigcode';
    <<poging>>
    loop
      pogingen := pogingen + 1;
      begin
        if not s.schrijft then
          antwoord := app_hidden.uitvoeren(s.operatie, invoer);
        elsif not s.twee_stappen then
          -- A write that stores a proposal itself (strategie_bijwerken) runs at once.
          antwoord := app_hidden.uitvoeren(s.operatie, invoer) -> 'resultaat';
        elsif code is null then
          begin
            -- koers.proef says "this is the trial run": an operation may leave out what only its
            -- result needs, and the triggers of app.taken skip the history, events and audit
            -- that the rollback would throw away. Set inside the subtransaction, so its rollback
            -- resets it; a write made under it anywhere else fails at commit (_950_proef,
            -- db/163_taken_history_events.sql), so a forged one saves nobody anything.
            perform set_config('koers.proef', 'ja', true);
            uitvoer := app_hidden.uitvoeren(s.operatie, invoer);
            raise exception using errcode = 'KPROE';  -- roll the trial write back
          exception when sqlstate 'KPROE' then
            null;
          end;
          antwoord := app_hidden.bevestigcode_maken(invoer, uitvoer -> 'voorstel');
        else
          ingenomen := app_hidden.bevestigcode_innemen(invoer, code);
          if (ingenomen ->> 'gebruikt')::boolean then
            antwoord := ingenomen -> 'resultaat';
          else
            -- The real run: never under a trial flag the session may have set.
            perform set_config('koers.proef', '', true);
            uitvoer := app_hidden.uitvoeren(s.operatie, invoer);
            if uitvoer -> 'voorstel' is distinct from ingenomen -> 'voorstel' then
              perform app_hidden.ongeldig('bevestigcode',
                'De gegevens zijn veranderd sinds het voorstel. Vraag een nieuw voorstel aan.');
            end if;
            antwoord := jsonb_build_object('uitgevoerd', true) || coalesce(uitvoer -> 'resultaat', '{}');
            perform app_hidden.bevestigcode_gebruikt(code, antwoord);
          end if;
        end if;
        exit poging;
      exception
        when deadlock_detected or serialization_failure then
          get stacked diagnostics st = returned_sqlstate, bericht = message_text;
          detail := st || ': ' || bericht;
          if pogingen >= app_hidden.max_pogingen() then
            fout := jsonb_build_object('code', 'tijdelijk_onbeschikbaar',
              'bericht', 'Het lukte even niet door drukte op dezelfde gegevens; er is niets gewijzigd. Probeer het zo opnieuw.');
            status := 503;
            antwoord := null;
            exit poging;
          end if;
          -- A short pause (10 to 50 ms, longer after each try), different per call, so the
          -- other transaction can finish first and two calls do not meet again at once.
          perform pg_sleep((0.01 + random() * 0.04) * pogingen);
        when others then
          get stacked diagnostics st = returned_sqlstate, bericht = message_text,
                                  fdetail = pg_exception_detail, hint = pg_exception_hint, beperking = constraint_name;
          if st = 'KOERS' then
            fout := jsonb_strip_nulls(jsonb_build_object('code', fdetail, 'bericht', bericht,
                                                         'parameter', nullif(hint, '')));
          else
            fout := jsonb_build_object('code',
              coalesce(app_hidden.sqlstate_fout(st), 'interne_fout'));
            fout := fout || jsonb_build_object('bericht', case fout ->> 'code'
              when 'interne_fout' then 'Er ging iets mis aan onze kant. Probeer het later opnieuw.'
              when 'rol_mag_niet' then 'Met jouw rol mag dit niet.'
              when 'alleen_lezen' then 'Deze koppeling staat op alleen lezen; schrijven kan niet.'
              else 'De invoer past niet: een verwijzing of waarde bestaat niet of is ongeldig.' end);
            -- A broken rule of the data model answers with its parameter and message.
            fout := fout || coalesce(jsonb_strip_nulls(to_jsonb(app_hidden.regel(case when st = '23514' then beperking end))), '{}');
            detail := st || ': ' || bericht;
          end if;
          status := coalesce(app_hidden.fout_status(fout ->> 'code'), 500);
          antwoord := null;
          exit poging;
      end;
    end loop;
  end if;
  gelogd := app_hidden.aanroep_einde(s.aanroep_id, status, fout ->> 'code', detail, begonnen,
                                     case when pogingen > 1 then pogingen end);
  -- Built in one go: adding the tempo to a built answer with || copies the whole body again
  -- (about 25 us for a 14 KB body).
  antwoord := case when fout is null then antwoord else jsonb_build_object('fout', fout) end;
  return case when s.tempo is null then jsonb_build_object('status', status, 'body', antwoord)
              else jsonb_build_object('status', status, 'body', antwoord, 'tempo', s.tempo) end;
end
$$;
