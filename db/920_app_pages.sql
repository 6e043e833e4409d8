-- The owner's pages (/app, src/app/): what they need that the CLI's functions (beheer.*,
-- 900_admin.sql, 905_app.sql, 183_webhooks_beheer.sql) do not give: sessions, the lists the pages
-- show, and the fences a person's page needs (a key, webhook or AI connection of this
-- organisation or person only). Called over the administrative connection like the rest of
-- beheer; nothing here is granted to the doors. Every action is logged with door 'app'
-- (beheer.namens, or beheer.app_weigering for a refusal, whose own transaction rolled back).

-- How long a session lives, and how old the last password may be before a new secret is shown.
create function beheer.app_termijn(_wat text) returns interval
language sql immutable as $$
  select case _wat
    when 'sessie' then interval '12 hours'
    when 'wachtwoord' then interval '10 minutes'
  end
$$;

-- Sign-in: the account of an e-mail address with its password hash (checked by the page in
-- constant time, src/oauth/password.ts) and the organisations where it is an active member.
-- Null when there is no such account.
create function beheer.app_account(_email text) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('user_id', a.id, 'naam', a.naam, 'wachtwoord_hash', a.wachtwoord_hash,
    'organisaties', coalesce((select jsonb_agg(jsonb_build_object('org_id', o.org_id, 'naam', o.naam, 'rol', l.rol)
                                               order by o.naam, o.org_id)
                              from app.lidmaatschappen l join app.organisaties o on o.org_id = l.org_id
                              where l.user_id = a.id and l.actief), '[]'))
  from app.accounts a where lower(a.email) = lower(trim(_email))
$$;

-- Sign-in attempts: after ten failed ones for an address within fifteen minutes, that address
-- is refused until the oldest of them is fifteen minutes old (the password is not even checked).
create function beheer.app_aanmelden_geblokkeerd(_email text) returns boolean
language sql stable set search_path = '' as $$
  select count(*) >= 10 from app_private.app_aanmeldpogingen p
  where p.email = lower(trim(_email)) and p.tijdstip > app_hidden.nu() - interval '15 minutes'
$$;

create function beheer.app_aanmelden_mislukt(_email text) returns void
language sql volatile set search_path = '' as $$
  delete from app_private.app_aanmeldpogingen p where p.tijdstip < app_hidden.nu() - interval '15 minutes';
  insert into app_private.app_aanmeldpogingen (email, tijdstip) values (lower(trim(_email)), app_hidden.nu());
$$;

