-- Test helpers, committed once per test run (every other file rolls back).
-- tests.wereld(naam) makes an organisation with one member per role, REST on, all sections
-- released, and one row in every tenant table; tests.lid(org, rol) finds a member.
select plan(1);

create schema tests;
grant usage on schema tests to koers_door;

create function tests.wereld(_naam text) returns uuid
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := (beheer.org_aanmaken(_naam) ->> 'org_id')::uuid;
  rol text;
  e uuid; l uuid;
  team uuid; proces uuid; prio uuid; kpi uuid; project uuid; taak uuid; tag uuid;
  notitie uuid; webhook uuid; gebeurtenis uuid; bericht uuid; label uuid; sessie uuid;
begin
  foreach rol in array app_hidden.keuzes('rol') loop
    perform beheer.lid_aanmaken(org, initcap(rol) || ' ' || _naam,
      rol || '@' || lower(regexp_replace(_naam, '\W', '', 'g')) || '.test', rol);
  end loop;
  e := tests.lid(org, 'eigenaar');
  l := tests.lid(org, 'lid');
  perform beheer.koppeling_zetten(org, 'rest', true, false);
  perform beheer.koppeling_zetten(org, 'mcp', true, false);
  perform beheer.secties_zetten(org, app_hidden.keuzes('sectie'), true);
  insert into app.modules (org_id, module, aan) values (org, 'zoeken', true);
  insert into app.org_rechten (org_id, operatie, rol, recht) values (org, 'team', 'coach', 'alles');

  insert into app.teams (org_id, naam, leider_user_id) values (org, 'Verkoop', e) returning id into team;
  update app.lidmaatschappen set team_id = team where org_id = org and user_id = l;
  insert into app.processen (org_id, naam, eindverantwoordelijke_user_id) values (org, 'Verkopen', e) returning id into proces;
  insert into app.rollen (org_id, proces_id, naam, user_id) values (org, proces, 'Accountmanager', l), (org, proces, 'Binnendienst', null);
  insert into app.brand_labels (org_id, naam) values (org, 'Hoofdmerk') returning id into label;
  insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start, team_id, aangemaakt_door)
    values (org, 'rock', 'Omzet +10%', e, date '2026-04-01', team, e) returning id into prio;
  insert into app.kernresultaten (org_id, prioriteit_id, titel, doelwaarde) values (org, prio, '10 nieuwe klanten', 10);
  insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans) values (org, 'Leads', l, 'teller', 'week') returning id into kpi;
  insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (org, kpi, date '2026-04-01', 130);
  insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde)
    values (org, kpi, '2026-W20', date '2026-05-11', date '2026-05-17', 12);
  insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door, brand_label_id)
    values (org, 'Website', e, date '2026-05-01', e, label) returning id into project;
  insert into app.project_leden (org_id, project_id, user_id) values (org, project, l);
  insert into app.taken (org_id, nummer, omschrijving, prioriteit_id, eigenaar_user_id, aangemaakt_door)
    values (org, 1, 'Offerte sturen', prio, l, e) returning id into taak;
  insert into app.tags (org_id, naam) values (org, 'Sales') returning id into tag;
  insert into app.taak_tags (org_id, taak_id, tag_id) values (org, taak, tag);
  insert into app.bijlagen (org_id, taak_id, naam, tekst) values (org, taak, 'offerte.pdf', 'prijs');
  insert into app_private.bijlage_bestanden (org_id, bijlage_id, inhoud)
    select org, b.id, convert_to('prijs', 'UTF8') from app.bijlagen b where b.org_id = org;
  insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id) values (org, taak, 'Goed bezig', e);
  insert into app.taak_geschiedenis (org_id, taak_id, soort, tijdstip, nieuw) values (org, taak, 'aangemaakt', now(), '{}');
  insert into app.uren (org_id, user_id, datum, uren, taak_id) values (org, l, date '2026-05-12', 2, taak);
  insert into app.weektaken (org_id, user_id, week, titel, prioriteit_id) values (org, l, '2026-W20', 'Bellen', prio);
  insert into app.dagprioriteiten (org_id, user_id, datum, prioriteit_1) values (org, l, date '2026-05-14', 'Bellen');
  insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values (org, l, 'maand', '2026-04', 'Veel', now());
  insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum) values (org, l, e, 'functionering', date '2026-03-01');
  insert into app.waarderingen (org_id, periode, omzet) values (org, '2025', 1000000);
  insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, geschreven_door)
    values (org, date '2026-05-01', 'Kwartaalsessie', 'kwartaal', 'Samen', tests.lid(org, 'coach')) returning id into notitie;
  insert into app.sessie_actiepunten (org_id, notitie_id, tekst) values (org, notitie, 'Plan maken');
  insert into app.strategie (org_id, bhag) values (org, 'Marktleider');
  insert into app.strategie_voorstellen (org_id, velden, ingediend_door) values (org, '{}', e);
  insert into app.meldingen (org_id, user_id, tekst) values (org, e, 'Webhook uit');
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens) values (org, 'taak.klaar', now(), '{}') returning id into gebeurtenis;
  insert into app_private.api_sleutels (org_id, user_id, hash, hint) values (org, e, sha256(convert_to(_naam, 'UTF8')), 'koers_live_…test');
  insert into app_private.bevestigcodes (org_id, code, user_id, door, operatie, parameters, voorstel, aangemaakt_op, geldig_tot)
    values (org, 'AAA-AAA', e, 'rest', 'project_aanmaken', '{}', '{}', now(), now());
  insert into app_private.aanroepen (org_id, xid, door, operatie, status) values (org, '1'::xid8, 'rest', 'team', 200);
  insert into app_private.webhooks (org_id, naam, url, gebeurtenissen, geheim, aangemaakt_door)
    values (org, 'Zapier', 'https://hooks.example.com/koers', array['taak.klaar'], 'geheim', e) returning id into webhook;
  insert into app_private.webhook_berichten (org_id, webhook_id, gebeurtenis_id) values (org, webhook, gebeurtenis) returning id into bericht;
  insert into app_private.webhook_afleveringen (org_id, bericht_id, status_code) values (org, bericht, 200);
  insert into app_private.import_sleutels (org_id, soort, sleutel, id) values (org, 'taak', 's:t1', taak);
  -- A revoked warehouse login: its row only (no role).
  insert into app_private.warehouse_logins (org_id, rol_oid, rolnaam, user_id, ingetrokken_op)
    values (org, 0, 'koers_wh_fixture', e, now());
  insert into app_private.app_sessies (org_id, user_id, hash, rol, aangemaakt_op, wachtwoord_op, laatst_gebruikt_op, verloopt_op)
    values (org, l, sha256(convert_to('sessie ' || _naam, 'UTF8')), 'lid', now(), now(), now(), now() + interval '12 hours')
    returning id into sessie;
  insert into app_private.app_formulieren (org_id, sessie_id, hash, gebruikt_op) values (org, sessie, '\x00', now());
  return org;
