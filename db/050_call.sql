-- The one statement every door call costs: api.aanroep resolves the caller, checks the three
-- conditions, runs the operation under RLS as the door role, applies the two-step rule for
-- writes, maps errors to fout codes and completes the call-log row.
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

create function app_hidden.weiger(s app_hidden.aanroep_start, _code text, _bericht text,
                                  _parameter text default null)
returns app_hidden.aanroep_start language sql stable as $$
  select s.aanroep_id, s.org_id, s.user_id, s.rol, s.sleutel_id, s.door, s.operatie, s.schrijft,
         (select f.status from app.foutcodes f where f.code = _code),
         jsonb_strip_nulls(jsonb_build_object('code', _code, 'bericht', _bericht, 'parameter', _parameter)),
         null::jsonb
$$;

-- Resolves the caller with the door's resolver and decides whether the call may run, in the
-- interface's order: address, key, organisation, door on, section released, role allowed, read
-- only, input (app_hidden.invoer_controleren). Writes the call-log row (in the credential's
-- organisation, refused calls too) with the checked parameters, or the raw input of a refused
-- call cut short; either way redacted: a log never holds a secret.
create function app_hidden.aanroep_begin(_door text, _sleutel bytea, _operatie text,
                                         _parameters jsonb, _voorfout jsonb)
returns app_hidden.aanroep_start
language plpgsql volatile security definer set search_path = '' as $$
declare
  s app_hidden.aanroep_start;
  op app.operaties;
  k record;
  kop app.koppelingen;
  gecontroleerd record;
  gevraagd text := case when jsonb_typeof(_parameters) = 'object' then lower(_parameters ->> 'org_id') end;
  gevraagd_id uuid := case when gevraagd ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                           then gevraagd::uuid end;
begin
  s.door := _door;
  s.operatie := left(app_hidden.redigeren(_operatie), 200);
  select * into op from app.operaties o
  where o.naam = _operatie and not (o.alleen_mcp and _door <> 'mcp')
    and to_regprocedure(format('api.%I(jsonb)', o.naam)) is not null;
  s.schrijft := op.schrijft;

  if _sleutel is not null then
    case _door
      when 'rest' then select * into k from app_hidden.beller_rest(_sleutel, gevraagd_id);
      when 'mcp' then select * into k from app_hidden.beller_mcp(_sleutel, gevraagd_id);
      else null;
    end case;
    s.org_id := k.org_id;
    s.user_id := k.user_id;
    s.rol := k.rol;
    s.sleutel_id := k.sleutel_id;
  end if;
  select * into kop from app.koppelingen c where c.org_id = s.org_id and c.door = _door;

  if _voorfout ->> 'code' in ('ongeldig_verzoek', 'headers_te_groot', 'methode_niet_toegestaan') then
    -- The request itself is unusable (malformed HTTP or URL, a method the address does not
    -- take): like an unknown address, refused before the key.
    s := app_hidden.weiger(s, _voorfout ->> 'code', coalesce(_voorfout ->> 'bericht', 'Ongeldig verzoek.'),
                           _voorfout ->> 'parameter');
  elsif op.naam is null or _voorfout ->> 'code' = 'onbekend_endpoint' then
    s := app_hidden.weiger(s, 'onbekend_endpoint',
      'Dit adres bestaat niet. De index op /api/v1 noemt alle endpoints.');
  elsif s.org_id is null then
    s := app_hidden.weiger(s, 'geen_sleutel',
      'Stuur een geldige API-sleutel mee: Authorization: Bearer <sleutel>.');
  elsif k.ingetrokken then
    s := app_hidden.weiger(s, 'sleutel_ingetrokken', 'Deze API-sleutel is ingetrokken.');
  elsif op.vereist_org and gevraagd_id is not null and gevraagd_id <> s.org_id then
    s := app_hidden.weiger(s, 'verkeerde_organisatie',
      'Deze sleutel hoort bij een andere organisatie dan org_id.', 'org_id');
  elsif not coalesce(kop.aan, false) then
    s := app_hidden.weiger(s, 'koppeling_uit',
      'De koppeling staat uit voor deze organisatie. Een eigenaar zet haar aan onder Integraties.');
  elsif op.sectie is not null and not exists (
      select 1 from app.secties x where x.org_id = s.org_id and x.sectie = op.sectie and x.vrijgegeven) then
    s := app_hidden.weiger(s, 'onderdeel_uit',
      format('Het onderdeel %s is niet vrijgegeven. Een eigenaar geeft het vrij onder Integraties.', op.sectie));
  elsif exists (select 1 from app.modules m where m.org_id = s.org_id and m.module = op.module and not m.aan)
     or app_hidden.recht(s.org_id, s.rol, op.naam) = 'geen' then
    s := app_hidden.weiger(s, 'rol_mag_niet',
      format('Met de rol %s mag je %s niet gebruiken.', s.rol, op.naam));
  elsif op.schrijft and kop.alleen_lezen then
    s := app_hidden.weiger(s, 'alleen_lezen',
      'Deze koppeling staat op alleen lezen; schrijven kan niet.');
  elsif _voorfout is not null then
    s := app_hidden.weiger(s, coalesce(_voorfout ->> 'code', 'ongeldige_parameters'),
      coalesce(_voorfout ->> 'bericht', 'Ongeldige invoer.'), _voorfout ->> 'parameter');
  else
    select * into gecontroleerd from app_hidden.invoer_controleren(op.naam, _parameters);
    if gecontroleerd.fout is not null then
      s := app_hidden.weiger(s, 'ongeldige_parameters', gecontroleerd.fout ->> 'bericht', gecontroleerd.fout ->> 'parameter');
    end if;
    s.invoer := gecontroleerd.invoer;
  end if;

  if s.org_id is not null then
    insert into app_private.aanroepen (org_id, xid, door, operatie, user_id, rol, sleutel_id, parameters)
    values (s.org_id, pg_current_xact_id(), _door, s.operatie, s.user_id, s.rol, s.sleutel_id,
            coalesce(case when s.invoer is not null then app_hidden.redigeren(s.invoer, 16384)
                          else app_hidden.redigeren(_parameters) end, '{}'))
    returning id into s.aanroep_id;
    if s.fout is null then
      perform set_config('koers.aanroep', s.org_id || '/' || s.aanroep_id, true);
    end if;
  end if;
  return s;
