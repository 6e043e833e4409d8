-- Who is calling. The doors never set the caller themselves: app_hidden.aanroep_begin
-- resolves the credential, checks the three conditions, writes the call-log row and points
-- the setting koers.aanroep at it. Policies read the caller back through app_hidden.beller(),
-- which only accepts a row written in this very transaction (by xid), so a forged setting
-- impersonates nobody.

-- PL/pgSQL keeps its plans for the session; a SQL function with a SET clause would be planned
-- anew at every call site of every query, and the policies call these in every query.
create function app_hidden.beller() returns app_hidden.aanroep_start
language plpgsql stable security definer set search_path = '' as $$
declare
  s app_hidden.aanroep_start;
  wijzer text := current_setting('koers.aanroep', true);
begin
  if coalesce(wijzer, '') = '' then return s; end if;
  select a.id, a.org_id, a.user_id, a.rol, a.sleutel_id, a.door, a.operatie into
         s.aanroep_id, s.org_id, s.user_id, s.rol, s.sleutel_id, s.door, s.operatie
  from app_private.aanroepen a
  where a.org_id = split_part(wijzer, '/', 1)::uuid and a.id = split_part(wijzer, '/', 2)::uuid
    and a.xid = pg_current_xact_id_if_assigned();
  return s;
end
$$;

-- Inlined wrappers (no SET clause, so the planner can inline them).
create function app_hidden.huidige_org() returns uuid
language sql stable as $$ select (app_hidden.beller()).org_id $$;

create function app_hidden.huidige_gebruiker() returns uuid
language sql stable as $$ select (app_hidden.beller()).user_id $$;

-- Security-definer helpers that return an organisation's data answer a door only about the
-- caller's own organisation; the app (CLI, workers) connects as another role.
create function app_hidden.eigen_org(_org uuid) returns boolean
language sql stable as $$
  select _org = (app_hidden.beller()).org_id or session_user::text <> 'koers_door'
$$;

