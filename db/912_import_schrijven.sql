-- koers import, writing (after db/911_import_controleren.sql found no fault): one function per
-- kind of item, in the order below (what an item refers to is written before it), each through
-- the tables and so through their triggers (history, events, audit), as the app. Each adds its
-- counts (new, updated, unchanged) to those it is given (aantallen) and returns them. A person
-- is found as the app finds a member (beheer.lid_vinden), active or not: the file may hold the
-- history of someone who left.

-- People: an account per e-mail address (shared across organisations), a membership here.
-- Teams come first without their leader, who may be a person of the file.
create function beheer.imp_schrijven_mensen(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  uitkomst text;
  gebruiker uuid;
begin
  for r in select * from pg_temp.imp_teams order by nr loop
    insert into app.teams (org_id, naam) values (_org, r.naam) on conflict (org_id, lower(naam)) do nothing;
    aantallen := beheer.imp_tel(aantallen, 'teams', case when found then 'nieuw' else 'ongewijzigd' end);
  end loop;
  for r in select m.*, beheer.team_vinden(_org, m.team) as team_id
           from pg_temp.imp_mensen m order by m.nr loop
    insert into app.accounts (email, naam, aangemaakt_op) values (r.email_tekst, r.naam, nu)
    on conflict (lower(email)) do nothing returning id into gebruiker;
    if gebruiker is null then
      select a.id into gebruiker from app.accounts a where lower(a.email) = r.email;
      -- A name is the person's own: changed only while they belong to no other organisation.
      update app.accounts a set naam = r.naam where a.id = gebruiker and a.naam is distinct from r.naam
        and not exists (select 1 from app.lidmaatschappen l where l.user_id = gebruiker and l.org_id <> _org);
    end if;
    if not exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = gebruiker) then
      insert into app.lidmaatschappen (org_id, user_id, rol, functietitel, team_id, actief, aangemaakt_op)
      values (_org, gebruiker, r.rol, r.functietitel, r.team_id, coalesce(r.actief, true), nu);
      uitkomst := 'nieuw';
    else
      update app.lidmaatschappen l set rol = r.rol, functietitel = coalesce(r.functietitel, l.functietitel),
        team_id = coalesce(r.team_id, l.team_id), actief = coalesce(r.actief, l.actief)
      where l.org_id = _org and l.user_id = gebruiker
        and (l.rol, l.functietitel, l.team_id, l.actief) is distinct from
            (r.rol, coalesce(r.functietitel, l.functietitel), coalesce(r.team_id, l.team_id), coalesce(r.actief, l.actief));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'mensen', uitkomst);
  end loop;
  update app.teams t set leider_user_id = l.user_id
  from pg_temp.imp_teams x, app.lidmaatschappen l join app.accounts a on a.id = l.user_id
  where t.org_id = _org and lower(t.naam) = lower(x.naam) and x.leider is not null
    and l.org_id = _org and lower(a.email) = x.leider and t.leider_user_id is distinct from l.user_id;
  return aantallen;
end
$$;

-- Processes and role seats.
create function beheer.imp_schrijven_processen(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select p.*, beheer.lid_vinden(_org, p.eindverantwoordelijke) as wie from pg_temp.imp_processen p order by p.nr loop
    rij_id := coalesce(beheer.imp_bestaand(_org, 'proces', r.ident, 'app.processen'),
      (select x.id from app.processen x where x.org_id = _org and lower(x.naam) = lower(r.naam) order by x.volgorde, x.id limit 1));
    if rij_id is null then
      insert into app.processen (org_id, naam, eindverantwoordelijke_user_id, volgorde)
      values (_org, r.naam, r.wie, coalesce(r.volgorde, (select max(x.volgorde) + 1 from app.processen x where x.org_id = _org), 1))
      returning processen.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.processen x set eindverantwoordelijke_user_id = coalesce(r.wie, x.eindverantwoordelijke_user_id),
        volgorde = coalesce(r.volgorde, x.volgorde)
      where x.org_id = _org and x.id = rij_id
        and (x.eindverantwoordelijke_user_id, x.volgorde) is distinct from
            (coalesce(r.wie, x.eindverantwoordelijke_user_id), coalesce(r.volgorde, x.volgorde));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'proces', r.ident, rij_id);
    update pg_temp.imp_processen x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'processen', uitkomst);
  end loop;
  for r in select x.*, p.id as proces_id, beheer.lid_vinden(_org, x.wie) as bezetter
           from pg_temp.imp_rollen x join pg_temp.imp_processen p on p.pad = x.proces_pad order by x.nr loop
    rij_id := coalesce(beheer.imp_bestaand(_org, 'rol', r.ident, 'app.rollen'),
      (select x.id from app.rollen x where x.org_id = _org and x.proces_id = r.proces_id and lower(x.naam) = lower(r.naam)
       order by x.id limit 1));
    if rij_id is null then
      insert into app.rollen (org_id, proces_id, naam, user_id) values (_org, r.proces_id, r.naam, r.bezetter)
      returning rollen.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.rollen x set user_id = coalesce(r.bezetter, x.user_id)
      where x.org_id = _org and x.id = rij_id and x.user_id is distinct from coalesce(r.bezetter, x.user_id);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'rol', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'rollen', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Projects, with the people who work on them.
