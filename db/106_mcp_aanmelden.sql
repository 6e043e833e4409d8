-- Sign-in for the AI connection: the storage of Koers's OAuth 2.1 authorization server
-- (src/oauth/). The protocol itself (checking requests, PKCE, the token endpoint) is the MCP
-- SDK's; these functions keep its state in PostgreSQL, so any instance answers any request.
-- They belong to a person, not an organisation, and run without a door call. Codes and tokens
-- arrive only as SHA-256 hashes. Whatever must hold even when the answer is a refusal (a reused
-- refresh token revokes its family) is returned as {"fout": ...}, never raised, so it commits.

-- How long each thing lives (docs/decisions.md, "Signing in an assistant").
create function app_hidden.mcp_termijn(_wat text) returns interval
language sql immutable as $$
  select case _wat
    when 'aanvraag' then interval '15 minutes'         -- signing in and consenting
    when 'code' then interval '5 minutes'              -- authorization code
    when 'toegang' then interval '30 minutes'          -- access token
    when 'vernieuwing' then interval '30 days'         -- refresh token, renewed at every use
    when 'verbinding' then interval '90 days'          -- a connection, then sign in again
    when 'metadata_document' then interval '1 hour'    -- client metadata fetched again
  end
$$;

create function app_hidden.mcp_seconden(_wat text) returns integer
language sql immutable as $$ select extract(epoch from app_hidden.mcp_termijn(_wat))::integer $$;

-- An assistant as the SDK knows it (OAuthClientInformationFull), with whether a metadata
-- document is due to be fetched again. Null when unknown.
create function app_hidden.mcp_client(_client_id text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select jsonb_build_object(
            'client', c.metadata || jsonb_build_object('client_id', c.client_id,
              'client_id_issued_at', extract(epoch from c.aangemaakt_op)::bigint),
            'soort', c.soort,
            'verouderd', c.opgehaald_op + app_hidden.mcp_termijn('metadata_document') <= app_hidden.nu())
          from app_private.mcp_clients c where c.client_id = _client_id);
end
$$;

-- Registers an assistant (dynamic registration), or stores the metadata document fetched for it.
-- Open registration is capped for the whole service (100 new assistants a minute), so a
-- flood of registrations cannot fill the table; unused ones are trimmed after a day
-- (beheer.aanmeldingen_opruimen).
create function app_hidden.mcp_client_opslaan(_client_id text, _soort text, _metadata jsonb)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
begin
  if _soort = 'registratie' and (select count(*) from app_private.mcp_clients c
                                 where c.soort = 'registratie' and c.aangemaakt_op > app_hidden.nu() - interval '1 minute') >= 100 then
    perform app_hidden.fout('te_veel_verzoeken', 'Te veel nieuwe assistenten in korte tijd; probeer het over een minuut opnieuw.');
  end if;
  insert into app_private.mcp_clients as c (client_id, soort, metadata, aangemaakt_op, opgehaald_op)
  values (_client_id, _soort, _metadata - 'client_id' - 'client_secret' - 'client_id_issued_at',
          app_hidden.nu(), app_hidden.nu())
  on conflict (client_id) do update set metadata = excluded.metadata, opgehaald_op = excluded.opgehaald_op
    where c.soort = 'metadata_document' and excluded.soort = 'metadata_document';
  return app_hidden.mcp_client(_client_id) -> 'client';
end
$$;

-- A checked authorization request, waiting for the person in this browser.
create function app_hidden.mcp_aanvraag_maken(_browser bytea, _client_id text, _redirect_uri text,
  _code_challenge text, _state text, _scopes text[], _bron text)
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare id uuid;
begin
  delete from app_private.mcp_aanvragen a where a.geldig_tot < app_hidden.nu();
  insert into app_private.mcp_aanvragen (browser_hash, client_id, redirect_uri, code_challenge, state,
    scopes, bron, aangemaakt_op, geldig_tot)
  values (_browser, _client_id, _redirect_uri, _code_challenge, _state, _scopes, _bron,
          app_hidden.nu(), app_hidden.nu() + app_hidden.mcp_termijn('aanvraag'))
  returning mcp_aanvragen.id into id;
  return id;
