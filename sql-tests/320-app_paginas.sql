-- The owner's pages (db/920_app_pages.sql, 935_app_warehouse.sql): sessions that end at
-- sign-out, removal and demotion; forms that show a secret once; the fences of keys, webhooks,
-- warehouse logins and AI connections to the caller's organisation or person; the doors as the
-- database lists them; the call log's filters; refusals logged with door app; and the address
-- the doors' refusals name.
begin;
select plan(37);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
select tests.lid(:'alfa', 'eigenaar') as eigenaar \gset
select tests.lid(:'alfa', 'admin') as admin \gset
select tests.lid(:'beta', 'eigenaar') as beta_eigenaar \gset
select set_config('koers.nu', '2026-05-14T09:00:00Z', true);
create function pg_temp.h(_t text) returns bytea language sql as $$ select sha256(convert_to(_t, 'UTF8')) $$;

-- Sign-in and sessions.
select is(beheer.app_account('EIGENAAR@' || split_part((select email from app.accounts where id = :'eigenaar'), '@', 2)) -> 'user_id',
  to_jsonb(:'eigenaar'::uuid), 'an account is found by its e-mail address, ignoring case');
select is(beheer.app_account('niemand@nergens.test'), null, 'an unknown address has no account');
select beheer.app_sessie_maken(:'alfa', :'eigenaar', pg_temp.h('s1')) as s1 \gset
select is((select (operatie, door, user_id) from app_private.aanroepen where org_id = :'alfa' and operatie = 'aanmelden'),
  row('aanmelden'::text, 'app'::text, :'eigenaar'::uuid), 'signing in is in the call log with door app');
select is(beheer.app_sessie(pg_temp.h('s1')) ->> 'rol', 'eigenaar', 'a new session counts, with the member''s role');
select is(beheer.app_sessie(pg_temp.h('s1')) ->> 'wachtwoord_vers', 'true', 'the password was just given');
select is((select hash from app_private.app_sessies where id = :'s1'), pg_temp.h('s1'), 'only the hash of the cookie is stored');
select is(beheer.app_sessie(pg_temp.h('onbekend')), null, 'an unknown cookie has no session');
select throws_ok($$ select beheer.app_sessie_maken('$$ || :'alfa' || $$', '$$ || :'beta_eigenaar' || $$', '\x00') $$,
  'KOERS', 'Je bent geen actief lid van deze organisatie.', 'no session in an organisation the person is not a member of');

select set_config('koers.nu', '2026-05-14T09:11:00Z', true);
select is(beheer.app_sessie(pg_temp.h('s1')) ->> 'wachtwoord_vers', 'false', 'after ten minutes a new secret asks for the password');
select beheer.app_wachtwoord_gegeven(:'alfa', :'s1');
select is(beheer.app_sessie(pg_temp.h('s1')) ->> 'wachtwoord_vers', 'true', 'giving it again makes it fresh');
select set_config('koers.nu', '2026-05-14T21:01:00Z', true);
select is(beheer.app_sessie(pg_temp.h('s1')), null, 'a session ends after twelve hours');
select set_config('koers.nu', '2026-05-14T09:20:00Z', true);

-- Signing out: this session, or the others.
select beheer.app_sessie_maken(:'alfa', :'eigenaar', pg_temp.h('s2')) as s2 \gset
select beheer.app_sessie_maken(:'alfa', :'eigenaar', pg_temp.h('s3')) as s3 \gset
select is(beheer.app_afmelden(:'alfa', :'s2', true), 2, 'signing out the other sessions ends both others');
select ok(beheer.app_sessie(pg_temp.h('s2')) is not null and beheer.app_sessie(pg_temp.h('s3')) is null
          and beheer.app_sessie(pg_temp.h('s1')) is null, '... and keeps this one');
select is(beheer.app_afmelden(:'alfa', :'s2', false), 1, 'signing out ends this session');
select is(beheer.app_sessie(pg_temp.h('s2')), null, '... at once');

-- Demotion and removal end sessions at once.
select beheer.app_sessie_maken(:'alfa', :'admin', pg_temp.h('a1')) as a1 \gset
select is(beheer.app_sessie(pg_temp.h('a1')) ->> 'rol', 'admin', 'the admin is signed in');
select beheer.lid_wijzigen(:'alfa', :'admin'::text, _rol => 'lid');
select is(beheer.app_sessie(pg_temp.h('a1')), null, 'demoted: the session no longer counts');
select beheer.lid_wijzigen(:'alfa', :'admin'::text, _rol => 'admin');
select is(beheer.app_sessie(pg_temp.h('a1')), null, 'made admin again: the session stays ended');
select beheer.app_sessie_maken(:'alfa', :'admin', pg_temp.h('a2')) as a2 \gset
select beheer.lid_wijzigen(:'alfa', :'admin'::text, _actief => false);
select is(beheer.app_sessie(pg_temp.h('a2')), null, 'removed (inactive): the session no longer counts');

