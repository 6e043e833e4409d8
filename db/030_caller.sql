-- Who is calling. The doors never set the caller themselves: app_hidden.aanroep_begin
-- resolves the credential, checks the three conditions, writes the call-log row and points
-- the setting koers.aanroep at it. Policies read the caller back through app_hidden.beller(),
-- which only accepts a row written in this very transaction (by xid), so a forged setting
-- impersonates nobody. Every helper that answers about an organisation answers only about the
-- caller's: nothing is trusted because of a database role's name.

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

-- Security-definer helpers that return an organisation's data answer only about the caller's
-- own organisation. The app (CLI, workers) establishes a caller too (handelen_namens).
create function app_hidden.eigen_org(_org uuid) returns boolean
language sql stable as $$ select coalesce(_org = (app_hidden.beller()).org_id, false) $$;

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

-- Credential resolvers, one per door: from what the door received to the member it acts for.
-- They only resolve; the checks (revoked, organisation, door, section, role) are the same for
-- every door and live in app_hidden.aanroep_begin.

-- REST: an API key (its SHA-256 hash) acts for the member who created it, in its organisation.
create function app_hidden.beller_rest(_sleutel bytea, _gevraagde_org uuid,
  out org_id uuid, out user_id uuid, out rol text, out sleutel_id uuid, out ingetrokken boolean)
language plpgsql stable security definer set search_path = '' as $$
begin
  select sl.org_id, sl.user_id, l.rol, sl.id, sl.ingetrokken_op is not null or not l.actief
    into org_id, user_id, rol, sleutel_id, ingetrokken
  from app_private.api_sleutels sl
  join app.lidmaatschappen l on l.org_id = sl.org_id and l.user_id = sl.user_id
  where sl.hash = _sleutel;
end
$$;

-- MCP: an access token (the hash of the resource it is for and the token) acts for the person
-- who signed in, in the organisation asked for when they are an active member there. Otherwise
-- it answers with another organisation of the person (one with the AI door on first), so the
-- refusal (verkeerde_organisatie, or for a call without org_id the check of the next condition)
-- is logged in an organisation of the caller, never in someone else's. The credential is the
-- connection (one consent; its access tokens rotate): sleutel_id in the log. An expired or
-- revoked token, or a person active nowhere, counts as revoked.
create function app_hidden.beller_mcp(_sleutel bytea, _gevraagde_org uuid,
  out org_id uuid, out user_id uuid, out rol text, out sleutel_id uuid, out ingetrokken boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  t record;
  actief boolean;
begin
  select v.id, v.user_id,
         v.ingetrokken_op is not null or tk.verloopt_op <= app_hidden.nu() or v.verloopt_op <= app_hidden.nu() as weg
    into t
  from app_private.mcp_tokens tk join app_private.mcp_verbindingen v on v.id = tk.verbinding_id
  where tk.hash = _sleutel and tk.soort = 'toegang';
  if t.id is null then return; end if;
  select l.org_id, l.rol, l.actief into org_id, rol, actief
  from app.lidmaatschappen l
  left join app.koppelingen k on k.org_id = l.org_id and k.door = 'mcp'
  where l.user_id = t.user_id
  order by l.actief desc, l.org_id = _gevraagde_org desc nulls last, coalesce(k.aan, false) desc,
           l.aangemaakt_op, l.org_id
  limit 1;
  user_id := t.user_id;
  sleutel_id := t.id;
  ingetrokken := t.weg or not coalesce(actief, false);
end
$$;

-- Act as a member (or, with _user null, as the app itself) without a credential, exactly as a
-- door call would: a call-log row in this transaction that beller() accepts. For what the app
-- does on someone's behalf (the CLI, workers: door 'app') and for pgTAP. Granted to nobody.
create function app_hidden.handelen_namens(_org uuid, _user uuid, _door text default 'app',
                                           _operatie text default 'test', _parameters jsonb default '{}')
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare
  id uuid;
  lid_rol text;
begin
  if _user is not null then
    select l.rol into lid_rol from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user;
    if lid_rol is null then
      raise exception 'app_hidden.handelen_namens: % is geen lid van %', _user, _org;
    end if;
  elsif not exists (select 1 from app.organisaties o where o.org_id = _org) then
    raise exception 'app_hidden.handelen_namens: organisatie % bestaat niet', _org;
  end if;
  insert into app_private.aanroepen (org_id, xid, door, operatie, user_id, rol, parameters, status)
  values (_org, pg_current_xact_id(), _door, _operatie, _user, lid_rol,
          app_hidden.redigeren(_parameters), 200)
  returning aanroepen.id into id;
  perform set_config('koers.aanroep', _org || '/' || id, true);
  return id;
end
$$;