end
$$;

-- A request still open in this browser, for the sign-in and consent pages; null otherwise.
create function app_hidden.mcp_aanvraag(_id uuid, _browser bytea) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select jsonb_build_object(
            'id', a.id,
            'assistent', coalesce(c.metadata ->> 'client_name', c.client_id),
            'client_id', c.client_id,
            'redirect_uri', a.redirect_uri,
            'aangemeld', a.user_id is not null,
            'naam', p.naam,
            'organisaties', coalesce((
              select jsonb_agg(jsonb_build_object('naam', o.naam, 'rol', l.rol) order by o.naam)
              from app.lidmaatschappen l join app.organisaties o on o.org_id = l.org_id
              join app.koppelingen k on k.org_id = l.org_id and k.door = 'mcp' and k.aan
              where l.user_id = a.user_id and l.actief), '[]'))
          from app_private.mcp_aanvragen a
          join app_private.mcp_clients c on c.client_id = a.client_id
          left join app.accounts p on p.id = a.user_id
          where a.id = _id and a.browser_hash = _browser and a.geldig_tot > app_hidden.nu());
end
$$;

-- A sign-in attempt on a request: counts it (five per request), and gives the account and its
-- password hash (scrypt, checked by the door in constant time) when the e-mail address is known.
-- Null when the request is gone or used up.
create function app_hidden.mcp_aanmelden(_id uuid, _browser bytea, _email text) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare a app_private.mcp_aanvragen;
begin
  update app_private.mcp_aanvragen x set mislukte_pogingen = x.mislukte_pogingen + 1
  where x.id = _id and x.browser_hash = _browser and x.geldig_tot > app_hidden.nu()
    and x.mislukte_pogingen < 5 and x.user_id is null
  returning * into a;
  if a.id is null then return null; end if;
  return jsonb_build_object('aanvraag', a.id) || coalesce((
    select jsonb_build_object('user_id', p.id, 'wachtwoord_hash', p.wachtwoord_hash)
    from app.accounts p where lower(p.email) = lower(trim(_email))), '{}');
end
$$;

-- The password was right: the request belongs to that person now, and the consent form gets a
-- one-time token. Refused (false) for a person who is an active member nowhere.
create function app_hidden.mcp_aangemeld(_id uuid, _browser bytea, _user uuid, _toestemming bytea)
returns boolean language plpgsql volatile security definer set search_path = '' as $$
begin
  if not exists (select 1 from app.lidmaatschappen l where l.user_id = _user and l.actief) then
    return false;
  end if;
  update app_private.mcp_aanvragen a set user_id = _user, toestemming_hash = _toestemming
  where a.id = _id and a.browser_hash = _browser and a.geldig_tot > app_hidden.nu() and a.user_id is null;
  return found;
end
$$;

-- The person's answer on the consent page. Ends the request; when allowed, stores the
-- authorization code (its hash). Returns where to send the browser, or null when the request,
-- the browser or the consent token does not match.
create function app_hidden.mcp_beslissen(_id uuid, _browser bytea, _toestemming bytea,
  _toestaan boolean, _code bytea)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare a app_private.mcp_aanvragen;
begin
  delete from app_private.mcp_aanvragen x
  where x.id = _id and x.browser_hash = _browser and x.toestemming_hash = _toestemming
    and x.user_id is not null and x.geldig_tot > app_hidden.nu()
  returning * into a;
  if a.id is null then return null; end if;
  if _toestaan then
    delete from app_private.mcp_codes c where c.geldig_tot < app_hidden.nu();
    insert into app_private.mcp_codes (hash, client_id, user_id, redirect_uri, code_challenge, scopes, bron,
      aangemaakt_op, geldig_tot)
    values (_code, a.client_id, a.user_id, a.redirect_uri, a.code_challenge, a.scopes, a.bron,
            app_hidden.nu(), app_hidden.nu() + app_hidden.mcp_termijn('code'));
  end if;
  return jsonb_build_object('redirect_uri', a.redirect_uri, 'state', a.state);
