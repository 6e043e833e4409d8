-- The storage of the AI connection's sign-in (db/106_mcp_aanmelden.sql), called as the door
-- calls it: a request bound to one browser, a limited number of password attempts, consent
-- with a one-time token, one-use codes bound to client, redirect and resource, rotating refresh
-- tokens whose reuse revokes the family, and revocation.
begin;
select plan(47);

select tests.wereld('Alfa BV') as alfa \gset
select tests.lid(:'alfa', 'lid') as lid \gset
select set_config('koers.nu', '2026-05-14T09:00:00Z', true);

create function pg_temp.h(_t text) returns bytea language sql as $$ select sha256(convert_to(_t, 'UTF8')) $$;
-- Everything below runs as the door.
create function pg_temp.als_deur(_sql text) returns jsonb language plpgsql as $$
declare r jsonb;
begin
  set local role koers_door;
  execute _sql into r;
  reset role;
  return r;
end
$$;

select is(pg_temp.als_deur($$ select app_hidden.mcp_client_opslaan('c1', 'registratie',
    '{"client_name": "Claude", "redirect_uris": ["https://claude.ai/api/mcp/auth_callback"], "client_secret": "x"}') $$) - 'client_id_issued_at',
  '{"client_id": "c1", "client_name": "Claude", "redirect_uris": ["https://claude.ai/api/mcp/auth_callback"]}',
  'a registered assistant is stored without any secret');
select is(pg_temp.als_deur($$ select app_hidden.mcp_client_opslaan('c1', 'registratie', '{"client_name": "Overschreven"}') $$) ->> 'client_name',
  'Claude', 'registering an existing client_id again changes nothing');
select pg_temp.als_deur($$ select app_hidden.mcp_client_opslaan('c2', 'registratie', '{"client_name": "Ander"}') $$);

-- A request, bound to the browser ----------------------------------------------------------
select pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_aanvraag_maken(%L, 'c1',
  'https://claude.ai/api/mcp/auth_callback', 'uitdaging', 'st', '{}', 'https://koers.test/mcp')) $$, pg_temp.h('browser'))) #>> '{}' as aanvraag \gset
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanvraag(%L, %L) $$, :'aanvraag', pg_temp.h('browser'))) ->> 'assistent',
  'Claude', 'the sign-in page names the assistant');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanvraag(%L, %L) $$, :'aanvraag', pg_temp.h('ander'))), null,
  'another browser does not see the request');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanmelden(%L, %L, 'lid@alfabv.test') $$, :'aanvraag', pg_temp.h('ander'))), null,
  'nor can it sign in on it');

-- Signing in ---------------------------------------------------------------------------------
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanmelden(%L, %L, ' LID@alfabv.test ') $$, :'aanvraag', pg_temp.h('browser'))) ->> 'user_id',
  :'lid', 'an attempt gives the account of the e-mail address (case and spaces do not matter)');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanmelden(%L, %L, 'niemand@x.nl') $$, :'aanvraag', pg_temp.h('browser'))) ? 'user_id',
  false, 'an unknown address gives no account');
select pg_temp.als_deur(format($$ select app_hidden.mcp_aanmelden(%L, %L, 'x@x.nl') $$, :'aanvraag', pg_temp.h('browser'))) from generate_series(1, 3);
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanmelden(%L, %L, 'lid@alfabv.test') $$, :'aanvraag', pg_temp.h('browser'))), null,
  'after five attempts the request is used up');

select pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_aanvraag_maken(%L, 'c1',
  'https://claude.ai/api/mcp/auth_callback', 'uitdaging', 'st', '{}', 'https://koers.test/mcp')) $$, pg_temp.h('browser'))) #>> '{}' as aanvraag \gset
select beheer.org_aanmaken('Leeg BV') ->> 'org_id' as leeg \gset
select beheer.lid_aanmaken(:'leeg', 'Ex', 'ex@x.nl', 'lid');
update app.lidmaatschappen set actief = false where user_id = (select id from app.accounts where email = 'ex@x.nl');
select is(pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_aangemeld(%L, %L, %L, %L)) $$, :'aanvraag', pg_temp.h('browser'),
  (select id from app.accounts where email = 'ex@x.nl'), pg_temp.h('toestemming'))), 'false',
  'a person who is an active member nowhere cannot connect an assistant');
select is(pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_aangemeld(%L, %L, %L, %L)) $$, :'aanvraag', pg_temp.h('browser'),
  :'lid', pg_temp.h('toestemming'))), 'true', 'the password was right: the request is the person''s');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_aanvraag(%L, %L) $$, :'aanvraag', pg_temp.h('browser'))) - 'id' - 'client_id',
  '{"naam": "Lid Alfa BV", "aangemeld": true, "assistent": "Claude", "redirect_uri": "https://claude.ai/api/mcp/auth_callback",
    "organisaties": [{"rol": "lid", "naam": "Alfa BV"}]}',
  'the consent page names the person, the assistant, its redirect address and the organisations');
