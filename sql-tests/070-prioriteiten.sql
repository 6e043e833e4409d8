-- prioriteiten: stand from weighted progress against elapsed time, at its boundaries, under a
-- frozen clock; filters kwartaal, alleen_aandacht and team; a refused role sees nothing.
begin;
select plan(44);

select tests.wereld('Prio BV') as org \gset
select tests.lid(:'org', 'eigenaar') as e \gset

-- Running time 1..10 May; at 6 May 00:00 Amsterdam half of it has passed.
create function pg_temp.rock(_titel text, _van date default '2026-05-01', _tot date default '2026-05-10', _soort text default 'rock')
returns uuid language sql as $$
  insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start, startdatum, deadline)
  select org_id, _soort, _titel, tests.lid(org_id, 'eigenaar'), '2026-04-01', _van, _tot
  from app.organisaties where naam = 'Prio BV' returning id
$$;
create function pg_temp.stand(_titel text, _p jsonb default '{"kwartaal": "Q2-2026"}') returns text language sql as $$
  select x ->> 'stand' from jsonb_array_elements(tests.roep(
    (select org_id from app.organisaties where naam = 'Prio BV'), 'lid', 'prioriteiten', _p) -> 'prioriteiten') x
  where x ->> 'titel' = _titel
$$;
create function pg_temp.veld(_titel text, _veld text, _p jsonb default '{"kwartaal": "Q2-2026"}') returns text language sql as $$
  select x ->> _veld from jsonb_array_elements(tests.roep(
    (select org_id from app.organisaties where naam = 'Prio BV'), 'lid', 'prioriteiten', _p) -> 'prioriteiten') x
  where x ->> 'titel' = _titel
$$;

select pg_temp.rock('gelijk') as gelijk \gset
select tests.taak(:'org', :'gelijk', 'voltooid', null, 'klein'), tests.taak(:'org', :'gelijk', 'open', 2);
select pg_temp.rock('tachtig') as tachtig \gset
select tests.taak(:'org', :'tachtig', 'voltooid', 4), tests.taak(:'org', :'tachtig', 'in_uitvoering', 6);
select pg_temp.rock('onder tachtig') as onder \gset
select tests.taak(:'org', :'onder', 'voltooid', 39), tests.taak(:'org', :'onder', 'open', 61);
select pg_temp.rock('vervallen telt niet') as verv \gset
select tests.taak(:'org', :'verv', 'voltooid', null, 'klein'), tests.taak(:'org', :'verv', 'vervallen', 100);
select pg_temp.rock('alleen vervallen') as alleenverv \gset
select tests.taak(:'org', :'alleenverv', 'vervallen', 5);
select pg_temp.rock('leeg');
select pg_temp.rock('later', '2026-05-07', '2026-05-20');
select pg_temp.rock('verlopen', '2026-04-20', '2026-05-05') as verlopen \gset
select tests.taak(:'org', :'verlopen', 'voltooid', 9), tests.taak(:'org', :'verlopen', 'open', 1);
select pg_temp.rock('subtaak telt binnen ouder') as sub \gset
select tests.taak(:'org', :'sub', 'open', null, 'klein') as ouder \gset
select tests.taak(:'org', :'sub', 'voltooid', null, 'groot', :'ouder');
select pg_temp.rock('grootte weegt') as grootte \gset
select tests.taak(:'org', :'grootte', 'voltooid', null, 'middel'), tests.taak(:'org', :'grootte', 'open', null, 'groot'),
       tests.taak(:'org', :'grootte', 'open');
select pg_temp.rock('okr', _soort => 'okr') as okr \gset
insert into app.kernresultaten (org_id, prioriteit_id, titel, startwaarde, doelwaarde, huidige_waarde)
values (:'org', :'okr', 'klanten', 10, 30, 20), (:'org', :'okr', 'boven doel', 0, 5, 9);
select pg_temp.rock('okr zonder kernresultaat', _soort => 'okr');

