-- The role matrix: every registered operation (app.operaties, written from src/registry.ts) called
-- through api.aanroep as each of the five roles, allowed or refused exactly as the role rights
-- say (app.rol_rechten, also from the registry). An operation added later is covered by itself.
begin;
select plan(2 + 5 * (select count(*)::int from app.operaties where not alleen_mcp));

select tests.wereld('Rol BV') as org \gset
insert into app_private.api_sleutels (org_id, user_id, hash, hint)
select l.org_id, l.user_id, sha256(convert_to('Rol BV/' || l.rol, 'UTF8')), 'koers_live_…test'
from app.lidmaatschappen l where l.org_id = :'org';

create temp table matrix (operatie text, rol text, recht text, status int, code text);
grant insert on matrix to koers_door;
create function pg_temp.roep_alles(_org uuid) returns void language plpgsql as $$
declare o record; r text; a jsonb;
begin
  for o in select * from app.operaties where not alleen_mcp order by naam loop
    foreach r in array app_hidden.keuzes('rol') loop
      set local role koers_door;
      -- Only org_id: an allowed role then gets its answer or a 400 for a missing parameter; a
      -- refused role is stopped before the input is looked at.
      a := api.aanroep('rest', sha256(convert_to('Rol BV/' || r, 'UTF8')), o.naam, jsonb_build_object('org_id', _org));
      reset role;
      insert into matrix values (o.naam, r, app_hidden.recht(_org, r, o.naam), (a ->> 'status')::int, a #>> '{body,fout,code}');
    end loop;
  end loop;
end
$$;
select pg_temp.roep_alles(:'org');

select is((select count(distinct operatie)::int from matrix), (select count(*)::int from app.operaties where not alleen_mcp),
  'every operation of the registry is in the matrix');
select ok((select count(distinct recht) from matrix) = 3, 'the matrix holds all three rights (alles, eigen, geen)');
select is(case when code = 'rol_mag_niet' then 'geweigerd'
               when status in (200, 400) then 'toegestaan'
               else format('onverwacht %s %s', status, code) end,
          case when recht = 'geen' then 'geweigerd' else 'toegestaan' end,
          format('%s as %s (%s)', operatie, rol, recht))
from matrix order by operatie, rol;

select * from finish();
rollback;
