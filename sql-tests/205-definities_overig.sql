-- The role matrix of the definitions outside planning (docs/definitions.md, "People and the
-- rest"): what each role sees through a definition, read as the door role under RLS, is what the
-- read operation built on it shows that role (nothing when the operation refuses the role), and
-- never a row of another organisation.
begin;
set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Definitie BV') as org \gset
select tests.wereld('Ander BV') as ander \gset
select * from tests.leden(:'org') \gset

-- More rows, so each role sees something different: a second team, a member without a role and
-- one who left, reflections of April (the owner's and admin's submitted, MT's a draft),
-- conversations and hours of several members, a valuation without figures, an established note
-- and a concept one, proposals by the owner and MT.
insert into app.teams (org_id, naam) values (:'org', 'Service');
select (beheer.lid_aanmaken(:'org', 'Oud Lid', 'oud@definitie.test', 'lid') ->> 'user_id') as oud \gset
update app.lidmaatschappen set actief = false where org_id = :'org' and user_id = :'oud';
insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values
  (:'org', :'eigenaar', 'maand', '2026-04', 'Omzet', '2026-05-01'), (:'org', :'admin', 'maand', '2026-04', 'Rust', '2026-05-02');
insert into app.reflecties (org_id, user_id, soort, periode, beter) values (:'org', :'mt', 'maand', '2026-04', 'Focus');
insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie) values
  (:'org', :'mt', :'admin', 'beoordeling', '2025-11-10', true, 'B'), (:'org', :'admin', :'coach', 'functionering', '2026-02-01', false, null);
insert into app.uren (org_id, user_id, datum, uren) values
  (:'org', :'eigenaar', '2026-05-02', 3), (:'org', :'mt', '2026-05-03', 1.5), (:'org', :'coach', '2026-05-04', 4);
insert into app.waarderingen (org_id, periode) values (:'org', '2024');
insert into app.waarderingen (org_id, periode, omzet, multiple) values (:'org', 'Q1-2026', 500000, 4);
insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, status, geschreven_door)
  values (:'org', '2026-04-01', 'Maandsessie', 'maand', 'April', 'vastgesteld', :'coach') returning id as april \gset
insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, volgorde) values
  (:'org', :'april', 'Bellen', :'lid', 1), (:'org', :'april', 'Mailen', null, 2);
insert into app.strategie_voorstellen (org_id, velden, ingediend_door) values (:'org', '{"bhag": {"nu": null, "wordt": "X"}}', :'mt');

-- What the member with that role sees through a query, as the door role, as a sorted JSON list.
create function pg_temp.def(_org uuid, _rol text, _sql text) returns jsonb language plpgsql as $$
declare r jsonb;
begin
  reset role;
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  set local role koers_door;
  execute format('select coalesce(jsonb_agg(x.w order by x.w::text), ''[]'') from (%s) x (w)', _sql) into r;
  reset role;
  return r;
end
$$;
-- What the operation shows that role (taken out of its answer by _sql over $1, as a sorted JSON
-- list); an empty list when it refuses the role. An operation without org_id (organisaties) is
-- called as the door role directly (tests.roep adds org_id).
create function pg_temp.op(_org uuid, _rol text, _operatie text, _p jsonb, _sql text) returns jsonb language plpgsql as $$
declare a jsonb; r jsonb;
begin
  begin
    if (select o.vereist_org from app.operaties o where o.naam = _operatie) then
      a := tests.roep(_org, _rol, _operatie, _p);
    else
      perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'mcp');
      set local role koers_door;
      execute format('select api.%I($1)', _operatie) into a using _p;
      reset role;
    end if;
  exception when sqlstate 'KOERS' then
    return '[]';
  end;
  execute format('select coalesce(jsonb_agg(x.w order by x.w::text), ''[]'') from (%s) x (w)', _sql) into r using a;
  return r;
end
$$;