set local koers.nu = '2026-05-05T22:00:00Z';  -- 6 May 00:00 in Amsterdam: half the running time
select is(pg_temp.veld('gelijk', 'verstreken'), '50.0', 'elapsed share is counted in the organisation''s time zone');
select is(pg_temp.stand('gelijk'), 'op koers', 'progress equal to the elapsed share: op koers');
select is(pg_temp.veld('tachtig', 'voortgang'), '40.0', 'progress weighs the estimate');
select is(pg_temp.stand('tachtig'), 'aandacht nodig', 'exactly 80% of the elapsed share: aandacht nodig');
select is(pg_temp.stand('onder tachtig'), 'loopt achter', 'below 80% of the elapsed share: loopt achter');
select is(pg_temp.stand('vervallen telt niet'), 'op koers', 'a vervallen task does not count');
select is(pg_temp.stand('alleen vervallen'), 'geen taken', 'only vervallen tasks: geen taken');
select is(pg_temp.stand('leeg'), 'geen taken', 'no tasks: geen taken');
select is(pg_temp.stand('later'), 'nog niet gestart', 'start in the future: nog niet gestart');
select is(pg_temp.stand('verlopen'), 'loopt achter', 'past its deadline and not complete: loopt achter (90% done)');
select is(pg_temp.stand('subtaak telt binnen ouder'), 'loopt achter', 'a done subtask counts inside its open parent');
select is(pg_temp.veld('grootte weegt', 'voortgang'), '23.5', 'sizes weigh klein 2, middel 8, groot 24, none 2: 8 of 34');
select is(pg_temp.veld('okr', 'voortgang'), '75.0', 'OKR progress is the mean of its key results, each at most 100%');
select is(pg_temp.stand('okr'), 'op koers', 'an OKR has a stand from its key results');
select is(pg_temp.stand('okr zonder kernresultaat'), 'geen taken', 'an OKR without key results: geen taken');

-- Quarter boundaries, for a priority that runs the whole quarter.
insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start) values (:'org', 'rock', 'kwartaal', :'e', '2026-04-01') returning id as kw \gset
select tests.taak(:'org', :'kw', 'open', 2);
set local koers.nu = '2026-03-31T22:00:00Z';  -- 1 April 00:00 Amsterdam: the first moment
select is(pg_temp.veld('kwartaal', 'verstreken'), '0.0', 'on the first day of the quarter no time has passed');
select is(pg_temp.stand('kwartaal'), 'op koers', 'so no progress is still op koers');
set local koers.nu = '2026-03-31T21:59:59Z';
select is(pg_temp.stand('kwartaal'), 'nog niet gestart', 'one second before the quarter: nog niet gestart');
set local koers.nu = '2026-06-30T21:59:59Z';  -- the last second of 30 June
select is(pg_temp.stand('kwartaal'), 'loopt achter', 'on the last day, nothing done: loopt achter');
set local koers.nu = '2026-06-30T22:00:00Z';
select is(pg_temp.veld('kwartaal', 'verstreken'), '100.0', 'after the last day the whole running time has passed');
update app.taken set stand = 'voltooid' where prioriteit_id = :'kw';
select is(pg_temp.stand('kwartaal'), 'op koers', 'and all done is op koers');

-- Filters.
set local koers.nu = '2026-05-05T22:00:00Z';
select is((select count(*)::int from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten', '{}') -> 'prioriteiten')), 14,
  'empty kwartaal is the running quarter (Q2-2026): this world''s 13 plus the fixture rock');
select is(jsonb_array_length(tests.roep(:'org', 'lid', 'prioriteiten', '{"kwartaal": "Q3-2026"}') -> 'prioriteiten'), 0,
  'another quarter has its own priorities');
select is((select array_agg(x ->> 'stand' order by x ->> 'stand') from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten',
  '{"kwartaal": "Q2-2026", "alleen_aandacht": true}') -> 'prioriteiten') x where x ->> 'stand' not in ('aandacht nodig', 'loopt achter')),
  null, 'alleen_aandacht gives only priorities that need attention or lag behind');