-- The right of a role on an operation: the organisation's own deviation, else the default.
create function app_hidden.recht(_org uuid, _rol text, _operatie text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce(
    (select r.recht from app.org_rechten r
     where r.org_id = _org and r.operatie = _operatie and r.rol = _rol),
    (select r.recht from app.rol_rechten r where r.operatie = _operatie and r.rol = _rol),
    'geen');
end
$$;

-- The caller's right on an operation ('alles', 'eigen' or 'geen').
create function app_hidden.mijn_recht(_operatie text) returns text
language plpgsql stable set search_path = '' as $$
declare b app_hidden.aanroep_start := app_hidden.beller();
begin
  return app_hidden.recht(b.org_id, b.rol, _operatie);
end
$$;

-- Policy helper: the section is released in the caller's organisation and the caller's role
-- may read something in it.
create function app_hidden.sectie_zichtbaar(_sectie text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare b app_hidden.aanroep_start := app_hidden.beller();
begin
  return b.org_id is not null
     and exists (select 1 from app.secties s
                 where s.org_id = b.org_id and s.sectie = _sectie and s.vrijgegeven)
     and exists (select 1 from app.operaties o
                 where o.sectie = _sectie and not o.schrijft
                   and app_hidden.recht(b.org_id, b.rol, o.naam) <> 'geen');
end
$$;

create function app_hidden.weiger(s app_hidden.aanroep_start, _code text, _bericht text,
                                  _parameter text default null)
returns app_hidden.aanroep_start language sql stable as $$
  select s.aanroep_id, s.org_id, s.user_id, s.rol, s.sleutel_id, s.door, s.operatie, s.schrijft,
         (select f.status from app.foutcodes f where f.code = _code),
         jsonb_strip_nulls(jsonb_build_object('code', _code, 'bericht', _bericht, 'parameter', _parameter))
$$;

-- Resolves the caller and decides whether the call may run, in the interface's order:
-- address, key, organisation, door on, section released, role allowed, read only, input.
-- Writes the call-log row (in the key's organisation, refused calls too).
create function app_hidden.aanroep_begin(_door text, _sleutel bytea, _operatie text,
                                         _parameters jsonb, _voorfout jsonb)
returns app_hidden.aanroep_start
language plpgsql volatile security definer set search_path = '' as $$
declare
  s app_hidden.aanroep_start;
  op app.operaties;
  k record;
  kop app.koppelingen;
  gevraagd text := lower(_parameters ->> 'org_id');
begin
  s.door := _door;
  s.operatie := _operatie;
  select * into op from app.operaties o
  where o.naam = _operatie and not (o.alleen_mcp and _door <> 'mcp')
    and to_regprocedure(format('api.%I(jsonb)', o.naam)) is not null;
  s.schrijft := op.schrijft;

  if _door = 'rest' and _sleutel is not null then
    select sl.org_id, sl.id, sl.user_id, sl.ingetrokken_op, l.rol, l.actief into k
    from app_private.api_sleutels sl
    join app.lidmaatschappen l on l.org_id = sl.org_id and l.user_id = sl.user_id
    where sl.hash = _sleutel;
    s.org_id := k.org_id;
    s.user_id := k.user_id;
    s.rol := k.rol;
    s.sleutel_id := k.id;
  end if;
  select * into kop from app.koppelingen c where c.org_id = s.org_id and c.door = _door;

  if op.naam is null or _voorfout ->> 'code' = 'onbekend_endpoint' then
    s := app_hidden.weiger(s, 'onbekend_endpoint',
      'Dit adres bestaat niet. De index op /api/v1 noemt alle endpoints.');
  elsif s.org_id is null then
    s := app_hidden.weiger(s, 'geen_sleutel',
      'Stuur een geldige API-sleutel mee: Authorization: Bearer <sleutel>.');
  elsif k.ingetrokken_op is not null or not k.actief then
    s := app_hidden.weiger(s, 'sleutel_ingetrokken', 'Deze API-sleutel is ingetrokken.');
  elsif op.vereist_org and gevraagd ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        and gevraagd <> s.org_id::text then
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
  elsif op.vereist_org and gevraagd is null then
    s := app_hidden.weiger(s, 'ongeldige_parameters', 'org_id is verplicht.', 'org_id');
  elsif op.vereist_org and gevraagd <> s.org_id::text then
    s := app_hidden.weiger(s, 'ongeldige_parameters', 'org_id moet een uuid zijn.', 'org_id');
  end if;

  if s.org_id is not null then
    insert into app_private.aanroepen (org_id, xid, door, operatie, user_id, rol, sleutel_id, parameters)
    values (s.org_id, pg_current_xact_id(), _door, _operatie, s.user_id, s.rol, s.sleutel_id,
            coalesce(_parameters, '{}'))
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
    set status = _status, fout_code = _fout_code, fout_detail = _fout_detail, duur_ms = duur
    where a.org_id = s.org_id and a.id = s.aanroep_id and a.xid = pg_current_xact_id() and a.status is null;
  else
    insert into app_private.aanroepen_zonder_org (door, operatie, parameters, status, fout_code, duur_ms)
    values (s.door, s.operatie, coalesce(_parameters, '{}'), _status, _fout_code, duur);
  end if;
end
$$;

-- Act as a member without a key, exactly as a door call would (a call-log row in this
-- transaction): for pgTAP, and for what the app does on someone's behalf (the CLI, door 'app').
-- Granted to nobody; a superuser calls it.
create function app_hidden.als(_org uuid, _user uuid, _door text default 'rest', _operatie text default 'test',
                               _parameters jsonb default '{}')
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare id uuid;
begin
  insert into app_private.aanroepen (org_id, xid, door, operatie, user_id, rol, parameters, status)
  select _org, pg_current_xact_id(), _door, _operatie, _user, l.rol, _parameters, 200
  from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user
  returning aanroepen.id into id;
  if id is null then
    raise exception 'app_hidden.als: % is geen lid van %', _user, _org;
  end if;
  perform set_config('koers.aanroep', _org || '/' || id, true);
  return id;
end
$$;
