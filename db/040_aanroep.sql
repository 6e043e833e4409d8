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
  invoer jsonb := coalesce(parameters, '{}') - 'bevestigcode';
  code text := nullif(trim(parameters ->> 'bevestigcode'), '');
  uitvoer jsonb;
  antwoord jsonb;
  ingenomen jsonb;
  status integer := 200;
  fout jsonb;
  detail text;
  st text; bericht text; fdetail text; hint text;
begin
  s := app_hidden.aanroep_begin(door, sleutel, operatie, parameters, voorfout);
  if s.fout is not null then
    status := s.status;
    fout := s.fout;
  else
    begin
      if not s.schrijft then
        -- A read's log row may be lost in a crash; it need not wait for the WAL flush.
        perform set_config('synchronous_commit', 'off', true);
        execute format('select api.%I($1)', s.operatie) into antwoord using invoer;
      elsif code is null then
        begin
          execute format('select api.%I($1)', s.operatie) into uitvoer using invoer;
          raise exception using errcode = 'KOPRO';  -- roll the trial write back
        exception when sqlstate 'KOPRO' then
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
