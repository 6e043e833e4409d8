-- More of what the interface says happens "in the app", for the CLI: teams, processes and their
-- role seats, changing a member, submitting a reflection, writing hours, measuring the company
-- valuation, recording a review conversation, establishing a session note, and approving or
-- rejecting a strategy proposal. Each establishes its caller with beheer.namens, so the call
-- log has a row (door app) and task history names the person; bad input is refused by
-- parameter (the CLI flag without its dashes). Nothing here is granted to the doors.

-- A value of a list (app.keuzes), or a refusal that lists the allowed values.
create function beheer.keuze(_lijst text, _waarde text, _parameter text) returns text
language plpgsql stable set search_path = '' as $$
begin
  if _waarde is null or not _waarde = any (app_hidden.keuzes(_lijst)) then
    perform app_hidden.ongeldig(_parameter, format('%s moet een van %s zijn.', _parameter,
      array_to_string(app_hidden.keuzes(_lijst), ', ')));
  end if;
  return _waarde;
end
$$;

-- Required text: trimmed, not empty.
create function beheer.tekst(_waarde text, _parameter text) returns text
language plpgsql immutable set search_path = '' as $$
begin
  if nullif(trim(_waarde), '') is null then
    perform app_hidden.ongeldig(_parameter, format('%s is verplicht.', _parameter));
  end if;
  return trim(_waarde);
end
$$;

-- A reflection period as the interface spells it for its kind: maand <yyyy>-<mm>, kwartaal
-- Q<n>-<yyyy>, jaar <yyyy>. Gives the label as app.reflecties stores it (2026-05, 2026-Q2,
-- 2026) and the period's first day; both null when the text is no such period. Never raises.
create function beheer.reflectie_periode(_soort text, _periode text, out label text, out van date)
language plpgsql immutable set search_path = '' as $$
begin
  if _soort in ('maand', 'kwartaal', 'jaar') then van := app_hidden.periode_begin(_soort, _periode); end if;
  label := case when van is null then null when _soort = 'kwartaal' then to_char(van, 'YYYY-"Q"Q') else _periode end;
end
$$;

-- A valuation period: a month <yyyy>-<mm>, a quarter Q<n>-<yyyy> or a year <yyyy>, and its
-- first day; null when the text is none of these. Never raises.
create function beheer.waardering_periode(_periode text) returns date
language plpgsql immutable set search_path = '' as $$
begin
  return coalesce(app_hidden.periode_begin('maand', _periode), app_hidden.periode_begin('kwartaal', _periode),
                  app_hidden.periode_begin('jaar', _periode));
end
$$;

