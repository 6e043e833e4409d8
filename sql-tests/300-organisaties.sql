-- The MCP door in SQL: an access token resolves to the person (app_hidden.beller_mcp), the
-- organisation comes from org_id and the person's membership there, and organisaties lists
-- where the person can use an assistant. Permission for one door is not permission for the other.
begin;
select plan(24);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
select tests.wereld('Gamma BV') as gamma \gset
select tests.lid(:'alfa', 'mt') as anna \gset
-- Anna is mt in Alfa, lid in Beta (AI door on, read only, two sections), admin in Gamma (AI door off).
select beheer.lid_aanmaken(:'beta', 'Anna', 'mt@alfabv.test', 'lid');
select beheer.lid_aanmaken(:'gamma', 'Anna', 'mt@alfabv.test', 'admin');
update app.lidmaatschappen set aangemaakt_op = now() + interval '1 minute'
where user_id = :'anna' and org_id in (:'beta', :'gamma');
select beheer.koppeling_zetten(:'beta', 'mcp', true, true);
select beheer.secties_zetten(:'beta', app_hidden.keuzes('sectie'), false);
select beheer.secties_zetten(:'beta', array['kpis', 'team'], true);
select beheer.koppeling_zetten(:'gamma', 'mcp', false, null);

insert into app_private.mcp_clients (client_id, soort, metadata, aangemaakt_op, opgehaald_op)
values ('test', 'registratie', '{"client_name": "Test"}', now(), now());
create function pg_temp.token(_user uuid, _naam text, _verloopt interval default '1 hour', _ingetrokken boolean default false)
returns bytea language plpgsql as $$
declare v uuid; h bytea := sha256(convert_to(_naam, 'UTF8'));
begin
  insert into app_private.mcp_verbindingen (user_id, client_id, redirect_uri, scopes, bron, aangemaakt_op, verloopt_op, ingetrokken_op)
  values (_user, 'test', 'http://127.0.0.1/cb', '{}', 'http://koers.test/mcp', now(), now() + interval '1 day',
          case when _ingetrokken then now() end)
  returning id into v;
  insert into app_private.mcp_tokens (hash, verbinding_id, soort, aangemaakt_op, verloopt_op)
  values (h, v, 'toegang', now(), now() + _verloopt);
  return h;
end
$$;
select pg_temp.token(:'anna', 'anna') as anna_token \gset
select pg_temp.token(:'anna', 'verlopen', '-1 minute') as verlopen \gset
select pg_temp.token(:'anna', 'ingetrokken', '1 hour', true) as ingetrokken \gset

create function pg_temp.roep(_door text, _sleutel bytea, _op text, _p jsonb) returns jsonb
language plpgsql as $$
declare r jsonb;
begin
  set local role koers_door;
  r := api.aanroep(_door, _sleutel, _op, _p);
  reset role;
  return r;
end
$$;
create function pg_temp.code(_r jsonb) returns text language sql as $$
  select coalesce(_r #>> '{body,fout,code}', (_r ->> 'status'))
$$;
create function pg_temp.log(_org uuid) returns text language sql as $$
  select door || ' ' || operatie || ' ' || status || ' ' || coalesce(fout_code, '') || ' ' || coalesce(user_id::text, '')
  from app_private.aanroepen where org_id = _org and operatie <> 'test' order by tijdstip desc limit 1
$$;

-- organisaties ---------------------------------------------------------------------------------
select is(pg_temp.roep('mcp', :'anna_token', 'organisaties', '{}') -> 'body',
  jsonb_build_object('organisaties', jsonb_build_array(
    jsonb_build_object('org_id', :'alfa'::uuid, 'naam', 'Alfa BV', 'rol', 'mt',
      'onderdelen', (select jsonb_agg(s) from unnest(app_hidden.keuzes('sectie')) s), 'alleen_lezen', false),
    jsonb_build_object('org_id', :'beta'::uuid, 'naam', 'Beta BV', 'rol', 'lid',
      'onderdelen', '["team", "kpis"]'::jsonb, 'alleen_lezen', true))),
  'organisaties: where the person is a member and the AI door is on, with role, released sections and read only');
select is(pg_temp.log(:'alfa'), 'mcp organisaties 200  ' || :'anna',
  'organisaties is logged in the person''s first organisation with the AI door on');
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'organisaties', jsonb_build_object('org_id', :'alfa'))),
  'ongeldige_parameters', 'organisaties takes no org_id');