-- A new session of an active member (the cookie's hash), logged as 'aanmelden'.
create function beheer.app_sessie_maken(_org uuid, _user uuid, _hash bytea) returns uuid
language plpgsql volatile set search_path = '' as $$
declare
  lid app.lidmaatschappen;
  id uuid;
begin
  select * into lid from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user and l.actief;
  if lid.user_id is null then
    perform app_hidden.fout('rol_mag_niet', 'Je bent geen actief lid van deze organisatie.', 'organisatie');
  end if;
  perform beheer.namens(_org, _user::text, 'aanmelden', '{}');
  -- Sessions of the organisation that ended more than a day ago go (and their used forms with them).
  delete from app_private.app_sessies s
  where s.org_id = _org and least(s.verloopt_op, s.ingetrokken_op) < app_hidden.nu() - interval '1 day';
  insert into app_private.app_sessies (org_id, user_id, hash, rol, aangemaakt_op, wachtwoord_op, laatst_gebruikt_op, verloopt_op)
  values (_org, _user, _hash, lid.rol, app_hidden.nu(), app_hidden.nu(), app_hidden.nu(),
          app_hidden.nu() + beheer.app_termijn('sessie'))
  returning app_sessies.id into id;
  return id;
end
$$;

-- The session of a cookie, or null: signed out, expired, or its member no longer active with
-- the role it signed in with (removed or demoted: ended at once).
create function beheer.app_sessie(_hash bytea) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare r jsonb;
begin
  -- Removed or demoted: the session is revoked for good (promoting back does not revive it).
  update app_private.app_sessies s set ingetrokken_op = app_hidden.nu()
  where s.hash = _hash and s.ingetrokken_op is null
    and not exists (select 1 from app.lidmaatschappen l
                    where l.org_id = s.org_id and l.user_id = s.user_id and l.actief and l.rol = s.rol);
  update app_private.app_sessies s set laatst_gebruikt_op = app_hidden.nu()
  from app.lidmaatschappen l, app.accounts a, app.organisaties o
  where s.hash = _hash and s.ingetrokken_op is null and s.verloopt_op > app_hidden.nu()
    and l.org_id = s.org_id and l.user_id = s.user_id and l.actief and l.rol = s.rol
    and a.id = s.user_id and o.org_id = s.org_id
  returning jsonb_build_object('sessie_id', s.id, 'org_id', s.org_id, 'org_naam', o.naam, 'tijdzone', o.tijdzone, 'user_id', s.user_id,
    'naam', a.naam, 'email', a.email, 'rol', s.rol,
    'wachtwoord_vers', s.wachtwoord_op > app_hidden.nu() - beheer.app_termijn('wachtwoord'))
  into r;
  return r;
end
$$;

-- Signing out: this session, or (_andere) the person's other sessions in this organisation.
-- Returns how many ended.
create function beheer.app_afmelden(_org uuid, _sessie uuid, _andere boolean) returns integer
language plpgsql volatile set search_path = '' as $$
declare
  wie uuid := (select s.user_id from app_private.app_sessies s where s.org_id = _org and s.id = _sessie);
  n integer;
begin
  perform beheer.namens(_org, wie::text, case when _andere then 'andere_sessies_afmelden' else 'afmelden' end, '{}');
  update app_private.app_sessies s set ingetrokken_op = app_hidden.nu()
  where s.org_id = _org and s.user_id = wie and s.ingetrokken_op is null
    and (s.id = _sessie) is distinct from _andere;
  get diagnostics n = row_count;
  return n;
end
$$;

-- The password was given again (before a new secret is shown).
create function beheer.app_wachtwoord_gegeven(_org uuid, _sessie uuid) returns void
language sql volatile set search_path = '' as $$
  update app_private.app_sessies s set wachtwoord_op = app_hidden.nu() where s.org_id = _org and s.id = _sessie
$$;

-- A form that shows a secret once: its token is taken the first time; posted again (a reload)
-- it is refused, and nothing is made twice.
create function beheer.app_formulier_gebruiken(_org uuid, _sessie uuid, _hash bytea) returns void
language plpgsql volatile set search_path = '' as $$
begin
  insert into app_private.app_formulieren (org_id, sessie_id, hash, gebruikt_op)
  values (_org, _sessie, _hash, app_hidden.nu()) on conflict do nothing;
  if not found then
    perform app_hidden.ongeldig('eenmalig', 'Dit formulier is al verstuurd. Het geheim is één keer getoond en '
      'wordt niet opnieuw getoond of gemaakt; maak zo nodig een nieuw.');
  end if;
end
$$;

-- The call-log row of a refused page action (or page): the action's own transaction rolled
-- back with its row, so this one is written apart.
create function beheer.app_weigering(_org uuid, _user uuid, _operatie text, _parameters jsonb, _fout_code text)
returns void language sql volatile set search_path = '' as $$
  insert into app_private.aanroepen (org_id, xid, door, operatie, user_id, rol, parameters, status, fout_code)
  select _org, pg_current_xact_id(), 'app', left(_operatie, 200), _user,
         (select l.rol from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user),
         app_hidden.redigeren(coalesce(_parameters, '{}')), coalesce(app_hidden.fout_status(_fout_code), 400), _fout_code
$$;

-- The doors an owner switches: the value list door (src/choices.ts), in its order, so a door
-- added there appears on the page without a change here.
create function beheer.app_deuren() returns text[]
language sql stable set search_path = '' as $$
  select app_hidden.keuzes('door')
$$;

-- Every door with its switch (a door never switched is off).
create function beheer.app_koppelingen(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('door', d, 'aan', coalesce(k.aan, false), 'alleen_lezen', coalesce(k.alleen_lezen, false))
  from unnest(beheer.app_deuren()) with ordinality d(d, n)
  left join app.koppelingen k on k.org_id = _org and k.door = d
  order by n
$$;

-- Every section with whether it is released.
create function beheer.app_secties(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('sectie', s, 'vrijgegeven', coalesce(x.vrijgegeven, false))
  from unnest(app_hidden.keuzes('sectie')) with ordinality s(s, n)
  left join app.secties x on x.org_id = _org and x.sectie = s
  order by n
$$;

-- The keys of the organisation as the CLI lists them, with when each was last used.
create function beheer.app_sleutels(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select s || jsonb_build_object('laatst_gebruikt_op', k.laatst_gebruikt_op)
  from beheer.sleutels(_org) with ordinality s(s, n)
  join app_private.api_sleutels k on k.org_id = _org and k.id = (s ->> 'key_id')::uuid
  order by n
$$;

-- The page acting as _user on one thing it names by _parameter (_id): beheer.namens checks and
-- logs the call with door app, then a thing that is not the organisation's or the person's
-- (_hoort false) is refused with _bericht. The one fence of the page's actions on a thing the
-- CLI's function (which knows no organisation or session) would take from anyone.
create function beheer.app_namens(_org uuid, _user uuid, _operatie text, _parameter text, _id uuid,
                                  _hoort boolean, _bericht text) returns void
language plpgsql volatile set search_path = '' as $$
begin
  perform beheer.namens(_org, _user::text, _operatie, jsonb_build_object(_parameter, _id));
  if not _hoort then perform app_hidden.ongeldig(_parameter, _bericht); end if;
end
$$;

-- Revoking a key of this organisation (beheer.sleutel_intrekken knows no organisation).
create function beheer.app_sleutel_intrekken(_org uuid, _user uuid, _sleutel uuid) returns jsonb
language sql volatile set search_path = '' as $$
  select beheer.app_namens(_org, _user, 'sleutel_intrekken', 'key_id', _sleutel,
    exists (select 1 from app_private.api_sleutels k where k.org_id = _org and k.id = _sleutel),
    'Deze sleutel hoort niet bij deze organisatie.');
  select beheer.sleutel_intrekken(_sleutel);
$$;

-- A webhook of this organisation (beheer.webhook knows no organisation), or a refusal.
create function beheer.app_webhook(_org uuid, _id uuid) returns uuid
language plpgsql stable set search_path = '' as $$
begin
  if not exists (select 1 from app_private.webhooks w where w.org_id = _org and w.id = _id) then
    perform app_hidden.ongeldig('id', 'Deze webhook hoort niet bij deze organisatie.');
  end if;
  return _id;
end
$$;

-- The call log of the organisation, filtered (every filter optional: door, operatie, status,
-- user_id, van and tot (dates, tot inclusive), verzoek_id), newest first, a page at a time.
create function beheer.app_log(_org uuid, _filter jsonb, _limiet integer, _overslaan integer) returns setof jsonb
language plpgsql stable set search_path = '' as $$
declare
  tz text := (select o.tijdzone from app.organisaties o where o.org_id = _org);
  van date := app_hidden.param_datum(_filter, 'van');
  tot date := app_hidden.param_datum(_filter, 'tot');
  st integer;
  wie uuid;
begin
  if nullif(_filter ->> 'status', '') is not null then
    if _filter ->> 'status' !~ '^\d{3}$' then
      perform app_hidden.ongeldig('status', 'status is een HTTP-status van drie cijfers, zoals 200 of 403.');
    end if;
    st := (_filter ->> 'status')::integer;
  end if;
  if nullif(_filter ->> 'user_id', '') is not null then
    wie := beheer.lid(_org, _filter ->> 'user_id');
  end if;
  return query
    select jsonb_build_object('tijdstip', a.tijdstip, 'door', a.door, 'operatie', a.operatie,
      'user_id', a.user_id, 'naam', p.naam, 'sleutel_id', a.sleutel_id, 'parameters', a.parameters,
      'status', a.status, 'fout_code', a.fout_code, 'duur_ms', a.duur_ms, 'verzoek_id', a.verzoek_id)
    from app_private.aanroepen a
    left join app.accounts p on p.id = a.user_id
    where a.org_id = _org and a.operatie <> 'test'
      and (nullif(_filter ->> 'door', '') is null or a.door = _filter ->> 'door')
      and (nullif(_filter ->> 'operatie', '') is null or a.operatie = _filter ->> 'operatie')
      and (st is null or a.status = st)
      and (wie is null or a.user_id = wie)
      and (van is null or a.tijdstip >= van::timestamp at time zone tz)
      and (tot is null or a.tijdstip < (tot + 1)::timestamp at time zone tz)
      and (nullif(_filter ->> 'verzoek_id', '') is null or a.verzoek_id = _filter ->> 'verzoek_id')
    order by a.tijdstip desc, a.id
    limit greatest(_limiet, 1) offset greatest(_overslaan, 0);
end
$$;

-- The person's AI assistants: connections still valid.
create function beheer.app_verbindingen(_user uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('id', v.id, 'assistent', coalesce(c.metadata ->> 'client_name', c.client_id),
    'aangemaakt_op', v.aangemaakt_op, 'vernieuwd_op', v.vernieuwd_op, 'verloopt_op', v.verloopt_op)
  from app_private.mcp_verbindingen v join app_private.mcp_clients c on c.client_id = v.client_id
  where v.user_id = _user and v.ingetrokken_op is null and v.verloopt_op > app_hidden.nu()
  order by v.aangemaakt_op desc, v.id
$$;

-- Ending one of the person's own AI connections (its tokens stop working at once).
create function beheer.app_verbinding_intrekken(_org uuid, _user uuid, _id uuid) returns jsonb
language sql volatile set search_path = '' as $$
  select beheer.app_namens(_org, _user, 'assistent_intrekken', 'id', _id,
    exists (select 1 from app_private.mcp_verbindingen v where v.id = _id and v.user_id = _user),
    'Deze assistent is niet met jouw account verbonden.');
  select app_hidden.mcp_verbinding_beeindigen(_id, 'beheer');
$$;

-- Open strategy proposals, oldest first, with per field the text now and the text proposed.
create function beheer.app_strategievoorstellen(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('id', v.id, 'ingediend_op', v.ingediend_op, 'ingediend_door', a.naam,
    'velden', coalesce((select jsonb_agg(jsonb_build_object('veld', k, 'nu', to_jsonb(s) ->> k,
                                                            'wordt', beheer.strategie_tekst(v.velden -> k))
                                         order by array_position(app_hidden.keuzes('strategie_veld'), k))
                        from jsonb_object_keys(v.velden) k
                        where k = any (app_hidden.keuzes('strategie_veld'))), '[]'))
  from app.strategie_voorstellen v
  join app.accounts a on a.id = v.ingediend_door
  left join app.strategie s on s.org_id = v.org_id
  where v.org_id = _org and v.status = 'open'
  order by v.ingediend_op, v.id
$$;

-- The concept notes a coach wrote, newest session first.
create function beheer.app_conceptnotities(_org uuid, _user uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('id', n.id, 'datum', n.datum, 'titel', n.titel, 'soort', n.soort,
    'samenvatting', n.samenvatting, 'aangemaakt_op', n.aangemaakt_op)
  from app.sessienotities n
  where n.org_id = _org and n.status = 'concept' and n.geschreven_door = _user
  order by n.datum desc, n.aangemaakt_op desc, n.id
$$;