end
$$;

-- The PKCE challenge of a code still valid for this client; null otherwise. A code already
-- used still answers, so that its second use (with the right verifier) reaches the exchange,
-- which revokes what the first gave.
create function app_hidden.mcp_code_challenge(_code bytea, _client_id text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select c.code_challenge from app_private.mcp_codes c
          where c.hash = _code and c.client_id = _client_id and c.geldig_tot > app_hidden.nu());
end
$$;

-- A pair of tokens for a connection. Not a security definer: only the two functions below,
-- running as the definer, can use it; called by the door it can touch nothing.
create function app_hidden.mcp_tokens_uitgeven(_verbinding uuid, _toegang bytea, _vernieuwing bytea)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare v app_private.mcp_verbindingen;
begin
  select * into v from app_private.mcp_verbindingen x where x.id = _verbinding;
  insert into app_private.mcp_tokens (hash, verbinding_id, soort, aangemaakt_op, verloopt_op) values
    (_toegang, v.id, 'toegang', app_hidden.nu(),
     least(app_hidden.nu() + app_hidden.mcp_termijn('toegang'), v.verloopt_op)),
    (_vernieuwing, v.id, 'vernieuwing', app_hidden.nu(),
     least(app_hidden.nu() + app_hidden.mcp_termijn('vernieuwing'), v.verloopt_op));
  return jsonb_build_object('verbinding_id', v.id, 'scopes', to_jsonb(v.scopes),
    'expires_in', greatest(1, least(app_hidden.mcp_seconden('toegang'),
                                    extract(epoch from v.verloopt_op - app_hidden.nu())::integer)));
end
$$;

-- Ends a connection: its tokens stop working. A connection already ended keeps its first moment
-- and reason. Returns the connection's id and person, or null when there is no such connection.
create function app_hidden.mcp_verbinding_beeindigen(_id uuid, _reden text) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare r jsonb;
begin
  update app_private.mcp_verbindingen v
  set ingetrokken_op = coalesce(v.ingetrokken_op, app_hidden.nu()), reden_intrekking = coalesce(v.reden_intrekking, _reden)
  where v.id = _id
  returning jsonb_build_object('id', v.id, 'user_id', v.user_id, 'ingetrokken_op', v.ingetrokken_op) into r;
  return r;
end
$$;

-- Exchanges an authorization code (its PKCE verifier was checked by the SDK). A code used a
-- second time revokes the connection it yielded (RFC 6749 4.1.2).
create function app_hidden.mcp_code_inwisselen(_code bytea, _client_id text, _redirect_uri text,
  _bron text, _toegang bytea, _vernieuwing bytea)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  c app_private.mcp_codes;
  verbinding uuid;
begin
  select * into c from app_private.mcp_codes x where x.hash = _code and x.client_id = _client_id for update;
  if c.hash is null or c.geldig_tot <= app_hidden.nu() then
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'Unknown or expired authorization code');
  end if;
  if c.verbinding_id is not null then
    perform app_hidden.mcp_verbinding_beeindigen(c.verbinding_id, 'code_hergebruik');
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'Authorization code already used; its tokens are revoked');
  end if;
  if _redirect_uri is not null and _redirect_uri <> c.redirect_uri then
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'redirect_uri differs from the authorization request');
  end if;
  if _bron is not null and _bron <> c.bron then
    return jsonb_build_object('fout', 'invalid_target', 'bericht', 'resource differs from the authorization request');
  end if;
  insert into app_private.mcp_verbindingen (user_id, client_id, redirect_uri, scopes, bron, aangemaakt_op, verloopt_op)
  values (c.user_id, c.client_id, c.redirect_uri, c.scopes, c.bron, app_hidden.nu(),
          app_hidden.nu() + app_hidden.mcp_termijn('verbinding'))
  returning id into verbinding;
  update app_private.mcp_codes x set verbinding_id = verbinding where x.hash = c.hash;
  return app_hidden.mcp_tokens_uitgeven(verbinding, _toegang, _vernieuwing);