select is((select array_agg(x ->> 'titel') from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten',
  '{"kwartaal": "Q2-2026", "team": "verkoop"}') -> 'prioriteiten') x), array['Omzet +10%'], 'team by name, ignoring case');
select is((select count(*)::int from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten',
  '{"kwartaal": "Q2-2026", "team": "geen"}') -> 'prioriteiten')), 13, 'team geen gives the company-wide ones');
select is(tests.fout(:'org', 'lid', 'prioriteiten', '{"team": "Inkoop"}'), 'ongeldige_parameters:team', 'an unknown team is refused');

-- A role that may not read the section sees nothing, even calling the function directly.
insert into app.org_rechten (org_id, operatie, rol, recht)
select :'org', o.naam, 'coach', 'geen' from app.operaties o where o.sectie = 'prioriteiten';
select is(jsonb_array_length(tests.roep(:'org', 'coach', 'prioriteiten', '{"kwartaal": "Q2-2026"}') -> 'prioriteiten'), 0,
  'a refused role sees no priorities (policy)');

-- decisions.md, Figures: past its deadline comes before nothing to measure; all done is 100%
-- whatever the estimates; elapsed time is counted in calendar days of the organisation.
reset role;
set local koers.nu = '2026-05-12T10:00:00Z';  -- after the 10 May deadline of the rocks above
select pg_temp.rock('verlopen zonder taken', '2026-05-01', '2026-05-10');
select pg_temp.rock('verlopen okr zonder kernresultaat', '2026-05-01', '2026-05-10', 'okr');
select is(pg_temp.stand('verlopen zonder taken'), 'loopt achter', 'past its deadline with nothing to measure: loopt achter, not geen taken');
select is(pg_temp.stand('verlopen okr zonder kernresultaat'), 'loopt achter', 'so is an OKR without key results past its deadline');
select ok((select bool_and(x ->> 'titel' in (select y ->> 'titel' from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten',
             '{"kwartaal": "Q2-2026", "alleen_aandacht": true}') -> 'prioriteiten') y))
           from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten', '{"kwartaal": "Q2-2026"}') -> 'prioriteiten') x
           where (x ->> 'deadline')::date < date '2026-05-12' and not (x ->> 'afgerond')::boolean
             and (x ->> 'voortgang')::numeric < 100),
  'alleen_aandacht lists every priority past its deadline that is not complete');
select pg_temp.rock('nul uren', '2026-05-01', '2026-05-31') as nul \gset
select tests.taak(:'org', :'nul', 'voltooid', 0), tests.taak(:'org', :'nul', 'voltooid', 0);
select is(pg_temp.veld('nul uren', 'voortgang'), '100.0', 'all counting tasks done is 100%, also when they are estimated at 0 hours');
select is(pg_temp.stand('nul uren'), 'op koers', 'and op koers');

-- Q4-2026 (1 October to 31 December, 92 days) has a change from summer time on 25 October.
-- At 16 November 00:00 in Amsterdam exactly 46 calendar days, half of it, have passed.
insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start) values (:'org', 'rock', 'half Q4', :'e', '2026-10-01') returning id as q4 \gset
select tests.taak(:'org', :'q4', 'voltooid', 5), tests.taak(:'org', :'q4', 'open', 5);
set local koers.nu = '2026-11-15T23:00:00Z';
select is(pg_temp.veld('half Q4', 'verstreken', '{"kwartaal": "Q4-2026"}'), '50.0', 'elapsed share counts calendar days: 46 of 92 across the clock change');
select is(pg_temp.stand('half Q4', '{"kwartaal": "Q4-2026"}'), 'op koers', 'so 50% progress on 16 November is op koers');
set local koers.nu = '2026-11-15T23:00:01Z';
select is(pg_temp.stand('half Q4', '{"kwartaal": "Q4-2026"}'), 'aandacht nodig', 'one second later it needs attention');

