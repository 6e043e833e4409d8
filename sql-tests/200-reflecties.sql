-- reflecties: the caller's own always; the team's only when every member with reflections has
-- submitted, the caller too (team_zichtbaar); the latest period with content by default.
begin;
select plan(27);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Reflectie BV') as org \gset
select tests.wereld('Ander BV') as ander \gset
select * from tests.leden(:'org') \gset

create function pg_temp.r(_rol text, _p jsonb default '{"soort": "maand"}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Reflectie BV'), _rol, 'reflecties', _p)
$$;
create function pg_temp.namen(_antwoord jsonb) returns text[] language sql as $$
  select coalesce(array_agg(x #>> '{persoon,naam}' order by x #>> '{persoon,naam}'), '{}')
  from jsonb_array_elements(_antwoord -> 'reflecties') x
$$;
-- What the door role sees reading the table directly.

-- The world: the member submitted April. Owner and admin submit too; MT only wrote a draft.
insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values
  (:'org', :'eigenaar', 'maand', '2026-04', 'Omzet', '2026-05-01'),
  (:'org', :'admin', 'maand', '2026-04', 'Rust', '2026-05-02');
insert into app.reflecties (org_id, user_id, soort, periode, beter) values (:'org', :'mt', 'maand', '2026-04', 'Focus');
insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values
  (:'ander', tests.lid(:'ander', 'eigenaar'), 'maand', '2026-04', 'Elders', '2026-05-01');

select is(pg_temp.r('lid') ->> 'periode', '2026-04', 'empty periode is the latest period with content');
select is(pg_temp.r('lid') -> 'reflecties' -> 0,
  jsonb_build_object('persoon', jsonb_build_object('user_id', :'lid', 'naam', 'Lid Reflectie BV'),
    'goed', 'Veel', 'beter', null, 'geleerd', null, 'focus', null, 'energie', null, 'ingediend', true,
    'ingediend_op', (select to_jsonb(ingediend_op) from app.reflecties where user_id = :'lid')),
  'a reflection shows went well, can be better, learned, focus, energy and whether it was submitted');
select is(pg_temp.namen(pg_temp.r('lid')), array['Lid Reflectie BV'], 'before the round opens a member sees only their own');
select is(pg_temp.r('eigenaar') -> 'team_zichtbaar', 'false', 'one draft keeps the round closed');
select is(pg_temp.namen(pg_temp.r('eigenaar')), array['Eigenaar Reflectie BV'], 'the owner, too, sees only their own');
select is(pg_temp.namen(pg_temp.r('mt')), array['Mt Reflectie BV'], 'a draft is the writer''s own to see');
select is(tests.rijen(:'org', 'lid', 'app.reflecties'), 1::bigint, 'reading the table directly shows no more: only the own row');

update app.reflecties set ingediend_op = '2026-05-03' where user_id = :'mt';
select is(pg_temp.r('lid') -> 'team_zichtbaar', 'true', 'everyone with reflections submitted: the round is open');
select is(pg_temp.namen(pg_temp.r('lid')), array['Admin Reflectie BV', 'Eigenaar Reflectie BV', 'Lid Reflectie BV', 'Mt Reflectie BV'],
  'a member then sees the whole team''s, never another organisation''s');
select is(tests.rijen(:'org', 'admin', 'app.reflecties'), 4::bigint, 'so does the table, read directly');

-- Who counts: every active member whose role has reflections (a coach has none by default).
insert into app.org_rechten (org_id, operatie, rol, recht) values (:'org', 'reflecties', 'coach', 'eigen');
select is(pg_temp.r('eigenaar') -> 'team_zichtbaar', 'false', 'a coach with reflections who has not submitted keeps it closed');
select is(pg_temp.namen(pg_temp.r('coach')), '{}', 'and the coach, who did not submit, sees nothing of the team');
select is(tests.rijen(:'org', 'eigenaar', 'app.reflecties'), 1::bigint, 'the table closes with the round');
delete from app.org_rechten where org_id = :'org' and operatie = 'reflecties';
update app.lidmaatschappen set actief = false where org_id = :'org' and user_id = :'admin';
update app.reflecties set ingediend_op = null where user_id = :'admin';
select is(pg_temp.r('eigenaar') -> 'team_zichtbaar', 'true', 'a member who left does not count');
select is(pg_temp.namen(pg_temp.r('eigenaar')), array['Eigenaar Reflectie BV', 'Lid Reflectie BV', 'Mt Reflectie BV'],
  'and their draft stays theirs');

-- The caller too: the round is open for no one who has not submitted.
update app.lidmaatschappen set actief = true where org_id = :'org' and user_id = :'admin';
select is(pg_temp.namen(pg_temp.r('admin')), array['Admin Reflectie BV'], 'a caller who has not submitted sees only their own');

-- Periods
insert into app.reflecties (org_id, user_id, soort, periode, energie) values (:'org', :'lid', 'maand', '2026-05', 7);
insert into app.reflecties (org_id, user_id, soort, periode) values (:'org', :'eigenaar', 'maand', '2026-06');
select is(pg_temp.r('eigenaar') ->> 'periode', '2026-05', 'the latest period with content, also someone else''s draft; an empty row does not count');
select is(pg_temp.r('eigenaar') -> 'reflecties', '[]', 'whose draft is not shown');
select is(pg_temp.r('lid', '{"soort": "maand", "periode": "2026-03"}'),
  '{"soort": "maand", "periode": "2026-03", "reflecties": [], "team_zichtbaar": false}', 'a period without reflections');
insert into app.reflecties (org_id, user_id, soort, periode, goed, ingediend_op) values (:'org', :'lid', 'kwartaal', '2026-Q1', 'Q1', '2026-04-02');
select is(pg_temp.r('lid', '{"soort": "kwartaal"}') ->> 'periode', 'Q1-2026', 'a quarter is Q<n>-<yyyy>');
select is(pg_temp.namen(pg_temp.r('lid', '{"soort": "kwartaal", "periode": "Q1-2026"}')), array['Lid Reflectie BV'], 'and is asked for so');
select is(tests.fout(:'org', 'lid', 'reflecties', '{"soort": "maand", "periode": "Q1-2026"}'), 'ongeldige_parameters:periode',
  'a quarter is no month');
select is(tests.fout(:'org', 'lid', 'reflecties', '{"soort": "kwartaal", "periode": "2026-04"}'), 'ongeldige_parameters:periode',
  'a month is no quarter');
select is(tests.fout(:'org', 'lid', 'reflecties', '{"soort": "maand", "periode": "2026-13"}') || ' ' ||
          tests.fout(:'org', 'lid', 'reflecties', '{"soort": "maand", "periode": "0000-01"}'),
  'ongeldige_parameters:periode ongeldige_parameters:periode', 'no month 13, no year 0');
select is(array(select format('%s..%s', app_hidden.periode_van(x), app_hidden.periode_eind(x))
                from unnest(array['2026', '2026-02', '2024-02', 'Q4-2026', '2026-Q1', '0000', '0000-01', 'Q2-0000', '2026-13', '2026-W07']) x),
          array['2026-01-01..2026-12-31', '2026-02-01..2026-02-28', '2024-02-01..2024-02-29', '2026-10-01..2026-12-31',
                '2026-01-01..2026-03-31', '..', '..', '..', '..', '..'],
  'the first and last day of a year, a month and a quarter (both spellings); none for anything else');
select is(tests.fout(:'org', 'lid', 'reflecties', '{}') || ' ' || tests.fout(:'org', 'lid', 'reflecties', '{"soort": "jaar"}'),
  'ongeldige_parameters:soort ongeldige_parameters:soort', 'soort is required: maand or kwartaal');

-- A withdrawn section shows nothing, not even the own row (the door answers onderdeel_uit).
select beheer.secties_zetten(:'org', array['reviews'], false);
select is(tests.rijen(:'org', 'lid', 'app.reflecties'), 0::bigint, 'without the reviews section the table shows nothing');

select * from finish();
rollback;