end
$$;

-- Completes the call-log row with the outcome; calls without organisation get their row here.
create function app_hidden.aanroep_einde(s app_hidden.aanroep_start, _parameters jsonb,
                                         _status integer, _fout_code text, _fout_detail text,
                                         _begonnen timestamptz)
returns void language plpgsql volatile security definer set search_path = '' as $$
declare duur numeric := round(extract(epoch from clock_timestamp() - _begonnen) * 1000, 3);
begin
  if s.aanroep_id is not null then
    -- Only the unfinished row of this very transaction: the log cannot be rewritten.
    update app_private.aanroepen a
    set status = _status, fout_code = _fout_code, fout_detail = app_hidden.redigeren(_fout_detail), duur_ms = duur
    where a.org_id = s.org_id and a.id = s.aanroep_id and a.xid = pg_current_xact_id() and a.status is null;
  else
    insert into app_private.aanroepen_zonder_org (door, operatie, parameters, status, fout_code, duur_ms)
    values (s.door, s.operatie, coalesce(app_hidden.redigeren(_parameters), '{}'), _status, _fout_code, duur);
  end if;
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

create function api.aanroep(door text, sleutel bytea, operatie text, parameters jsonb,
                            voorfout jsonb default null)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  begonnen timestamptz := clock_timestamp();
  s app_hidden.aanroep_start;
  invoer jsonb;
  code text;
  uitvoer jsonb;
  antwoord jsonb;
  ingenomen jsonb;
  status integer := 200;
  fout jsonb;
  detail text;
  st text; bericht text; fdetail text; hint text;
begin
  s := app_hidden.aanroep_begin(door, sleutel, operatie, parameters, voorfout);
  invoer := s.invoer - 'bevestigcode';
  code := s.invoer ->> 'bevestigcode';
  if s.fout is not null then
    status := s.status;
    fout := s.fout;
  else
    begin
      if not s.schrijft then
        -- A read's log row may be lost in a crash; it need not wait for the WAL flush.
        perform set_config('synchronous_commit', 'off', true);
        execute format('select api.%I($1)', s.operatie) into antwoord using invoer;
      elsif not (select o.twee_stappen from app.operaties o where o.naam = s.operatie) then
        -- A write that stores a proposal itself (strategie_bijwerken) runs at once.
        execute format('select api.%I($1)', s.operatie) into uitvoer using invoer;
        antwoord := uitvoer -> 'resultaat';
      elsif code is null then
        begin
          execute format('select api.%I($1)', s.operatie) into uitvoer using invoer;
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
          execute format('select api.%I($1)', s.operatie) into uitvoer using invoer;
          if uitvoer -> 'voorstel' is distinct from ingenomen -> 'voorstel' then
            perform app_hidden.ongeldig('bevestigcode',
              'De gegevens zijn veranderd sinds het voorstel. Vraag een nieuw voorstel aan.');
          end if;
          antwoord := jsonb_build_object('uitgevoerd', true) || coalesce(uitvoer -> 'resultaat', '{}');
          perform app_hidden.bevestigcode_gebruikt(code, antwoord);
        end if;
      end if;
    exception when others then
      get stacked diagnostics st = returned_sqlstate, bericht = message_text,
                              fdetail = pg_exception_detail, hint = pg_exception_hint;
      if st = 'KOERS' then
        fout := jsonb_strip_nulls(jsonb_build_object('code', fdetail, 'bericht', bericht,
                                                     'parameter', nullif(hint, '')));
      else
        fout := jsonb_build_object('code',
          coalesce((select f.code from app.sqlstate_fouten f where f.sqlstate = st), 'interne_fout'));
        fout := fout || jsonb_build_object('bericht', case fout ->> 'code'
          when 'interne_fout' then 'Er ging iets mis aan onze kant. Probeer het later opnieuw.'
          when 'rol_mag_niet' then 'Met jouw rol mag dit niet.'
          when 'alleen_lezen' then 'Deze koppeling staat op alleen lezen; schrijven kan niet.'
          else 'De invoer past niet: een verwijzing of waarde bestaat niet of is ongeldig.' end);
        detail := st || ': ' || bericht;
      end if;
      status := coalesce((select f.status from app.foutcodes f where f.code = fout ->> 'code'), 500);
      antwoord := null;
    end;
  end if;
  perform app_hidden.aanroep_einde(s, parameters, status, fout ->> 'code', detail, begonnen);
  return jsonb_build_object('status', status,
    'body', case when fout is null then antwoord else jsonb_build_object('fout', fout) end);
end
$$;