select is(tests.fout(:'org', 'lid', 'prioriteiten', '{"kwartaal": "Q1-0000"}'), 'ongeldige_parameters:kwartaal', 'quarter Q1-0000 is refused by name');

-- A rock's task sums are stored (app_hidden.prioriteit_sommen) and kept by the triggers of
-- app.taken: after every kind of change they are what a count over the tasks gives.
reset role;
create function pg_temp.sommen_kloppen(_org uuid) returns boolean language sql as $$
  select not exists (
    select p.id from app.prioriteiten p
    left join app_hidden.prioriteit_sommen s on s.org = p.org_id and s.prioriteit = p.id
    left join lateral (
      select count(*)::int as aantal, (count(*) filter (where x.stand = 'voltooid'))::int as klaar,
             coalesce(sum(app_hidden.taak_gewicht(x.inschatting_uren, app_hidden.grootte_uren(x.grootte))), 0) as gewicht,
             coalesce(sum(app_hidden.taak_gewicht(x.inschatting_uren, app_hidden.grootte_uren(x.grootte)))
                        filter (where x.stand = 'voltooid'), 0) as gewicht_klaar
      from app.taken x where x.org_id = p.org_id and x.prioriteit_id = p.id and x.ouder_id is null
        and x.stand <> 'vervallen' and x.verwijderd_op is null) t on true
    where p.org_id = _org
      and (coalesce(s.aantal, 0), coalesce(s.klaar, 0), coalesce(s.gewicht, 0), coalesce(s.gewicht_klaar, 0))
          is distinct from (t.aantal, t.klaar, t.gewicht, t.gewicht_klaar))
$$;
select ok(pg_temp.sommen_kloppen(:'org'), 'the stored task sums of every priority are those of its tasks');
select tests.taak(:'org', :'q4', 'open', 10) as extra \gset
update app.taken set stand = 'voltooid' where id = :'extra';
select is(pg_temp.veld('half Q4', 'voortgang', '{"kwartaal": "Q4-2026"}'), '75.0', 'a task ticked off counts at once: 15 of 20 hours');
update app.taken set inschatting_uren = 30 where id = :'extra';
select is(pg_temp.veld('half Q4', 'voortgang', '{"kwartaal": "Q4-2026"}'), '87.5', 'so does a new estimate: 35 of 40 hours');
update app.taken set prioriteit_id = :'kw' where id = :'extra';
select is(pg_temp.veld('half Q4', 'voortgang', '{"kwartaal": "Q4-2026"}'), '50.0', 'a task moved to another priority leaves the first');
update app.taken set verwijderd_op = now() where prioriteit_id = :'kw' and stand = 'voltooid' and inschatting_uren = 2;
update app.taken set stand = 'vervallen' where id = (select id from app.taken where prioriteit_id = :'q4' and stand = 'open');
update app.taken set ouder_id = (select id from app.taken where prioriteit_id = :'q4' limit 1)
where id = (select id from app.taken where prioriteit_id = :'sub' and stand = 'open' and grootte = 'klein');
select id as groot from app.taken where prioriteit_id = :'grootte' and grootte = 'groot' \gset
delete from app.taak_geschiedenis where taak_id = :'groot';
delete from app.taken where id = :'groot';
select ok(pg_temp.sommen_kloppen(:'org'), 'after deletions, vervallen tasks, a new parent and a task removed they still are');
select is(pg_temp.veld('half Q4', 'voortgang', '{"kwartaal": "Q4-2026"}'), '100.0', 'a vervallen task leaves the weight: all that counts is done');
select is(pg_temp.veld('grootte weegt', 'voortgang', '{"kwartaal": "Q2-2026"}'), '80.0', 'a removed task leaves it too: 8 of 10');

select * from finish();
rollback;