end
$$;

-- Rotates a refresh token: the old one is used up, a new pair is issued. A refresh token used a
-- second time means it leaked (or a client misbehaves): the whole family is revoked (RFC 9700
-- 4.14.2), and the person signs in again.
create function app_hidden.mcp_vernieuwen(_vernieuwing bytea, _client_id text, _bron text, _scopes text[],
  _toegang bytea, _nieuw bytea)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  t app_private.mcp_tokens;
  v app_private.mcp_verbindingen;
begin
  select * into t from app_private.mcp_tokens x where x.hash = _vernieuwing and x.soort = 'vernieuwing';
  if t.hash is not null then
    -- The family first, then the token: every refresh of one connection takes the locks in this order.
    select * into v from app_private.mcp_verbindingen x where x.id = t.verbinding_id for update;
    select * into t from app_private.mcp_tokens x where x.hash = _vernieuwing for update;
  end if;
  if t.hash is null or v.client_id <> _client_id then
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'Unknown refresh token');
  end if;
  if t.gebruikt_op is not null then
    perform app_hidden.mcp_verbinding_beeindigen(v.id, 'hergebruik');
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'Refresh token already used; the connection is revoked');
  end if;
  if v.ingetrokken_op is not null or t.verloopt_op <= app_hidden.nu() or v.verloopt_op <= app_hidden.nu()
     or not exists (select 1 from app.lidmaatschappen l where l.user_id = v.user_id and l.actief) then
    return jsonb_build_object('fout', 'invalid_grant', 'bericht', 'Refresh token revoked or expired; sign in again');
  end if;
  if _bron is not null and _bron <> v.bron then
    return jsonb_build_object('fout', 'invalid_target', 'bericht', 'resource differs from the one the connection is for');
  end if;
  if _scopes is not null and not _scopes <@ v.scopes then
    return jsonb_build_object('fout', 'invalid_scope', 'bericht', 'A refresh cannot widen the scope');
  end if;
  update app_private.mcp_tokens x set gebruikt_op = app_hidden.nu() where x.hash = t.hash;
  update app_private.mcp_verbindingen x set vernieuwd_op = app_hidden.nu() where x.id = v.id;
  -- What can no longer be used or recognised: expired tokens of this family.
  delete from app_private.mcp_tokens x where x.verbinding_id = v.id and x.verloopt_op < app_hidden.nu();
  return app_hidden.mcp_tokens_uitgeven(v.id, _toegang, _nieuw);
end
$$;

-- An access token as the door checks it on every request to /mcp; null when unknown (or issued
-- for another resource: its hash covers the resource). It does not work for a person who is an
-- active member nowhere (as in app_hidden.beller_mcp), nor can it be refreshed.
create function app_hidden.mcp_token(_toegang bytea) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select jsonb_build_object(
            'verbinding_id', v.id, 'user_id', v.user_id, 'client_id', v.client_id,
            'scopes', to_jsonb(v.scopes), 'bron', v.bron,
            'verloopt_op', extract(epoch from least(t.verloopt_op, v.verloopt_op))::bigint,
            'geldig', v.ingetrokken_op is null and t.verloopt_op > app_hidden.nu() and v.verloopt_op > app_hidden.nu()
                      and exists (select 1 from app.lidmaatschappen l where l.user_id = v.user_id and l.actief))
          from app_private.mcp_tokens t join app_private.mcp_verbindingen v on v.id = t.verbinding_id
          where t.hash = _toegang and t.soort = 'toegang');
end
$$;