select is(pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_aangemeld(%L, %L, %L, %L)) $$, :'aanvraag', pg_temp.h('browser'),
  tests.lid(:'alfa', 'eigenaar'), pg_temp.h('toestemming2'))), 'false', 'a signed-in request cannot change hands');

-- Consent ------------------------------------------------------------------------------------
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_beslissen(%L, %L, %L, true, %L) $$, :'aanvraag', pg_temp.h('browser'),
  pg_temp.h('vals'), pg_temp.h('code'))), null, 'consent needs the one-time token of the consent form');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_beslissen(%L, %L, %L, true, %L) $$, :'aanvraag', pg_temp.h('ander'),
  pg_temp.h('toestemming'), pg_temp.h('code'))), null, 'and the browser that signed in');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_beslissen(%L, %L, %L, true, %L) $$, :'aanvraag', pg_temp.h('browser'),
  pg_temp.h('toestemming'), pg_temp.h('code'))), '{"state": "st", "redirect_uri": "https://claude.ai/api/mcp/auth_callback"}',
  'allowed: the browser goes back to the assistant');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_beslissen(%L, %L, %L, true, %L) $$, :'aanvraag', pg_temp.h('browser'),
  pg_temp.h('toestemming'), pg_temp.h('code2'))), null, 'a request is answered once');
select is((select count(*)::int from app_private.mcp_codes), 1, 'one code, stored as its hash');

-- The code -----------------------------------------------------------------------------------
select is(pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_code_challenge(%L, 'c2')) $$, pg_temp.h('code'))), null,
  'another client gets nothing for the code');
select is(pg_temp.als_deur(format($$ select to_jsonb(app_hidden.mcp_code_challenge(%L, 'c1')) $$, pg_temp.h('code'))), '"uitdaging"',
  'the client gets its PKCE challenge');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_code_inwisselen(%L, 'c1', 'https://elders.example/cb', null, %L, %L) $$,
  pg_temp.h('code'), pg_temp.h('at1'), pg_temp.h('rt1'))) ->> 'fout', 'invalid_grant', 'another redirect address: invalid_grant');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_code_inwisselen(%L, 'c1', null, 'https://elders.example/mcp', %L, %L) $$,
  pg_temp.h('code'), pg_temp.h('at1'), pg_temp.h('rt1'))) ->> 'fout', 'invalid_target', 'another resource: invalid_target');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_code_inwisselen(%L, 'c1', 'https://claude.ai/api/mcp/auth_callback',
  'https://koers.test/mcp', %L, %L) $$, pg_temp.h('code'), pg_temp.h('at1'), pg_temp.h('rt1'))) - 'verbinding_id',
  '{"scopes": [], "expires_in": 1800}', 'the code gives a connection with an access token of 30 minutes');
select verbinding_id as v1 from app_private.mcp_tokens where hash = pg_temp.h('at1') \gset
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_token(%L) $$, pg_temp.h('at1'))) ->> 'geldig', 'true',
  'the access token works');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_code_inwisselen(%L, 'c1', null, null, %L, %L) $$,
  pg_temp.h('code'), pg_temp.h('at9'), pg_temp.h('rt9'))) ->> 'fout', 'invalid_grant', 'a code works once');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_token(%L) $$, pg_temp.h('at1'))) ->> 'geldig', 'false',
  'and using it twice revokes what it gave');
select is((select reden_intrekking from app_private.mcp_verbindingen where id = :'v1'), 'code_hergebruik', 'with the reason');

-- Refresh tokens rotate; reuse revokes the family ------------------------------------------------
insert into app_private.mcp_codes (hash, client_id, user_id, redirect_uri, code_challenge, scopes, bron, aangemaakt_op, geldig_tot)
values (pg_temp.h('code3'), 'c1', :'lid', 'https://claude.ai/api/mcp/auth_callback', 'u', '{}', 'https://koers.test/mcp',
        app_hidden.nu(), app_hidden.nu() + interval '5 minutes');
select pg_temp.als_deur(format($$ select app_hidden.mcp_code_inwisselen(%L, 'c1', null, null, %L, %L) $$,
  pg_temp.h('code3'), pg_temp.h('at3'), pg_temp.h('rt3')));