update app.lidmaatschappen set actief = false where org_id = :'alfa' and user_id = :'anna';
select is(jsonb_path_query_array(pg_temp.roep('mcp', :'anna_token', 'organisaties', '{}') -> 'body', '$.organisaties[*].naam'),
  '["Beta BV"]', 'an inactive membership is not listed');
update app.lidmaatschappen set actief = true where org_id = :'alfa' and user_id = :'anna';
select beheer.koppeling_zetten(:'alfa', 'mcp', false, null);
select beheer.koppeling_zetten(:'beta', 'mcp', false, null);
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'organisaties', '{}')), 'koppeling_uit',
  'with the AI door off everywhere, organisaties answers koppeling_uit');
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'alfa'))), 'koppeling_uit',
  'the REST switch does not open the AI door');
select beheer.koppeling_zetten(:'alfa', 'mcp', true, null);
select beheer.koppeling_zetten(:'beta', 'mcp', true, null);
select is(pg_temp.code(pg_temp.roep('rest', null, 'organisaties', '{}')), 'onbekend_endpoint',
  'organisaties does not exist on the REST door');

-- The organisation comes from org_id and the membership -----------------------------------------
select is(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'beta')) ->> 'status', '200',
  'a token acts in every organisation of the person where the AI door is on');
select is(pg_temp.log(:'beta'), 'mcp team 200  ' || :'anna', 'and the call is logged there, as the person');
select is((select rol from app_private.aanroepen where org_id = :'beta' and operatie = 'team' order by tijdstip desc limit 1),
  'lid', 'with the role the person has in that organisation');
select is((select sleutel_id from app_private.aanroepen where org_id = :'beta' and operatie = 'team' order by tijdstip desc limit 1),
  (select verbinding_id from app_private.mcp_tokens where hash = :'anna_token'), 'the credential in the log is the connection');
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'gamma'))), 'koppeling_uit',
  'where the AI door is off: koppeling_uit');
select is(pg_temp.roep('mcp', :'anna_token', 'kpi_aanmaken', jsonb_build_object('org_id', :'beta')) #>> '{body,fout,code}',
  'rol_mag_niet', 'the role in that organisation decides (a lid may not create KPIs)');
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'taken', jsonb_build_object('org_id', :'beta'))), 'onderdeel_uit',
  'the sections released there decide');
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'kpi_meting_invoeren', jsonb_build_object('org_id', :'beta'))),
  'alleen_lezen', 'and its read-only setting');
delete from app_private.aanroepen where operatie = 'team';
select is(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'alfa' || '')) #>> '{status}', '200',
  'the same token in another of the person''s organisations');
-- Delta: an organisation Anna is not a member of.
select tests.wereld('Delta BV') as delta \gset
select is(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'delta')) -> 'body' -> 'fout',
  '{"code": "verkeerde_organisatie", "bericht": "Deze sleutel hoort bij een andere organisatie dan org_id.", "parameter": "org_id"}',
  'not a member: verkeerde_organisatie');
select is(pg_temp.log(:'alfa'), 'mcp team 403 verkeerde_organisatie ' || :'anna',
  'logged in an organisation of the person, not in the other one');
select is((select count(*)::int from app_private.aanroepen where org_id = :'delta' and door = 'mcp'), 0,
  'nothing is written into the organisation the person is not a member of');

-- Tokens that no longer work, and credentials of the other door --------------------------------
select is(pg_temp.code(pg_temp.roep('mcp', :'verlopen', 'team', jsonb_build_object('org_id', :'alfa'))), 'sleutel_ingetrokken',
  'an expired access token: 401 sleutel_ingetrokken');
select is(pg_temp.code(pg_temp.roep('mcp', :'ingetrokken', 'team', jsonb_build_object('org_id', :'alfa'))), 'sleutel_ingetrokken',
  'a revoked connection: 401 sleutel_ingetrokken');
select is(pg_temp.code(pg_temp.roep('mcp', sha256(convert_to('Alfa BV', 'UTF8')), 'team', jsonb_build_object('org_id', :'alfa'))),
  'geen_sleutel', 'an API key is no credential at the AI door');
select is(pg_temp.code(pg_temp.roep('rest', :'anna_token', 'team', jsonb_build_object('org_id', :'alfa'))), 'geen_sleutel',
  'an access token is no credential at the REST door');
update app.lidmaatschappen set actief = false where user_id = :'anna';
select is(pg_temp.code(pg_temp.roep('mcp', :'anna_token', 'team', jsonb_build_object('org_id', :'alfa'))), 'sleutel_ingetrokken',
  'a person who is an active member nowhere: the token counts as revoked');

select * from finish();
rollback;
