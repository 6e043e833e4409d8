-- koers import, checking (db/910_import_lezen.sql unpacked the file): every fault with its place
-- in the file, one function per kind of item, called in the order below because an identity
-- builds on another (a task's on its priority's or project's, hours' on their task's). They
-- resolve references and identities in the working tables and write nothing else.
--
-- The import does not call the api.* write functions: those act for a caller through a door in
-- two steps, refuse at the first fault, and judge live input (a deadline not before today, a
-- period not closed, an active member), where a file holds history and every fault is reported
-- at its place at once. So the rules both need are shared through one helper each, which the
-- operations, the CLI and the import call: a period (app_hidden.periode_begin,
-- app_hidden.param_kpi_periode via imp_kpi_periode, beheer.reflectie_periode_fout,
-- beheer.waardering_periode_fout), an ISO week (app_hidden.week_maandag), the rules of the data
-- model and their messages (app_hidden.regel), a member and a team (beheer.lid_vinden,
-- beheer.team_vinden), a value list (app_hidden.keuzes).

-- People and teams: each once; every reference names someone of the file or a member, a team of
-- the file or one that exists; an active owner stays.
create function beheer.imp_controleren_mensen(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  -- People: each once; every reference names someone in the file or a member.
  insert into pg_temp.imp_fouten
  select x.pad || '/email', format('%s staat al in het bestand op %s.', x.email_tekst, e.eerste)
  from pg_temp.imp_mensen x join beheer.imp_dubbel('imp_mensen', 't.email') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select r.pad, format('%s staat niet in mensen en is geen lid van deze organisatie.', r.email)
  from (select pad || '/leider' as pad, leider as email from pg_temp.imp_teams
        union all select pad || '/eindverantwoordelijke', eindverantwoordelijke from pg_temp.imp_processen
        union all select pad || '/wie', wie from pg_temp.imp_rollen
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_projecten
        union all select p.pad || '/leden/' || (l.n - 1), lower(l.e) from pg_temp.imp_projecten p,
                  jsonb_array_elements_text(coalesce(p.leden, '[]')) with ordinality l (e, n)
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_prioriteiten
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_kpis
        union all select pad || '/door', door from pg_temp.imp_metingen
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_taken
        union all select pad || '/aangemaakt_door', aangemaakt_door from pg_temp.imp_taken
        union all select pad || '/door', door from pg_temp.imp_opmerkingen
        union all select pad || '/wie', wie from pg_temp.imp_uren
        union all select pad || '/wie', wie from pg_temp.imp_weektaken
        union all select pad || '/wie', wie from pg_temp.imp_reflecties
        union all select pad || '/wie', wie from pg_temp.imp_gesprekken
        union all select pad || '/met', met from pg_temp.imp_gesprekken
        union all select pad || '/geschreven_door', geschreven_door from pg_temp.imp_sessienotities
        union all select pad || '/eigenaar', eigenaar from pg_temp.imp_actiepunten) r
  where r.email is not null
    and not exists (select 1 from pg_temp.imp_mensen m where m.email = r.email)
    and beheer.lid_vinden(_org, r.email) is null;
  -- An organisation with an active owner keeps one.
  if exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.rol = 'eigenaar' and l.actief)
     and not exists (
       select 1 from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
       where l.org_id = _org and l.rol = 'eigenaar' and l.actief
         and not exists (select 1 from pg_temp.imp_mensen m where m.email = lower(a.email)
                         and (m.rol is distinct from 'eigenaar' or m.actief is false))
       union all
       select 1 from pg_temp.imp_mensen m where m.rol = 'eigenaar' and m.actief is not false) then
    insert into pg_temp.imp_fouten values ('/mensen', 'Na de import heeft de organisatie geen actieve eigenaar meer.');
  end if;

  -- Teams: each once; a team named elsewhere is in the file or exists.
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Team %s staat al in het bestand op %s.', x.naam, e.eerste)
  from pg_temp.imp_teams x join beheer.imp_dubbel('imp_teams', 'lower(t.naam)') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select r.pad, format('Team %s staat niet in teams en bestaat niet in deze organisatie.', r.naam)
  from (select pad || '/team' as pad, team as naam from pg_temp.imp_mensen
        union all select pad || '/team', team from pg_temp.imp_prioriteiten
        union all select pad || '/team', team from pg_temp.imp_kpis) r
  where r.naam is not null
    and not exists (select 1 from pg_temp.imp_teams t where lower(t.naam) = lower(r.naam))
    and beheer.team_vinden(_org, r.naam) is null;
end
$$;

-- Processes and their role seats.
create function beheer.imp_controleren_processen(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  -- Processes and their role seats: names once each.
  update pg_temp.imp_processen set ident = 'n:' || lower(naam) where naam is not null;
  update pg_temp.imp_rollen r set ident = p.ident || '/' || lower(r.naam)
  from pg_temp.imp_processen p where p.pad = r.proces_pad and r.naam is not null;
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Proces %s staat al in het bestand op %s.', x.naam, e.eerste)
  from pg_temp.imp_processen x join beheer.imp_dubbel('imp_processen', 't.ident') e on e.pad = x.pad;
  insert into pg_temp.imp_fouten
  select x.pad || '/naam', format('Rol %s staat al in dit proces op %s.', x.naam, e.eerste)
  from pg_temp.imp_rollen x join beheer.imp_dubbel('imp_rollen', 't.ident') e on e.pad = x.pad;
end
$$;

-- Projects.
create function beheer.imp_controleren_projecten(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
declare
  vandaag date := app_hidden.vandaag(_org);
begin
  update pg_temp.imp_projecten set ident = coalesce('s:' || sleutel, 't:' || lower(titel));
  perform beheer.imp_dubbel_melden('imp_projecten', 'titel',
    'Hetzelfde project als %s (%s); geef elk project een eigen sleutel of titel.', 'zelfde titel');
  perform beheer.imp_geen_datum('imp_projecten', 'startdatum');
  perform beheer.imp_geen_datum('imp_projecten', 'deadline');
  insert into pg_temp.imp_fouten
  select x.pad || '/deadline', format('deadline %s ligt voor de startdatum %s.', x.deadline, coalesce(x.startdatum, vandaag::text))
  from pg_temp.imp_projecten x
  where app_hidden.periode_begin('dag', x.deadline) < coalesce(app_hidden.periode_begin('dag', x.startdatum), vandaag);
end
$$;

-- Priorities and their key results.
create function beheer.imp_controleren_prioriteiten(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  update pg_temp.imp_prioriteiten set ident = coalesce('s:' || sleutel, 't:' || kwartaal || '/' || lower(titel));
  perform beheer.imp_dubbel_melden('imp_prioriteiten', 'titel',
    'Dezelfde prioriteit als %s (%s); geef een van beide een eigen sleutel.', 'zelfde titel in hetzelfde kwartaal');
  insert into pg_temp.imp_fouten
  select x.pad || '/kwartaal', format('%s is geen kwartaal als Q2-2026.', x.kwartaal)
  from pg_temp.imp_prioriteiten x where x.kwartaal is not null and app_hidden.periode_begin('kwartaal', x.kwartaal) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/' || v.veld, case
      when app_hidden.periode_begin('dag', v.waarde) is null then format('%s is geen bestaande datum.', v.waarde)
      else format('%s %s ligt niet in %s (%s tot en met %s).', v.veld, v.waarde, x.kwartaal, q.start,
                  app_hidden.kwartaal_eind(q.start)) end
  from pg_temp.imp_prioriteiten x
  cross join lateral (select app_hidden.periode_begin('kwartaal', x.kwartaal) as start) q
  cross join lateral (values ('startdatum', x.startdatum), ('deadline', x.deadline)) v (veld, waarde)
  where v.waarde is not null
    and (app_hidden.periode_begin('dag', v.waarde) is null
         or (q.start is not null and app_hidden.periode_begin('dag', v.waarde) not between q.start and app_hidden.kwartaal_eind(q.start)));
  insert into pg_temp.imp_fouten
  select x.pad || '/deadline', format('deadline %s ligt voor de startdatum %s.', x.deadline, x.startdatum)
  from pg_temp.imp_prioriteiten x where app_hidden.periode_begin('dag', x.deadline) < app_hidden.periode_begin('dag', x.startdatum);
  insert into pg_temp.imp_fouten
  select min(k.prio_pad) || '/kernresultaten', 'Alleen een OKR heeft kernresultaten; deze prioriteit is een rock.'
  from pg_temp.imp_kernresultaten k join pg_temp.imp_prioriteiten p on p.pad = k.prio_pad
  where p.soort = 'rock' group by k.prio_pad;
  insert into pg_temp.imp_fouten
  select k.pad || '/doel', (app_hidden.regel('kernresultaten_doel_niet_start')).bericht
  from pg_temp.imp_kernresultaten k where k.doel = coalesce(k.start, 0);
  insert into pg_temp.imp_fouten
  select x.pad || '/titel', format('Kernresultaat %s staat al bij deze prioriteit op %s.', x.titel, e.eerste)
  from pg_temp.imp_kernresultaten x join beheer.imp_dubbel('imp_kernresultaten', 't.prio_pad, lower(t.titel)') e on e.pad = x.pad;
end
$$;

-- KPIs, their quarter targets and measurements.
create function beheer.imp_controleren_kpis(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  update pg_temp.imp_kpis set ident = coalesce('s:' || sleutel, 'n:' || lower(naam));
  perform beheer.imp_dubbel_melden('imp_kpis', 'naam',
    'Dezelfde KPI als %s (%s); geef een van beide een eigen sleutel.', 'zelfde naam');
  insert into pg_temp.imp_fouten
  select d.pad || '/kwartaal', format('%s is geen kwartaal als Q2-2026.', d.kwartaal)
  from pg_temp.imp_doelen d where d.kwartaal is not null and app_hidden.periode_begin('kwartaal', d.kwartaal) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/kwartaal', format('Deze KPI heeft al een doel voor %s op %s.', x.kwartaal, e.eerste)
  from pg_temp.imp_doelen x join beheer.imp_dubbel('imp_doelen', 't.kpi_pad, t.kwartaal') e on e.pad = x.pad;
  update pg_temp.imp_metingen m set norm = p.periode, van = p.van, laatste_dag = p.laatste_dag
  from pg_temp.imp_metingen m0 join pg_temp.imp_kpis k on k.pad = m0.kpi_pad,
       beheer.imp_kpi_periode(k.cadans, m0.periode, _org) p
  where m0.nr = m.nr and k.cadans = any (app_hidden.keuzes('cadans')) and m0.periode is not null and p.fout is null;
  insert into pg_temp.imp_fouten
  select m.pad || '/periode', p.fout
  from pg_temp.imp_metingen m join pg_temp.imp_kpis k on k.pad = m.kpi_pad,
       beheer.imp_kpi_periode(k.cadans, m.periode, _org) p
  where k.cadans = any (app_hidden.keuzes('cadans')) and m.periode is not null and p.fout is not null;
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('Deze KPI heeft al een meting voor %s op %s.', x.norm, e.eerste)
  from pg_temp.imp_metingen x join beheer.imp_dubbel('imp_metingen', 't.kpi_pad, t.norm') e on e.pad = x.pad;
end
$$;

-- Resolves a reference of the items of working table _tabel (their column _kolom names a
-- priority or project) to the place in the file (_pad) of the item of _naar it names: by
-- sleutel, else by a title only one item has. Unresolved stays null.
create function beheer.imp_verwijzing_oplossen(_tabel text, _kolom text, _naar text, _pad text) returns void
language plpgsql volatile set search_path = '' as $$
begin
  execute format('update pg_temp.%1$I t set %4$I = coalesce(
      (select p.pad from pg_temp.%3$I p where p.sleutel = t.%2$I order by p.nr limit 1),
      (select min(p.pad) from pg_temp.%3$I p where lower(p.titel) = lower(t.%2$I) having count(*) = 1))
    where t.%2$I is not null', _tabel, _kolom, _naar, _pad);
end
$$;

-- What tasks, hours and weekly-board tasks belong to: a priority or project of the file, by
-- sleutel or by a title that is unique.
create function beheer.imp_controleren_verwijzingen(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  -- Tasks: what they belong to (a priority or project of the file, by sleutel or by a title
  -- that is unique), then their identity, parents before subtasks.
  perform beheer.imp_verwijzing_oplossen('imp_taken', 'prioriteit', 'imp_prioriteiten', 'prio_pad');
  perform beheer.imp_verwijzing_oplossen('imp_taken', 'project', 'imp_projecten', 'project_pad');
  perform beheer.imp_verwijzing_oplossen('imp_uren', 'prioriteit', 'imp_prioriteiten', 'prio_pad');
  perform beheer.imp_verwijzing_oplossen('imp_uren', 'project', 'imp_projecten', 'project_pad');
  perform beheer.imp_verwijzing_oplossen('imp_weektaken', 'prioriteit', 'imp_prioriteiten', 'prio_pad');
  insert into pg_temp.imp_fouten
  select r.pad, case when (select count(*) from pg_temp.imp_prioriteiten p where lower(p.titel) = lower(r.naam)) > 1
      then format('Meer dan één prioriteit heet %s; verwijs met de sleutel.', r.naam)
      else format('Prioriteit %s staat niet in prioriteiten (verwijs met sleutel of titel).', r.naam) end
  from (select pad || '/prioriteit' as pad, prioriteit as naam from pg_temp.imp_taken where prioriteit is not null and prio_pad is null
        union all select pad || '/prioriteit', prioriteit from pg_temp.imp_uren where prioriteit is not null and prio_pad is null
        union all select pad || '/prioriteit', prioriteit from pg_temp.imp_weektaken where prioriteit is not null and prio_pad is null) r;
  insert into pg_temp.imp_fouten
  select r.pad, case when (select count(*) from pg_temp.imp_projecten p where lower(p.titel) = lower(r.naam)) > 1
      then format('Meer dan één project heet %s; verwijs met de sleutel.', r.naam)
      else format('Project %s staat niet in projecten (verwijs met sleutel of titel).', r.naam) end
  from (select pad || '/project' as pad, project as naam from pg_temp.imp_taken where project is not null and project_pad is null
        union all select pad || '/project', project from pg_temp.imp_uren where project is not null and project_pad is null) r;
end
$$;

-- Tasks: their identity, parents before subtasks, and their own rules.
create function beheer.imp_controleren_taken(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  insert into pg_temp.imp_fouten
  select t.pad || '/project', (app_hidden.regel('taken_prioriteit_of_project')).bericht
  from pg_temp.imp_taken t where t.prioriteit is not null and t.project is not null;
  update pg_temp.imp_taken t set ident = coalesce('s:' || t.sleutel,
      case when t.prioriteit is not null then 'p:' || coalesce(p.ident, '?') || '/'
           when t.project is not null then 'j:' || coalesce(j.ident, '?') || '/' else 'l:' end || lower(t.omschrijving))
  from pg_temp.imp_taken t0
  left join pg_temp.imp_prioriteiten p on p.pad = t0.prio_pad
  left join pg_temp.imp_projecten j on j.pad = t0.project_pad
  where t0.nr = t.nr and t.ouder_pad is null;
  update pg_temp.imp_taken t set ident = coalesce('s:' || t.sleutel, 'o:' || o.ident || '/' || lower(t.omschrijving))
  from pg_temp.imp_taken o where o.pad = t.ouder_pad;
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '/omschrijving' end,
    case when x.sleutel is not null then format('Sleutel %s is al gebruikt door de taak op %s.', x.sleutel, e.eerste)
         else format('Dezelfde taak als %s (zelfde omschrijving, en hoort bij hetzelfde); geef een van beide een eigen sleutel.', e.eerste) end
  from pg_temp.imp_taken x join beheer.imp_dubbel('imp_taken', 't.ident') e on e.pad = x.pad
  where x.sleutel is not null or ((x.prioriteit is null or x.prio_pad is not null) and (x.project is null or x.project_pad is not null));
  perform beheer.imp_geen_datum('imp_taken', 'deadline');
  insert into pg_temp.imp_fouten
  select t.pad || '/week', format('%s is geen bestaande ISO-week.', t.week)
  from pg_temp.imp_taken t where t.week is not null and app_hidden.week_maandag(t.week) is null;
  insert into pg_temp.imp_fouten
  select t.pad || '/inschatting_uren', (app_hidden.regel('taken_grootte_of_inschatting')).bericht
  from pg_temp.imp_taken t where t.grootte is not null and t.inschatting_uren is not null;
end
$$;

-- Hours.
create function beheer.imp_controleren_uren(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
declare
  vandaag date := app_hidden.vandaag(_org);
begin
  update pg_temp.imp_uren u set taak_pad = t.pad from pg_temp.imp_taken t where t.sleutel = u.taak;
  insert into pg_temp.imp_fouten
  select u.pad || '/taak', format('Geen taak in het bestand heeft sleutel %s.', u.taak)
  from pg_temp.imp_uren u where u.taak is not null and u.taak_pad is null;
  insert into pg_temp.imp_fouten
  select u.pad || case when u.project is not null then '/project' else '/prioriteit' end,
    (app_hidden.regel('uren_een_onderwerp')).bericht
  from pg_temp.imp_uren u where num_nonnulls(u.taak, u.prioriteit, u.project) > 1;
  insert into pg_temp.imp_fouten
  select u.pad || '/datum', case when app_hidden.periode_begin('dag', u.datum) is null then format('%s is geen bestaande datum.', u.datum)
                                 else format('%s ligt in de toekomst.', u.datum) end
  from pg_temp.imp_uren u
  where u.datum is not null and (app_hidden.periode_begin('dag', u.datum) is null or app_hidden.periode_begin('dag', u.datum) > vandaag);
  insert into pg_temp.imp_fouten
  select min(u.pad) || '/uren', format('%s komt op %s op %s uur; een dag heeft er 24.', u.wie, u.datum, sum(u.uren))
  from pg_temp.imp_uren u where u.wie is not null and u.datum is not null
  group by u.wie, u.datum having sum(u.uren) > 24;
  update pg_temp.imp_uren u set ident = coalesce('s:' || u.sleutel, 'u:' || u.wie || '/' || u.datum || '/'
    || coalesce(t.ident, p.ident, j.ident, '') || '/' || coalesce(lower(u.omschrijving), ''))
  from pg_temp.imp_uren u0
  left join pg_temp.imp_taken t on t.pad = u0.taak_pad
  left join pg_temp.imp_prioriteiten p on p.pad = u0.prio_pad
  left join pg_temp.imp_projecten j on j.pad = u0.project_pad
  where u0.nr = u.nr;
  insert into pg_temp.imp_fouten
  select x.pad || case when x.sleutel is not null then '/sleutel' else '' end,
    case when x.sleutel is not null then format('Sleutel %s is al gebruikt door de uren op %s.', x.sleutel, e.eerste)
         else format('Dezelfde uren als %s (zelfde persoon, datum, waarvoor en omschrijving); tel ze op of geef een sleutel.', e.eerste) end
  from pg_temp.imp_uren x join beheer.imp_dubbel('imp_uren', 't.ident') e on e.pad = x.pad;
end
$$;

-- The weekly board.
create function beheer.imp_controleren_weektaken(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  insert into pg_temp.imp_fouten
  select w.pad || '/week', format('%s is geen bestaande ISO-week.', w.week)
  from pg_temp.imp_weektaken w where w.week is not null and app_hidden.week_maandag(w.week) is null;
  insert into pg_temp.imp_fouten
  select x.pad || '/titel', format('Dezelfde weektaak als %s (zelfde persoon, week en titel).', e.eerste)
  from pg_temp.imp_weektaken x join beheer.imp_dubbel('imp_weektaken', 't.wie, t.week, lower(t.titel)') e on e.pad = x.pad;
end
$$;

-- Reflections.
create function beheer.imp_controleren_reflecties(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
declare
  vandaag date := app_hidden.vandaag(_org);
begin
  -- Reflections: a period that fits the kind and has begun; one per person, kind and period.
  update pg_temp.imp_reflecties r set label = p.label, van = p.van
  from pg_temp.imp_reflecties r0, beheer.reflectie_periode(r0.soort, r0.periode) p where r0.nr = r.nr;
  insert into pg_temp.imp_fouten
  select r.pad || '/periode', f.fout
  from pg_temp.imp_reflecties r, beheer.reflectie_periode_fout(r.soort, r.periode, vandaag) f (fout)
  where r.soort = any (app_hidden.keuzes('reflectie_soort')) and r.periode is not null and f.fout is not null;
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('%s heeft al een reflectie voor %s op %s.', x.wie, x.periode, e.eerste)
  from pg_temp.imp_reflecties x join beheer.imp_dubbel('imp_reflecties', 't.wie, t.soort, t.label') e on e.pad = x.pad;

  insert into pg_temp.imp_fouten
  select r.pad || '/energie', (app_hidden.regel('reflecties_energie')).bericht
  from pg_temp.imp_reflecties r where r.energie is not null and (r.energie not between 1 and 10 or r.energie <> trunc(r.energie));
end
$$;

-- Valuations.
create function beheer.imp_controleren_waarderingen(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
declare
  vandaag date := app_hidden.vandaag(_org);
begin
  -- Valuations: one per period; figures all four or none (an open invitation).
  insert into pg_temp.imp_fouten
  select w.pad || '/periode', f.fout
  from pg_temp.imp_waarderingen w, beheer.waardering_periode_fout(w.periode, vandaag) f (fout)
  where w.periode is not null and f.fout is not null;
  insert into pg_temp.imp_fouten
  select w.pad, 'Geef omzet, genormaliseerde_ebitda, multiple en aandelenwaarde samen, of geen van vieren (een open uitnodiging).'
  from pg_temp.imp_waarderingen w where num_nonnulls(w.omzet, w.ebitda, w.multiple, w.aandelenwaarde) between 1 and 3;
  insert into pg_temp.imp_fouten
  select x.pad || '/periode', format('Periode %s staat al in het bestand op %s.', x.periode, e.eerste)
  from pg_temp.imp_waarderingen x join beheer.imp_dubbel('imp_waarderingen', 't.periode') e on e.pad = x.pad;
end
$$;

-- Review conversations.
create function beheer.imp_controleren_gesprekken(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  perform beheer.imp_geen_datum('imp_gesprekken', 'datum');
  insert into pg_temp.imp_fouten
  select g.pad || '/met', (app_hidden.regel('gesprekken_met_een_ander')).bericht
  from pg_temp.imp_gesprekken g where g.wie = g.met;
  insert into pg_temp.imp_fouten
  select g.pad || '/eindoordeel', 'Een eindoordeel hoort bij een afgerond gesprek; zet ook afgerond op true.'
  from pg_temp.imp_gesprekken g where g.eindoordeel is not null and g.afgerond is not true;
  insert into pg_temp.imp_fouten
  select x.pad, format('Hetzelfde gesprek als %s (zelfde mensen, soort en datum).', e.eerste)
  from pg_temp.imp_gesprekken x join beheer.imp_dubbel('imp_gesprekken', 't.wie, t.met, t.soort, t.datum') e on e.pad = x.pad;
end
$$;

-- Session notes and their action points.
create function beheer.imp_controleren_sessienotities(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  update pg_temp.imp_sessienotities set ident = coalesce('s:' || sleutel, 'd:' || datum || '/' || lower(titel));
  perform beheer.imp_geen_datum('imp_sessienotities', 'datum');
  perform beheer.imp_geen_datum('imp_actiepunten', 'deadline');
  perform beheer.imp_dubbel_melden('imp_sessienotities', 'titel',
    'Dezelfde sessienotitie als %s (%s); geef een van beide een eigen sleutel.', 'zelfde datum en titel');
end
$$;

-- Every fault with its place; resolves references and identities on the way.
create function beheer.imp_controleren(_org uuid) returns void
language plpgsql volatile set search_path = '' as $$
begin
  perform beheer.imp_controleren_mensen(_org);
  perform beheer.imp_controleren_processen(_org);
  perform beheer.imp_controleren_projecten(_org);
  perform beheer.imp_controleren_prioriteiten(_org);
  perform beheer.imp_controleren_kpis(_org);
  perform beheer.imp_controleren_verwijzingen(_org);
  perform beheer.imp_controleren_taken(_org);
  perform beheer.imp_controleren_uren(_org);
  perform beheer.imp_controleren_weektaken(_org);
  perform beheer.imp_controleren_reflecties(_org);
  perform beheer.imp_controleren_waarderingen(_org);
  perform beheer.imp_controleren_gesprekken(_org);
  perform beheer.imp_controleren_sessienotities(_org);
end
$$;