select set_config('koers.nu', '2026-05-14T09:40:00Z', true);
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_token(%L) $$, pg_temp.h('at3'))) ->> 'geldig', 'false',
  'after 30 minutes the access token has expired');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_vernieuwen(%L, 'c2', null, null, %L, %L) $$,
  pg_temp.h('rt3'), pg_temp.h('at4'), pg_temp.h('rt4'))) ->> 'fout', 'invalid_grant', 'another client cannot use the refresh token');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_vernieuwen(%L, 'c1', null, array['meer'], %L, %L) $$,
  pg_temp.h('rt3'), pg_temp.h('at4'), pg_temp.h('rt4'))) ->> 'fout', 'invalid_scope', 'a refresh cannot widen the scope');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_vernieuwen(%L, 'c1', 'https://koers.test/mcp', null, %L, %L) $$,
  pg_temp.h('rt3'), pg_temp.h('at4'), pg_temp.h('rt4'))) ->> 'expires_in', '1800', 'the refresh token gives a new pair');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_token(%L) $$, pg_temp.h('at4'))) ->> 'geldig', 'true', 'which works');
select is((select count(*)::int from app_private.mcp_tokens where hash = pg_temp.h('at3')), 0, 'expired tokens of the family are cleared');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_vernieuwen(%L, 'c1', null, null, %L, %L) $$,
  pg_temp.h('rt3'), pg_temp.h('at5'), pg_temp.h('rt5'))) ->> 'fout', 'invalid_grant', 'the old refresh token a second time: refused');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_token(%L) $$, pg_temp.h('at4'))) ->> 'geldig', 'false',
  'and the whole family is revoked, the new access token too');
select is(pg_temp.als_deur(format($$ select app_hidden.mcp_vernieuwen(%L, 'c1', null, null, %L, %L) $$,
  pg_temp.h('rt4'), pg_temp.h('at6'), pg_temp.h('rt6'))) ->> 'fout', 'invalid_grant', 'as is the new refresh token');

-- The door cannot issue tokens itself, nor read them ------------------------------------------------
set local role koers_door;
select throws_ok(format($$ select app_hidden.mcp_tokens_uitgeven(%L, %L, %L) $$, :'v1', pg_temp.h('x'), pg_temp.h('y')),
  '42501', null, 'the door cannot issue tokens outside the exchange');
select throws_ok($$ select * from app_private.mcp_tokens $$, '42501', null, 'nor read the token hashes');
reset role;

-- The app lists and revokes a person's connections --------------------------------------------------
select is(jsonb_array_length(beheer.mcp_verbindingen(:'lid')), 2, 'the person''s connected assistants');
select is(beheer.mcp_verbinding_intrekken(:'v1') ->> 'id', :'v1', 'revoking one (already revoked) keeps its first revocation');
select is((select reden_intrekking from app_private.mcp_verbindingen where id = :'v1'), 'code_hergebruik',
  'its first reason stays');
select ok(not has_function_privilege('koers_door', 'app_hidden.mcp_verbinding_beeindigen(uuid, text)', 'execute'),
  'a door cannot end a connection by its id');

-- Expired sign-in rows are trimmed; open registration is capped ----------------------------
select set_config('koers.nu', '2030-01-01T10:00:00Z', true);
create temp table weg as select beheer.aanmeldingen_opruimen() as r;
select ok((select (r ->> 'mcp_aanvragen')::int > 0 and (r ->> 'mcp_codes')::int > 0 and (r ->> 'mcp_tokens')::int > 0
                  and (r ->> 'mcp_verbindingen')::int > 0 and (r ->> 'mcp_clients')::int > 0 from weg),
  'years on, expired requests, codes, tokens, ended connections and unused assistants are trimmed');
select is((select count(*)::int from app_private.mcp_aanvragen) + (select count(*)::int from app_private.mcp_codes)
          + (select count(*)::int from app_private.mcp_tokens) + (select count(*)::int from app_private.mcp_verbindingen)
          + (select count(*)::int from app_private.mcp_clients), 0, 'and nothing of that is left');

select pg_temp.als_deur(format($$ select app_hidden.mcp_client_opslaan('massa-%s', 'registratie', '{"client_name": "Massa"}') $$, i))
from generate_series(1, 100) i;
select throws_ok($$ select pg_temp.als_deur($x$ select app_hidden.mcp_client_opslaan('massa-101', 'registratie', '{}') $x$) $$,
  'KOERS', 'Te veel nieuwe assistenten in korte tijd; probeer het over een minuut opnieuw.',
  'the 101st registration within a minute is refused (te_veel_verzoeken)');
select set_config('koers.nu', '2030-01-01T10:01:01Z', true);
select is(pg_temp.als_deur($$ select app_hidden.mcp_client_opslaan('massa-101', 'registratie', '{}') $$) ->> 'client_id', 'massa-101',
  'a minute later registering works again');
select is((beheer.aanmeldingen_opruimen() ->> 'mcp_clients')::int, 0, 'an assistant that has not connected yet stays for a day');
select set_config('koers.nu', '2030-01-02T10:02:00Z', true);
select is((beheer.aanmeldingen_opruimen() ->> 'mcp_clients')::int, 101, 'a day on, the 101 that never connected are gone');

select * from finish();
rollback;