create function beheer.imp_schrijven_projecten(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  vandaag date := app_hidden.vandaag(_org);
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select p.*, beheer.lid_vinden(_org, p.eigenaar) as eigenaar_id from pg_temp.imp_projecten p order by p.nr loop
    rij_id := beheer.imp_bestaand(_org, 'project', r.ident, 'app.projecten');
    if rij_id is null then
      insert into app.projecten (org_id, titel, omschrijving, eigenaar_user_id, startdatum, deadline, besloten,
                                 afgerond_op, aangemaakt_op)
      values (_org, r.titel, r.omschrijving, r.eigenaar_id, coalesce(app_hidden.periode_begin('dag', r.startdatum), vandaag),
              app_hidden.periode_begin('dag', r.deadline), coalesce(r.besloten, false), case when r.afgerond then nu end, nu)
      returning projecten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.projecten x set titel = r.titel, omschrijving = coalesce(r.omschrijving, x.omschrijving),
        eigenaar_user_id = r.eigenaar_id, startdatum = coalesce(app_hidden.periode_begin('dag', r.startdatum), x.startdatum),
        deadline = coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline), besloten = coalesce(r.besloten, x.besloten),
        afgerond_op = case when r.afgerond is null then x.afgerond_op when r.afgerond then coalesce(x.afgerond_op, nu) end
      where x.org_id = _org and x.id = rij_id
        and (x.titel, x.omschrijving, x.eigenaar_user_id, x.startdatum, x.deadline, x.besloten, x.afgerond_op is not null)
            is distinct from (r.titel, coalesce(r.omschrijving, x.omschrijving), r.eigenaar_id,
              coalesce(app_hidden.periode_begin('dag', r.startdatum), x.startdatum), coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline),
              coalesce(r.besloten, x.besloten), coalesce(r.afgerond, x.afgerond_op is not null));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    insert into app.project_leden (org_id, project_id, user_id)
    select distinct _org, rij_id, u from unnest(array[r.eigenaar_id] || array(
      select beheer.lid_vinden(_org, lower(l)) from jsonb_array_elements_text(coalesce(r.leden, '[]')) l)) u
    where u is not null
    on conflict do nothing;
    perform beheer.imp_onthouden(_org, 'project', r.ident, rij_id);
    update pg_temp.imp_projecten x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'projecten', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Priorities and key results.
create function beheer.imp_schrijven_prioriteiten(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select p.*, beheer.lid_vinden(_org, p.eigenaar) as eigenaar_id, app_hidden.periode_begin('kwartaal', p.kwartaal) as start,
                  beheer.team_vinden(_org, p.team) as team_id
           from pg_temp.imp_prioriteiten p order by p.nr loop
    rij_id := beheer.imp_bestaand(_org, 'prioriteit', r.ident, 'app.prioriteiten');
    if rij_id is null then
      insert into app.prioriteiten (org_id, soort, titel, omschrijving, eigenaar_user_id, kwartaal_start, startdatum,
                                    deadline, team_id, afgerond_op, aangemaakt_op)
      values (_org, r.soort, r.titel, r.omschrijving, r.eigenaar_id, r.start, app_hidden.periode_begin('dag', r.startdatum),
              coalesce(app_hidden.periode_begin('dag', r.deadline), app_hidden.kwartaal_eind(r.start)), r.team_id,
              case when r.afgerond then nu end, nu)
      returning prioriteiten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.prioriteiten x set soort = r.soort, titel = r.titel, omschrijving = coalesce(r.omschrijving, x.omschrijving),
        eigenaar_user_id = r.eigenaar_id, kwartaal_start = r.start,
        startdatum = coalesce(app_hidden.periode_begin('dag', r.startdatum), x.startdatum),
        deadline = coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline), team_id = coalesce(r.team_id, x.team_id),
        afgerond_op = case when r.afgerond is null then x.afgerond_op when r.afgerond then coalesce(x.afgerond_op, nu) end
      where x.org_id = _org and x.id = rij_id
        and (x.soort, x.titel, x.omschrijving, x.eigenaar_user_id, x.kwartaal_start, x.startdatum, x.deadline, x.team_id,
             x.afgerond_op is not null)
            is distinct from (r.soort, r.titel, coalesce(r.omschrijving, x.omschrijving), r.eigenaar_id, r.start,
              coalesce(app_hidden.periode_begin('dag', r.startdatum), x.startdatum), coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline),
              coalesce(r.team_id, x.team_id), coalesce(r.afgerond, x.afgerond_op is not null));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'prioriteit', r.ident, rij_id);
    update pg_temp.imp_prioriteiten x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'prioriteiten', uitkomst);
  end loop;
  for r in select k.*, p.id as prioriteit_id, p.ident || '/' || lower(k.titel) as ident
           from pg_temp.imp_kernresultaten k join pg_temp.imp_prioriteiten p on p.pad = k.prio_pad order by k.nr loop
    rij_id := beheer.imp_bestaand(_org, 'kernresultaat', r.ident, 'app.kernresultaten');
    if rij_id is null then
      insert into app.kernresultaten (org_id, prioriteit_id, titel, startwaarde, doelwaarde, huidige_waarde, aangemaakt_op)
      values (_org, r.prioriteit_id, r.titel, coalesce(r.start, 0), r.doel, coalesce(r.waarde, r.start, 0), nu)
      returning kernresultaten.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.kernresultaten x set titel = r.titel, startwaarde = coalesce(r.start, x.startwaarde), doelwaarde = r.doel,
        huidige_waarde = coalesce(r.waarde, x.huidige_waarde)
      where x.org_id = _org and x.id = rij_id
        and (x.titel, x.startwaarde, x.doelwaarde, x.huidige_waarde) is distinct from
            (r.titel, coalesce(r.start, x.startwaarde), r.doel, coalesce(r.waarde, x.huidige_waarde));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'kernresultaat', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'kernresultaten', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- KPIs, quarter targets (before the measurements, which are judged against them), measurements.
