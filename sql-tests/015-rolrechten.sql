-- The role matrix: every registered operation (app.operaties, written from src/registry.ts) called
-- through api.aanroep as each of the five roles, allowed or refused exactly as the role rights
-- say (app.rol_rechten, also from the registry), on every door that serves it: REST with an API
-- key, MCP with an access token (operations only on the AI connection too). An operation added
-- later is covered by itself.
begin;
select plan(3 + 5 * (select count(*)::int from app.operaties where not alleen_mcp)
              + 5 * (select count(*)::int from app.operaties));

select tests.wereld('Rol BV') as org \gset
insert into app_private.api_sleutels (org_id, user_id, hash, hint)
select l.org_id, l.user_id, sha256(convert_to('Rol BV/' || l.rol, 'UTF8')), 'koers_live_…test'
from app.lidmaatschappen l where l.org_id = :'org';
-- An MCP connection with an access token per member (the hash the door computes is opaque here).
insert into app_private.mcp_clients (client_id, soort, metadata, aangemaakt_op, opgehaald_op)
values ('rolrechten', 'registratie', '{"client_name": "Test", "redirect_uris": ["http://127.0.0.1/cb"]}', now(), now());
with v as (
  insert into app_private.mcp_verbindingen (user_id, client_id, redirect_uri, scopes, bron, aangemaakt_op, verloopt_op)
  select l.user_id, 'rolrechten', 'http://127.0.0.1/cb', '{}', 'http://koers.test/mcp', now(), now() + interval '1 day'
  from app.lidmaatschappen l where l.org_id = :'org'
  returning id, user_id)
insert into app_private.mcp_tokens (hash, verbinding_id, soort, aangemaakt_op, verloopt_op)
select sha256(convert_to('Rol BV/mcp/' || l.rol, 'UTF8')), v.id, 'toegang', now(), now() + interval '1 hour'
from v join app.lidmaatschappen l on l.user_id = v.user_id and l.org_id = :'org';

create temp table matrix (door text, operatie text, rol text, recht text, status int, code text);
grant insert on matrix to koers_door;
create function pg_temp.roep_alles(_org uuid) returns void language plpgsql as $$
declare o record; r text; a jsonb; d text; sleutel bytea;
begin
  foreach d in array array['rest', 'mcp'] loop
    for o in select * from app.operaties where not (alleen_mcp and d <> 'mcp') order by naam loop
      foreach r in array app_hidden.keuzes('rol') loop
        sleutel := sha256(convert_to('Rol BV/' || case d when 'mcp' then 'mcp/' else '' end || r, 'UTF8'));
        set local role koers_door;
        -- Only org_id: an allowed role then gets its answer or a 400 for a missing parameter; a
        -- refused role is stopped before the input is looked at.
        a := api.aanroep(d, sleutel, o.naam,
                         case when o.vereist_org then jsonb_build_object('org_id', _org) else '{}' end);
        reset role;
        insert into matrix values (d, o.naam, r, app_hidden.recht(_org, r, o.naam), (a ->> 'status')::int, a #>> '{body,fout,code}');
      end loop;
    end loop;
  end loop;
end
$$;
select pg_temp.roep_alles(:'org');

select is((select count(distinct operatie)::int from matrix where door = 'rest'), (select count(*)::int from app.operaties where not alleen_mcp),
  'every operation of the registry for REST is in the matrix');
select is((select count(distinct operatie)::int from matrix where door = 'mcp'), (select count(*)::int from app.operaties),
  'every operation of the registry, those only on the AI connection too, is in the matrix for MCP');
select ok((select count(distinct recht) from matrix) = 3, 'the matrix holds all three rights (alles, eigen, geen)');
select is(case when code = 'rol_mag_niet' then 'geweigerd'
               when status in (200, 400) then 'toegestaan'
               else format('onverwacht %s %s', status, code) end,
          case when recht = 'geen' then 'geweigerd' else 'toegestaan' end,
          format('%s: %s as %s (%s)', door, operatie, rol, recht))
from matrix order by door, operatie, rol;

select * from finish();
rollback;