create temp table matrix (definitie text, def_sql text, operatie text, p jsonb, op_sql text);
insert into matrix values
  ('def_personen', 'select to_jsonb(d.persoon) from app_hidden.def_personen d join app_hidden.def_leden l using (org_id, user_id) where l.actief',
   'team', '{}', $$select x - 'rol' - 'functietitel' - 'team' from jsonb_array_elements($1 -> 'leden') x$$),
  ('def_leden', 'select jsonb_build_array(d.user_id, d.naam, d.rol, d.team_id, d.team_naam) from app_hidden.def_leden d where d.actief',
   'team', '{}', $$select jsonb_build_array(x -> 'user_id', x -> 'naam', x -> 'rol', x #> '{team,id}', x #> '{team,naam}')
                   from jsonb_array_elements($1 -> 'leden') x$$),
  ('def_teams', 'select jsonb_build_array(d.id, d.naam, d.leider_user_id, d.leider_naam) from app_hidden.def_teams d',
   'team', '{}', $$select jsonb_build_array(x -> 'id', x -> 'naam', x #> '{leider,user_id}', x #> '{leider,naam}')
                   from jsonb_array_elements($1 -> 'teams') x$$),
  ('def_processen', 'select jsonb_build_array(d.id, d.naam, d.eindverantwoordelijke_user_id) from app_hidden.def_processen d',
   'team', '{}', $$select jsonb_build_array(x -> 'id', x -> 'naam', x #> '{eindverantwoordelijke,user_id}')
                   from jsonb_array_elements($1 -> 'processen') x$$),
  ('def_rollen', 'select jsonb_build_array(d.id, d.naam, d.proces_naam, d.wie_user_id) from app_hidden.def_rollen d',
   'team', '{}', $$select jsonb_build_array(r -> 'id', r -> 'naam', x -> 'naam', r #> '{wie,user_id}')
                   from jsonb_array_elements($1 -> 'processen') x, jsonb_array_elements(x -> 'rollen') r$$),
  ('def_reflecties', $$select jsonb_build_array(d.persoon_user_id, d.goed, d.ingediend, d.team_zichtbaar) from app_hidden.def_reflecties d
                       where d.soort = 'maand' and d.periode = '2026-04'$$,
   'reflecties', '{"soort": "maand", "periode": "2026-04"}',
   $$select jsonb_build_array(x #> '{persoon,user_id}', x -> 'goed', x -> 'ingediend', $1 -> 'team_zichtbaar')
     from jsonb_array_elements($1 -> 'reflecties') x$$),
  ('def_uren', $$select jsonb_build_array(d.persoon_user_id, sum(d.uren)) from app_hidden.def_uren d
                 where d.datum between '2026-05-01' and '2026-05-31' group by d.persoon_user_id$$,
   'uren', '{}', $$select jsonb_build_array(x #> '{persoon,user_id}', x -> 'uren') from jsonb_array_elements($1 -> 'personen') x
                   where (x ->> 'uren')::numeric > 0$$),
  ('def_waarderingen', 'select jsonb_build_array(d.periode, d.omzet, d.multiple) from app_hidden.def_waarderingen d',
   'waardering', '{"aantal": 100}', $$select jsonb_build_array(x -> 'periode', x -> 'omzet', x -> 'multiple')
                                      from jsonb_array_elements($1 -> 'waarderingen') x$$),
  ('def_gesprekken', 'select jsonb_build_array(d.id, d.wie_user_id, d.met_naam, d.afgerond) from app_hidden.def_gesprekken d',
   'gesprekken', '{}', $$select jsonb_build_array(x -> 'id', x #> '{wie,user_id}', x #> '{met,naam}', x -> 'afgerond')
                         from jsonb_array_elements($1 -> 'gesprekken') x$$),
  ('def_sessienotities', 'select jsonb_build_array(d.id, d.titel, d.status) from app_hidden.def_sessienotities d',
   'sessienotities', '{"aantal": 100}', $$select jsonb_build_array(x -> 'id', x -> 'titel', x -> 'status')
                                          from jsonb_array_elements($1 -> 'sessienotities') x$$),
  ('def_sessie_actiepunten', 'select jsonb_build_array(d.notitie_id, d.tekst, d.eigenaar_naam) from app_hidden.def_sessie_actiepunten d',
   'sessienotities', '{"aantal": 100}', $$select jsonb_build_array(x -> 'id', a -> 'tekst', a #> '{eigenaar,naam}')
                                          from jsonb_array_elements($1 -> 'sessienotities') x, jsonb_array_elements(x -> 'actiepunten') a$$),
  ('def_organisaties', 'select jsonb_build_array(d.org_id, d.naam, d.rol, d.onderdelen, d.alleen_lezen) from app_hidden.def_organisaties d',
   'organisaties', '{}', $$select jsonb_build_array(x -> 'org_id', x -> 'naam', x -> 'rol', x -> 'onderdelen', x -> 'alleen_lezen')
                           from jsonb_array_elements($1 -> 'organisaties') x$$);

select plan(3 * 5 + 2 * 5 * (select count(*)::int from matrix) + 1);

select is(pg_temp.def(:'org', r.rol, format('select %L', m.definitie) || ' from app_hidden.' || m.definitie || ' d where d.org_id <> ' || quote_literal(:'org')),
          '[]'::jsonb, format('%s as %s: no row of another organisation', m.definitie, r.rol))
from matrix m, unnest(app_hidden.keuzes('rol')) r (rol)
order by m.definitie, r.rol;

select is(pg_temp.def(:'org', r.rol, m.def_sql), pg_temp.op(:'org', r.rol, m.operatie, m.p, m.op_sql),
          format('%s as %s: what %s shows', m.definitie, r.rol, m.operatie))
from matrix m, unnest(app_hidden.keuzes('rol')) r (rol)
order by m.definitie, r.rol;

-- The test sees something: every definition shows the owner rows.
select is_empty(format($$select m.definitie from matrix m where pg_temp.def(%L, 'eigenaar', m.def_sql) = '[]'$$, :'org'),
                'every definition shows the owner rows (the matrix compares something)');

-- The strategy has no read operation: the canvas and the proposals follow the right on
-- strategie_bijwerken, and a proposer sees their own proposals only.
select is(pg_temp.def(:'org', r.rol, 'select d.bhag from app_hidden.def_strategie d'),
          case when app_hidden.recht(:'org', r.rol, 'strategie_bijwerken') <> 'geen' then '["Marktleider"]'::jsonb else '[]' end,
          format('def_strategie as %s: the canvas with a right to propose', r.rol))
from unnest(app_hidden.keuzes('rol')) r (rol);
select is(pg_temp.def(:'org', r.rol, 'select d.ingediend_door_naam from app_hidden.def_strategie_voorstellen d'),
          case when app_hidden.recht(:'org', r.rol, 'strategie_bijwerken') = 'geen' then '[]'::jsonb
               else (select coalesce(jsonb_agg(to_jsonb(a.naam)), '[]') from app.strategie_voorstellen v
                     join app.accounts a on a.id = v.ingediend_door
                     where v.org_id = :'org' and v.ingediend_door = tests.lid(:'org', r.rol)) end,
          format('def_strategie_voorstellen as %s: their own proposals', r.rol))
from unnest(app_hidden.keuzes('rol')) r (rol);
select is(pg_temp.def(:'org', r.rol, 'select d.id from app_hidden.def_strategie_voorstellen d where d.ingediend_door_user_id is distinct from '
                                     || quote_literal(tests.lid(:'org', r.rol))),
          '[]'::jsonb, format('def_strategie_voorstellen as %s: nobody else''s', r.rol))
from unnest(app_hidden.keuzes('rol')) r (rol);

select * from finish();
rollback;