create function beheer.imp_schrijven_kpis(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select k.*, beheer.lid_vinden(_org, k.eigenaar) as eigenaar_id,
                  beheer.team_vinden(_org, k.team) as team_id
           from pg_temp.imp_kpis k order by k.nr loop
    rij_id := beheer.imp_bestaand(_org, 'kpi', r.ident, 'app.kpis');
    if rij_id is null then
      insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, team_id, aangemaakt_op)
      values (_org, r.naam, r.eenheid, r.eigenaar_id, r.meetsoort, r.cadans, coalesce(r.lager_is_beter, false), r.team_id, nu)
      returning kpis.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.kpis x set naam = r.naam, eenheid = coalesce(r.eenheid, x.eenheid), eigenaar_user_id = r.eigenaar_id,
        meetsoort = r.meetsoort, cadans = r.cadans, lager_is_beter = coalesce(r.lager_is_beter, x.lager_is_beter),
        team_id = coalesce(r.team_id, x.team_id)
      where x.org_id = _org and x.id = rij_id
        and (x.naam, x.eenheid, x.eigenaar_user_id, x.meetsoort, x.cadans, x.lager_is_beter, x.team_id) is distinct from
            (r.naam, coalesce(r.eenheid, x.eenheid), r.eigenaar_id, r.meetsoort, r.cadans,
             coalesce(r.lager_is_beter, x.lager_is_beter), coalesce(r.team_id, x.team_id));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'kpi', r.ident, rij_id);
    update pg_temp.imp_kpis x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'kpis', uitkomst);
  end loop;
  for r in select d.*, k.id as kpi_id, app_hidden.periode_begin('kwartaal', d.kwartaal) as start
           from pg_temp.imp_doelen d join pg_temp.imp_kpis k on k.pad = d.kpi_pad order by d.nr loop
    uitkomst := case
      when not exists (select 1 from app.kpi_kwartaaldoelen x where x.org_id = _org and x.kpi_id = r.kpi_id and x.kwartaal_start = r.start)
        then 'nieuw'
      when exists (select 1 from app.kpi_kwartaaldoelen x where x.org_id = _org and x.kpi_id = r.kpi_id and x.kwartaal_start = r.start
                   and x.doel = r.doel) then 'ongewijzigd'
      else 'bijgewerkt' end;
    if uitkomst <> 'ongewijzigd' then
      insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (_org, r.kpi_id, r.start, r.doel)
      on conflict (org_id, kpi_id, kwartaal_start) do update set doel = excluded.doel;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'kpi_doelen', uitkomst);
  end loop;
  for r in select m.*, k.id as kpi_id, beheer.lid_vinden(_org, m.door) as door_id,
                  x.waarde as oude_waarde, x.toelichting as oude_toelichting, x.kpi_id is not null as bestaat
           from pg_temp.imp_metingen m join pg_temp.imp_kpis k on k.pad = m.kpi_pad
           left join app.kpi_metingen x on x.org_id = _org and x.kpi_id = k.id and x.periode = m.norm
           order by m.nr loop
    if not r.bestaat then
      insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op)
      values (_org, r.kpi_id, r.norm, r.van, r.laatste_dag, r.waarde, r.toelichting, r.door_id, nu);
      uitkomst := 'nieuw';
    elsif (r.oude_waarde, r.oude_toelichting) is distinct from (r.waarde, coalesce(r.toelichting, r.oude_toelichting)) then
      update app.kpi_metingen x set waarde = r.waarde, toelichting = coalesce(r.toelichting, x.toelichting),
        ingevoerd_door = coalesce(r.door_id, x.ingevoerd_door), ingevoerd_op = nu
      where x.org_id = _org and x.kpi_id = r.kpi_id and x.periode = r.norm;
      uitkomst := 'bijgewerkt';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'kpi_metingen', uitkomst);
  end loop;
  return aantallen;
end
$$;