-- A form that shows a secret, once.
select lives_ok(format('select beheer.app_formulier_gebruiken(%L, %L, %L)', :'alfa', :'s1', pg_temp.h('f1')),
  'a one-time form token is taken the first time');
select throws_ok(format('select beheer.app_formulier_gebruiken(%L, %L, %L)', :'alfa', :'s1', pg_temp.h('f1')),
  'KOERS', null, 'the second time it is refused: a reload shows no secret and makes nothing');

-- Fences: a key, a webhook, an AI connection of another organisation or person.
select (beheer.sleutel_aanmaken(:'beta', :'beta_eigenaar', '\xbeef', 'koers_live_…beef') ->> 'key_id') as beta_sleutel \gset
select throws_ok(format('select beheer.app_sleutel_intrekken(%L, %L, %L)', :'alfa', :'eigenaar', :'beta_sleutel'),
  'KOERS', 'Deze sleutel hoort niet bij deze organisatie.', 'a key of another organisation cannot be revoked');
select is((select ingetrokken_op from app_private.api_sleutels where id = :'beta_sleutel'), null, '... and stays valid');
select (select id from app_private.webhooks where org_id = :'beta' limit 1) as beta_webhook \gset
select throws_ok(format('select beheer.app_webhook(%L, %L)', :'alfa', coalesce(:'beta_webhook', gen_random_uuid()::text)),
  'KOERS', 'Deze webhook hoort niet bij deze organisatie.', 'a webhook of another organisation is not found');
-- A warehouse login of another organisation (db/935_app_warehouse.sql); the verifier's format only matters here.
select (beheer.warehouse_aanmaken(:'beta', :'beta_eigenaar', 'SCRAM-SHA-256$4096:a29lcnMtdGVzdC1zYWx0IQ==$'
  || repeat('A', 43) || '=:' || repeat('B', 43) || '=') ->> 'id') as beta_wh \gset
select throws_ok(format('select beheer.app_warehouse_intrekken(%L, %L, %L)', :'alfa', :'eigenaar', :'beta_wh'),
  'KOERS', 'Deze warehouse-login hoort niet bij deze organisatie.', 'a warehouse login of another organisation cannot be revoked');
select is((select ingetrokken_op from app_private.warehouse_logins where id = :'beta_wh'), null, '... and stays valid');
select throws_ok(format('select beheer.app_verbinding_intrekken(%L, %L, %L)', :'alfa', :'eigenaar', gen_random_uuid()),
  'KOERS', 'Deze assistent is niet met jouw account verbonden.', 'an AI connection of someone else cannot be ended');

-- Lists.
select is(beheer.app_deuren(), app_hidden.keuzes('door'), 'the doors are the value list door, in its order');
select is((select count(*)::int from beheer.app_koppelingen(:'alfa')), cardinality(beheer.app_deuren()), 'every door has a row, switched or not');
-- The warehouse door is listed like the others, off until switched.
select is((select array_agg(r ->> 'door') from beheer.app_koppelingen(:'alfa') r), array['rest', 'mcp', 'warehouse'],
  'every door is listed in the order of its value list, off until switched');

-- A refusal is logged apart, with door app and the status of its code.
select beheer.app_weigering(:'alfa', :'admin', 'integraties', '{}', 'rol_mag_niet');
select is((select (door, status, fout_code) from app_private.aanroepen where org_id = :'alfa' and operatie = 'integraties'),
  row('app'::text, 403, 'rol_mag_niet'::text), 'a refused page is in the call log: door app, 403 rol_mag_niet');
select is((select count(*)::int from beheer.app_log(:'alfa', '{"door": "app", "status": "403"}', 50, 0)), 1,
  'the call log filters by door and status');

-- Guessing passwords: ten failures for an address within fifteen minutes block it.
select beheer.app_aanmelden_mislukt('Raden@Nergens.test') from generate_series(1, 9);
select is(beheer.app_aanmelden_geblokkeerd('raden@nergens.test'), false, 'nine failed sign-ins do not block an address');
select beheer.app_aanmelden_mislukt('raden@nergens.test');
select is(beheer.app_aanmelden_geblokkeerd(' RADEN@nergens.test'), true, 'the tenth blocks it, ignoring case');
select set_config('koers.nu', '2026-05-14T09:36:00Z', true);
select is(beheer.app_aanmelden_geblokkeerd('raden@nergens.test'), false, 'fifteen minutes later it may try again');

-- Sessions that ended more than a day ago are removed at the next sign-in in the organisation.
select set_config('koers.nu', '2026-05-16T09:00:00Z', true);
select beheer.app_sessie_maken(:'alfa', :'eigenaar', pg_temp.h('s9'));
select is((select count(*)::int from app_private.app_sessies where org_id = :'alfa' and user_id in (:'eigenaar', :'admin')), 1,
  'ended sessions are cleared away');

-- The address the refusals name.
select set_config('koers.publieke_url', 'https://koers.example.com', true);
select is(app_hidden.app_adres('/app/integraties'), 'https://koers.example.com/app/integraties',
  'the refusals name {KOERS_PUBLIC_URL}/app/integraties');

select * from finish();
rollback;