-- Token revocation (RFC 7009) by the assistant itself: either token ends the connection. The
-- door passes the hash of the text as a refresh token and as an access token.
create function app_hidden.mcp_intrekken(_hashes bytea[], _client_id text) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app_private.mcp_verbindingen v
  set ingetrokken_op = app_hidden.nu(), reden_intrekking = 'intrekking'
  where v.ingetrokken_op is null and v.client_id = _client_id
    and v.id in (select t.verbinding_id from app_private.mcp_tokens t where t.hash = any (_hashes));
end
$$;

-- The app: a person's connected assistants, and revoking one (the next call answers 401).
create function beheer.mcp_verbindingen(_user uuid) returns jsonb
language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', v.id, 'assistent', coalesce(c.metadata ->> 'client_name', c.client_id),
           'client_id', v.client_id, 'redirect_uri', v.redirect_uri,
           'aangemaakt_op', v.aangemaakt_op, 'vernieuwd_op', v.vernieuwd_op, 'verloopt_op', v.verloopt_op,
           'ingetrokken_op', v.ingetrokken_op, 'reden_intrekking', v.reden_intrekking,
           'actief', v.ingetrokken_op is null and v.verloopt_op > app_hidden.nu())
         order by v.aangemaakt_op desc, v.id), '[]')
  from app_private.mcp_verbindingen v join app_private.mcp_clients c on c.client_id = v.client_id
  where v.user_id = _user
$$;

create function beheer.mcp_verbinding_intrekken(_id uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare r jsonb := app_hidden.mcp_verbinding_beeindigen(_id, 'beheer');
begin
  if r is null then
    perform app_hidden.ongeldig('id', format('Verbinding %s bestaat niet.', _id));
  end if;
  return r;
end
$$;

-- Retention of the sign-in's rows, in batches of _batch per table (the worker's trim_logs
-- job): requests and codes a day after they expired, tokens a day after they expired,
-- connections 30 days after they were revoked or ended (with their tokens), and assistants that
-- never became a connection, a day after they registered or were fetched.
create function beheer.aanmeldingen_opruimen(_batch integer default 5000) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  grens timestamptz := app_hidden.nu() - interval '1 day';
  aanvragen integer; codes integer; tokens integer; verbindingen integer; clients integer;
begin
  delete from app_private.mcp_aanvragen a where a.id = any (array(
    select x.id from app_private.mcp_aanvragen x where x.geldig_tot < grens limit _batch));
  get diagnostics aanvragen = row_count;
  delete from app_private.mcp_codes c where c.hash = any (array(
    select x.hash from app_private.mcp_codes x where x.geldig_tot < grens limit _batch));
  get diagnostics codes = row_count;
  delete from app_private.mcp_tokens t where t.hash = any (array(
    select x.hash from app_private.mcp_tokens x where x.verloopt_op < grens limit _batch));
  get diagnostics tokens = row_count;
  delete from app_private.mcp_verbindingen v where v.id = any (array(
    select x.id from app_private.mcp_verbindingen x
    where coalesce(x.ingetrokken_op, x.verloopt_op) < app_hidden.nu() - interval '30 days' limit _batch));
  get diagnostics verbindingen = row_count;
  delete from app_private.mcp_clients c where c.client_id = any (array(
    select x.client_id from app_private.mcp_clients x
    where greatest(x.aangemaakt_op, x.opgehaald_op) < grens
      and not exists (select from app_private.mcp_verbindingen v where v.client_id = x.client_id)
      and not exists (select from app_private.mcp_aanvragen a where a.client_id = x.client_id)
      and not exists (select from app_private.mcp_codes k where k.client_id = x.client_id)
    limit _batch));
  get diagnostics clients = row_count;
  return jsonb_build_object('mcp_aanvragen', aanvragen, 'mcp_codes', codes, 'mcp_tokens', tokens,
                            'mcp_verbindingen', verbindingen, 'mcp_clients', clients);
end
$$;