-- What is wrong with a reflection's period for its kind, or null: the rule the CLI and the
-- import share (the doors' is app_hidden.param_reflectie_periode).
create function beheer.reflectie_periode_fout(_soort text, _periode text, _vandaag date) returns text
language sql immutable as $$
  select case
    when p.van is null then format('periode past niet bij soort %s: gebruik %s.', _soort,
      case _soort when 'maand' then '<jjjj>-<mm>' when 'kwartaal' then 'Q<n>-<jjjj>' else '<jjjj>' end)
    when p.van > _vandaag then format('Periode %s is nog niet begonnen.', _periode) end
  from beheer.reflectie_periode(_soort, _periode) p
$$;

-- What is wrong with a valuation's period, or null: the rule the CLI and the import share.
create function beheer.waardering_periode_fout(_periode text, _vandaag date) returns text
language sql immutable as $$
  select case
    when beheer.waardering_periode(_periode) is null
      then 'periode moet een maand (2026-05), een kwartaal (Q2-2026) of een jaar (2026) zijn.'
    when beheer.waardering_periode(_periode) > _vandaag then format('Periode %s is nog niet begonnen.', _periode) end
$$;

-- Teams, processes, role seats, members ------------------------------------------------------

create function beheer.team_maken(_org uuid, _naam text, _leider text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  teamnaam text := beheer.tekst(_naam, 'naam');
  leider uuid;
  id uuid;
begin
  perform beheer.namens(_org, null, 'team_maken', jsonb_build_object('naam', _naam, 'leider', _leider));
  if _leider is not null then leider := beheer.lid(_org, _leider, 'leider', true); end if;
  -- Two at once with the same name: the second finds the first's team and is refused.
  insert into app.teams (org_id, naam, leider_user_id) values (_org, teamnaam, leider)
  on conflict (org_id, lower(naam)) do nothing returning teams.id into id;
  if id is null then
    perform app_hidden.ongeldig('naam', format('Team %s bestaat al.', teamnaam));
  end if;
  return jsonb_build_object('id', id, 'naam', teamnaam, 'leider', app_hidden.persoon(_org, leider));
end
$$;

create function beheer.proces_maken(_org uuid, _naam text, _eindverantwoordelijke text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  procesnaam text := beheer.tekst(_naam, 'naam');
  wie uuid;
  p app.processen;
begin
  perform beheer.namens(_org, null, 'proces_maken', jsonb_build_object('naam', _naam, 'eindverantwoordelijke', _eindverantwoordelijke));
  wie := beheer.lid(_org, beheer.tekst(_eindverantwoordelijke, 'eindverantwoordelijke'), 'eindverantwoordelijke', true);
  -- Process names are unique per organisation (no index says so: the lock does).
  perform app_hidden.vergrendel('proces', _org::text);
  if exists (select 1 from app.processen x where x.org_id = _org and lower(x.naam) = lower(procesnaam)) then
    perform app_hidden.ongeldig('naam', format('Proces %s bestaat al.', procesnaam));
  end if;
  insert into app.processen (org_id, naam, eindverantwoordelijke_user_id, volgorde)
  values (_org, procesnaam, wie, coalesce((select max(x.volgorde) + 1 from app.processen x where x.org_id = _org), 1))
  returning * into p;
  return jsonb_build_object('id', p.id, 'naam', p.naam, 'volgorde', p.volgorde,
    'eindverantwoordelijke', app_hidden.persoon(_org, wie));
end
$$;

create function beheer.rol_maken(_org uuid, _proces text, _naam text, _wie text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  rolnaam text := beheer.tekst(_naam, 'naam');
  procesnaam text := beheer.tekst(_proces, 'proces');
  proces uuid;
  wie uuid;
  id uuid;
begin
  perform beheer.namens(_org, null, 'rol_maken', jsonb_build_object('proces', _proces, 'naam', _naam, 'wie', _wie));
  proces := beheer.proces(_org, procesnaam);
  if _wie is not null then wie := beheer.lid(_org, _wie, 'wie', true); end if;
  perform app_hidden.vergrendel('rol', _org::text, proces::text);
  if exists (select 1 from app.rollen r where r.org_id = _org and r.proces_id = proces and lower(r.naam) = lower(rolnaam)) then
    perform app_hidden.ongeldig('naam', format('Rol %s bestaat al in dit proces.', rolnaam));
  end if;
  insert into app.rollen (org_id, proces_id, naam, user_id) values (_org, proces, rolnaam, wie)
  returning rollen.id into id;
  return jsonb_build_object('id', id, 'naam', rolnaam, 'wie', app_hidden.persoon(_org, wie),
    'proces', (select jsonb_build_object('id', p.id, 'naam', p.naam) from app.processen p
               where p.org_id = _org and p.id = proces));
end
$$;

-- Changes what is given (null leaves a field as it is): role, team ('geen' removes it), job
-- title (empty removes it), active. An organisation keeps at least one active owner.
create function beheer.lid_wijzigen(_org uuid, _user text, _rol text default null, _team text default null,
                                    _functietitel text default null, _actief boolean default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  wie uuid := beheer.lid(_org, _user);
  l app.lidmaatschappen;
  nieuw app.lidmaatschappen;
begin
  perform beheer.namens(_org, null, 'lid_wijzigen', jsonb_build_object('user', _user, 'rol', _rol, 'team', _team,
    'functietitel', _functietitel, 'actief', _actief));
  if _rol is null and _team is null and _functietitel is null and _actief is null then
    perform app_hidden.ongeldig('user', 'Geef minstens één wijziging: rol, team, functietitel of actief.');
  end if;
  -- Serialises changes to who owns the organisation, so two demotions at once leave one owner.
  perform app_hidden.vergrendel('eigenaren', _org::text);
  select * into l from app.lidmaatschappen x where x.org_id = _org and x.user_id = wie for update;
  nieuw := l;
  if _rol is not null then nieuw.rol := beheer.keuze('rol', trim(_rol), 'rol'); end if;
  -- A team by name or id, as the doors look one up; 'geen' (no team) is null.
  if _team is not null then
    nieuw.team_id := nullif(app_hidden.param_verwijzing(jsonb_build_object('team', trim(_team)), 'team', 'team'),
                            '00000000-0000-0000-0000-000000000000');
  end if;
  if _functietitel is not null then nieuw.functietitel := nullif(trim(_functietitel), ''); end if;
  if _actief is not null then nieuw.actief := _actief; end if;
  if l.rol = 'eigenaar' and l.actief and not (nieuw.rol = 'eigenaar' and nieuw.actief)
     and not exists (select 1 from app.lidmaatschappen x where x.org_id = _org and x.user_id <> wie
                     and x.rol = 'eigenaar' and x.actief) then
    perform app_hidden.ongeldig(case when nieuw.rol <> 'eigenaar' then 'rol' else 'actief' end,
      format('%s is de enige actieve eigenaar; maak eerst een ander eigenaar.', app_hidden.persoon(_org, wie) ->> 'naam'));
  end if;
  update app.lidmaatschappen x set rol = nieuw.rol, team_id = nieuw.team_id, functietitel = nieuw.functietitel,
    actief = nieuw.actief
  where x.org_id = _org and x.user_id = wie
    and (x.rol, x.team_id, x.functietitel, x.actief) is distinct from (nieuw.rol, nieuw.team_id, nieuw.functietitel, nieuw.actief);
  return app_hidden.persoon(_org, wie) || jsonb_build_object('rol', nieuw.rol, 'functietitel', nieuw.functietitel,
    'team', (select jsonb_build_object('id', t.id, 'naam', t.naam) from app.teams t where t.org_id = _org and t.id = nieuw.team_id),
    'actief', nieuw.actief);
end
$$;

-- Reviews, hours, finance ---------------------------------------------------------------------

-- One reflection per person, kind and period: submitting it again replaces the text and counts
-- as submitted anew (ingediend_op moves). A period that has not begun is refused. The content
-- never reaches the call log.
create function beheer.reflectie_indienen(_org uuid, _user text, _soort text, _periode text, _goed text, _beter text,
                                          _geleerd text, _focus text, _energie integer) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  wie uuid;
  gekozen text;
  per record;
  oud app.reflecties;
  r app.reflecties;
begin
  perform beheer.namens(_org, beheer.tekst(_user, 'user'), 'reflectie_indienen',
                        jsonb_build_object('soort', _soort, 'periode', _periode));
  wie := app_hidden.huidige_gebruiker();
  gekozen := beheer.keuze('reflectie_soort', trim(_soort), 'soort');
  per := beheer.reflectie_periode(gekozen, trim(_periode));
  if beheer.reflectie_periode_fout(gekozen, trim(_periode), app_hidden.vandaag(_org)) is not null then
    perform app_hidden.ongeldig('periode', beheer.reflectie_periode_fout(gekozen, trim(_periode), app_hidden.vandaag(_org)));
  end if;
  if _energie is null or _energie not between 1 and 10 then
    perform app_hidden.regel_weigeren('reflecties_energie');
  end if;
  perform app_hidden.vergrendel('reflectie', _org::text, wie::text, gekozen, per.label);
  select * into oud from app.reflecties x where x.org_id = _org and x.user_id = wie and x.soort = gekozen and x.periode = per.label;
  insert into app.reflecties as x (org_id, user_id, soort, periode, goed, beter, geleerd, focus, energie, ingediend_op)
  values (_org, wie, gekozen, per.label, beheer.tekst(_goed, 'goed'), beheer.tekst(_beter, 'beter'),
          beheer.tekst(_geleerd, 'geleerd'), beheer.tekst(_focus, 'focus'), _energie, app_hidden.nu())
  on conflict (org_id, user_id, soort, periode) do update
    set goed = excluded.goed, beter = excluded.beter, geleerd = excluded.geleerd, focus = excluded.focus,
        energie = excluded.energie, ingediend_op = excluded.ingediend_op
  returning * into r;
  return jsonb_build_object('id', r.id, 'wie', app_hidden.persoon(_org, wie), 'soort', r.soort,
    'periode', app_hidden.reflectie_periode_label(r.periode), 'energie', r.energie, 'ingediend_op', r.ingediend_op,
    'overschreven', oud.id is not null);
end
$$;

-- Hours of one person on one day, for a task (by number), a priority, a project, or nothing in
-- particular. Not in the future, and at most 24 hours a day per person.
create function beheer.uren_schrijven(_org uuid, _user text, _datum text, _uren numeric, _taak integer default null,
                                      _prioriteit uuid default null, _project uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  p jsonb := jsonb_strip_nulls(jsonb_build_object('datum', _datum, 'uren', _uren, 'taak', _taak,
                                                  'prioriteit', _prioriteit, 'project', _project));
  wie uuid;
  dag date;
  taak uuid; prioriteit uuid; project uuid;
  totaal numeric;
  id uuid;
begin
  perform beheer.namens(_org, beheer.tekst(_user, 'user'), 'uren_schrijven', p);
  wie := app_hidden.huidige_gebruiker();
  dag := app_hidden.param_datum(p, 'datum');
  if dag is null then perform app_hidden.ongeldig('datum', 'datum is verplicht.'); end if;
  if dag > app_hidden.vandaag(_org) then
    perform app_hidden.ongeldig('datum', format('%s ligt in de toekomst; schrijf uren als ze gemaakt zijn.', dag));
  end if;
  if _uren is null or _uren <= 0 or _uren > 24 then
    perform app_hidden.ongeldig('uren', 'uren moet meer dan 0 en hoogstens 24 zijn.');
  end if;
  if num_nonnulls(_taak, _prioriteit, _project) > 1 then
    perform app_hidden.ongeldig(case when _project is not null then 'project' else 'prioriteit' end,
      (app_hidden.regel('uren_een_onderwerp')).bericht);
  end if;
  taak := app_hidden.param_verwijzing(p, 'taak', 'taaknummer');
  prioriteit := app_hidden.param_verwijzing(p, 'prioriteit', 'prioriteit');
  project := app_hidden.param_verwijzing(p, 'project', 'project');
  perform app_hidden.vergrendel('uren', _org::text, wie::text, dag::text);
  select coalesce(sum(u.uren), 0) + _uren into totaal from app.uren u where u.org_id = _org and u.user_id = wie and u.datum = dag;
  if totaal > 24 then
    perform app_hidden.ongeldig('uren', format('Daarmee komt %s op %s uur op %s; een dag heeft er 24.',
      app_hidden.persoon(_org, wie) ->> 'naam', totaal, dag));
  end if;
  insert into app.uren (org_id, user_id, datum, uren, taak_id, prioriteit_id, project_id, aangemaakt_op)
  values (_org, wie, dag, _uren, taak, prioriteit, project, app_hidden.nu()) returning uren.id into id;
  return jsonb_build_object('id', id, 'wie', app_hidden.persoon(_org, wie), 'datum', dag, 'uren', _uren,
    'taak', (select jsonb_build_object('nummer', t.nummer, 'omschrijving', t.omschrijving) from app.taken t
             where t.org_id = _org and t.id = taak),
    'prioriteit', (select jsonb_build_object('id', x.id, 'titel', x.titel) from app.prioriteiten x
                   where x.org_id = _org and x.id = prioriteit),
    'project', (select jsonb_build_object('id', x.id, 'titel', x.titel) from app.projecten x
                where x.org_id = _org and x.id = project),
    'dag_totaal', totaal);
end
$$;

-- One valuation per period. Without figures it is an open invitation to the bookkeeper; with
-- them (all four) it stores the figures as measured now, filling an invitation or replacing
-- earlier figures of that period. Measuring a period that has figures without figures is refused.
create function beheer.waardering_meten(_org uuid, _periode text, _omzet numeric default null,
                                        _ebitda numeric default null, _multiple numeric default null,
                                        _aandelenwaarde numeric default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  label text := beheer.tekst(_periode, 'periode');
  cijfers boolean := num_nonnulls(_omzet, _ebitda, _multiple, _aandelenwaarde) > 0;
  oud app.waarderingen;
  w app.waarderingen;
begin
  perform beheer.namens(_org, null, 'waardering_meten', jsonb_build_object('periode', _periode, 'omzet', _omzet,
    'ebitda', _ebitda, 'multiple', _multiple, 'aandelenwaarde', _aandelenwaarde));
  if beheer.waardering_periode_fout(label, app_hidden.vandaag(_org)) is not null then
    perform app_hidden.ongeldig('periode', beheer.waardering_periode_fout(label, app_hidden.vandaag(_org)));
  end if;
  if cijfers and num_nulls(_omzet, _ebitda, _multiple, _aandelenwaarde) > 0 then
    perform app_hidden.ongeldig(case when _omzet is null then 'omzet' when _ebitda is null then 'ebitda'
                                     when _multiple is null then 'multiple' else 'aandelenwaarde' end,
      'Geef omzet, ebitda, multiple en aandelenwaarde samen, of geen van vieren (een open uitnodiging).');
  end if;
  perform app_hidden.vergrendel('waardering', _org::text, label);
  select * into oud from app.waarderingen x where x.org_id = _org and x.periode = label
  order by x.gemeten_op desc, x.id limit 1 for update;
  if oud.id is not null and not cijfers and oud.omzet is not null then
    perform app_hidden.ongeldig('periode', format('Voor %s zijn al cijfers gemeten; geef nieuwe cijfers om ze te vervangen.', label));
  end if;
  if oud.id is null then
    insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op)
    values (_org, label, _omzet, _ebitda, _multiple, _aandelenwaarde, app_hidden.nu()) returning * into w;
  else
    update app.waarderingen x set omzet = _omzet, genormaliseerde_ebitda = _ebitda, multiple = _multiple,
      aandelenwaarde = _aandelenwaarde, gemeten_op = app_hidden.nu()
    where x.org_id = _org and x.id = oud.id returning * into w;
  end if;
  return jsonb_build_object('id', w.id, 'periode', w.periode, 'omzet', w.omzet,
    'genormaliseerde_ebitda', w.genormaliseerde_ebitda, 'multiple', w.multiple, 'aandelenwaarde', w.aandelenwaarde,
    'gemeten_op', w.gemeten_op, 'open_uitnodiging', not cijfers, 'overschreven', oud.id is not null);
end
$$;

-- A review conversation about one person (wie) led by another (met). The same people, kind
-- and date again is the same conversation: recording it again updates completed and the final
-- classification, which belongs to a completed conversation only.
create function beheer.gesprek_vastleggen(_org uuid, _wie text, _met text, _soort text, _datum text,
                                          _afgerond boolean default false, _eindoordeel text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  wie uuid; met uuid; gekozen text; dag date; eindoordeel text;
  oud app.gesprekken;
  g app.gesprekken;
begin
  perform beheer.namens(_org, null, 'gesprek_vastleggen', jsonb_build_object('wie', _wie, 'met', _met,
    'soort', _soort, 'datum', _datum, 'afgerond', _afgerond, 'eindoordeel', _eindoordeel));
  wie := beheer.lid(_org, beheer.tekst(_wie, 'wie'), 'wie', true);
  met := beheer.lid(_org, beheer.tekst(_met, 'met'), 'met', true);
  if wie = met then
    perform app_hidden.regel_weigeren('gesprekken_met_een_ander');
  end if;
  gekozen := beheer.keuze('gesprek_soort', trim(_soort), 'soort');
  dag := app_hidden.param_datum(jsonb_build_object('datum', trim(_datum)), 'datum');
  if dag is null then perform app_hidden.ongeldig('datum', 'datum is verplicht.'); end if;
  if _eindoordeel is not null then
    eindoordeel := beheer.keuze('eindclassificatie', upper(trim(_eindoordeel)), 'eindoordeel');
    if not coalesce(_afgerond, false) then
      perform app_hidden.ongeldig('eindoordeel', 'Een eindoordeel hoort bij een afgerond gesprek; geef ook afgerond.');
    end if;
  end if;
  perform app_hidden.vergrendel('gesprek', _org::text, wie::text, met::text, gekozen, dag::text);
  select * into oud from app.gesprekken x where x.org_id = _org and x.medewerker_user_id = wie and x.leider_user_id = met
    and x.soort = gekozen and x.datum = dag order by x.id limit 1;
  if oud.id is null then
    insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie)
    values (_org, wie, met, gekozen, dag, coalesce(_afgerond, false), eindoordeel) returning * into g;
  else
    update app.gesprekken x set afgerond = coalesce(_afgerond, false), eindclassificatie = eindoordeel
    where x.org_id = _org and x.id = oud.id returning * into g;
  end if;
  return jsonb_build_object('id', g.id, 'wie', app_hidden.persoon(_org, wie), 'met', app_hidden.persoon(_org, met),
    'soort', g.soort, 'datum', g.datum, 'afgerond', g.afgerond, 'eindoordeel', g.eindclassificatie,
    'bijgewerkt', oud.id is not null);
end
$$;

-- Coaching and strategy ------------------------------------------------------------------------

-- The coach reviews a concept note and establishes it; from then on the client sees it. _user:
-- the coach, named in the log (the pages, /app/sessienotities); the CLI acts as the app.
create function beheer.sessienotitie_vaststellen(_org uuid, _id uuid, _user text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare n app.sessienotities;
begin
  perform beheer.namens(_org, _user, 'sessienotitie_vaststellen', jsonb_build_object('id', _id));
  select * into n from app.sessienotities x where x.org_id = _org and x.id = _id for update;
  if n.id is null then
    perform app_hidden.ongeldig('id', format('Sessienotitie %s bestaat niet.', _id));
  elsif n.status <> 'concept' then
    perform app_hidden.ongeldig('id', format('Sessienotitie %s is al vastgesteld (%s).', _id, n.vastgesteld_op));
  end if;
  update app.sessienotities x set status = 'vastgesteld', vastgesteld_op = app_hidden.nu()
  where x.org_id = _org and x.id = _id returning * into n;
  return jsonb_build_object('id', n.id, 'datum', n.datum, 'titel', n.titel, 'soort', n.soort, 'status', n.status,
    'vastgesteld_op', n.vastgesteld_op);
end
$$;

-- The text a proposal gives a canvas field: its new text, whether the proposal stores the text
-- itself or a field of a proposal ({"nu": ..., "wordt": ...}).
create function beheer.strategie_tekst(_waarde jsonb) returns text
language sql immutable parallel safe as $$
  select case when jsonb_typeof(_waarde) = 'object' then _waarde ->> 'wordt' else _waarde #>> '{}' end
$$;

-- Approving or rejecting an open strategy proposal. Approving writes the proposal's fields to
-- the canvas (a field the proposal does not name stays). The reviewer, when named, has a role
-- that may propose strategy (strategie_bijwerken: owner, admin or MT by default).
create function beheer.strategie_beoordelen(_org uuid, _id uuid, _goedkeuren boolean, _user text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  v app.strategie_voorstellen;
  wie uuid;
  nieuwe_velden jsonb;
begin
  perform beheer.namens(_org, _user, case when _goedkeuren then 'strategie_goedkeuren' else 'strategie_afwijzen' end,
                        jsonb_build_object('id', _id));
  wie := app_hidden.huidige_gebruiker();
  if wie is not null and app_hidden.recht(_org, (select l.rol from app.lidmaatschappen l where l.org_id = _org and l.user_id = wie),
                                           'strategie_bijwerken') = 'geen' then
    perform app_hidden.ongeldig('user', format('Alleen een %s beoordeelt een strategievoorstel.',
      (select string_agg(r, ', ') from unnest(app_hidden.keuzes('rol')) r
       where app_hidden.recht(_org, r, 'strategie_bijwerken') <> 'geen')));
  end if;
  select * into v from app.strategie_voorstellen x where x.org_id = _org and x.id = _id for update;
  if v.id is null then
    perform app_hidden.ongeldig('id', format('Strategievoorstel %s bestaat niet.', _id));
  elsif v.status <> 'open' then
    perform app_hidden.ongeldig('id', format('Strategievoorstel %s is al %s.', _id, v.status));
  end if;
  if _goedkeuren then
    select coalesce(jsonb_object_agg(k, beheer.strategie_tekst(v.velden -> k)), '{}') into nieuwe_velden
    from jsonb_object_keys(v.velden) k where k = any (app_hidden.keuzes('strategie_veld'));
    insert into app.strategie (org_id, bijgewerkt_op) values (_org, app_hidden.nu()) on conflict (org_id) do nothing;
    if nieuwe_velden <> '{}' then
      -- The columns are the canvas fields named by the proposal (checked against the list above).
      execute format('update app.strategie s set %s, bijgewerkt_op = $2 where s.org_id = $1',
        (select string_agg(format('%I = $3 ->> %L', k, k), ', ') from jsonb_object_keys(nieuwe_velden) k))
      using _org, app_hidden.nu(), nieuwe_velden;
    end if;
  end if;
  update app.strategie_voorstellen x set status = case when _goedkeuren then 'goedgekeurd' else 'afgewezen' end,
    beoordeeld_door = wie, beoordeeld_op = app_hidden.nu()
  where x.org_id = _org and x.id = _id returning * into v;
  return jsonb_build_object('id', v.id, 'status', v.status, 'beoordeeld_door', app_hidden.persoon(_org, wie),
    'beoordeeld_op', v.beoordeeld_op, 'velden', coalesce(nieuwe_velden, '{}'));
end
$$;