end
$$;

create function tests.lid(_org uuid, _rol text) returns uuid
language sql stable set search_path = '' as $$
  select user_id from app.lidmaatschappen where org_id = _org and rol = _rol order by aangemaakt_op limit 1
$$;

-- The first member of each role, as psql variables in one line: select * from tests.leden(:'org') \gset
create function tests.leden(_org uuid, out eigenaar uuid, out admin uuid, out mt uuid, out lid uuid, out coach uuid)
language sql stable as $$
  select tests.lid(_org, 'eigenaar'), tests.lid(_org, 'admin'), tests.lid(_org, 'mt'), tests.lid(_org, 'lid'),
         tests.lid(_org, 'coach')
$$;

-- How many rows of a table the member with that role sees reading it directly as the door role:
-- what the policies let through, whatever the operations show.
create function tests.rijen(_org uuid, _rol text, _tabel text) returns bigint
language plpgsql volatile as $$
declare n bigint;
begin
  reset role;
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  set local role koers_door;
  execute format('select count(*) from %s', _tabel) into n;
  reset role;
  return n;
end
$$;

-- A person as answers show them ({user_id, naam}), read directly: app_hidden.persoon answers
-- only a caller in that organisation.
create function tests.persoon(_org uuid, _user uuid) returns jsonb
language sql stable as $$
  select jsonb_build_object('user_id', a.id, 'naam', a.naam)
  from app.accounts a join app.lidmaatschappen l on l.user_id = a.id and l.org_id = _org where a.id = _user
$$;

-- Runs api.<operation>(p) as koers_door for the member with that role, as a door call would:
-- the input checked against the registry's rules first (org_id added), then the operation under
-- RLS. The role is reset afterwards (also when the call fails, with its subtransaction).
create function tests.roep(_org uuid, _rol text, _operatie text, _p jsonb default '{}') returns jsonb
language plpgsql volatile as $$
declare
  r jsonb;
  c record;
begin
  reset role;
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  select * into c from app_hidden.invoer_controleren(_operatie, _p || jsonb_build_object('org_id', _org));
  if c.fout is not null then
    perform app_hidden.fout(c.fout ->> 'code', c.fout ->> 'bericht', c.fout ->> 'parameter');
  end if;
  set local role koers_door;
  execute format('select api.%I($1)', _operatie) into r using c.invoer;
  reset role;
  return r;
end
$$;

-- What a call is refused with: 'code:parameter' for a Koers refusal, the SQLSTATE otherwise,
-- '' when it is not refused.
create function tests.fout(_org uuid, _rol text, _operatie text, _p jsonb default '{}') returns text
language plpgsql volatile as $$
declare st text; d text; h text;
begin
  perform tests.roep(_org, _rol, _operatie, _p);
  return '';
exception when others then
  get stacked diagnostics st = returned_sqlstate, d = pg_exception_detail, h = pg_exception_hint;
  return case when st = 'KOERS' then d || coalesce(':' || nullif(h, ''), '') else st end;
end
$$;

-- A task, quickly: stand, estimate and size, optionally under a parent.
create function tests.taak(_org uuid, _prioriteit uuid, _stand text, _uren numeric default null,
                           _grootte text default null, _ouder uuid default null, _project uuid default null)
returns uuid language sql volatile as $$
  insert into app.taken (org_id, omschrijving, prioriteit_id, project_id, ouder_id, stand, inschatting_uren, grootte)
  values (_org, 'Taak', _prioriteit, _project, _ouder, _stand, _uren, _grootte) returning id
$$;

-- A statement's plan as the planner makes it (EXPLAIN, JSON, verbose), as text: what a test
-- looks for in it (a function inlined or not, a condition where it should be).
create function tests.plan(_sql text) returns text language plpgsql volatile as $$
declare j jsonb;
begin
  execute 'explain (format json, verbose) ' || _sql into j;
  return j::text;
end
$$;

grant execute on all functions in schema tests to koers_door;
-- The isolation test walks the tenant tables as the door role.
grant select on app_hidden.tenant_tabellen to koers_door;

select has_function('tests', 'wereld', array['text'], 'the test helpers exist');
select * from finish();
