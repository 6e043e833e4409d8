-- koers import, writing continued (db/912_import_schrijven.sql has the first kinds): the work
-- itself, reviews and coaching, and imp_schrijven, which writes every kind in order.

-- Tasks: each parent before its subtasks; tags and comments with them.
create function beheer.imp_schrijven_taken(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
  oude_tags jsonb;
begin
  for r in select t.*, coalesce(o.nr, t.nr) as groep, beheer.lid_vinden(_org, t.eigenaar) as eigenaar_id,
                  beheer.lid_vinden(_org, t.aangemaakt_door) as maker_id
           from pg_temp.imp_taken t left join pg_temp.imp_taken o on o.pad = t.ouder_pad
           order by coalesce(o.nr, t.nr), t.ouder_pad is not null, t.nr loop
    if r.ouder_pad is not null and not exists (select 1 from pg_temp.imp_taken o where o.pad = r.ouder_pad and o.id is not null) then
      aantallen := beheer.imp_tel(aantallen, 'taken', 'ongewijzigd');  -- under a task that stays deleted
      continue;
    end if;
    rij_id := beheer.imp_gevonden(_org, 'taak', r.ident);
    if rij_id is not null and exists (select 1 from app.taken x where x.org_id = _org and x.id = rij_id
                                       and x.verwijderd_op is not null) then
      -- Deleted in the app since the last import: it stays deleted.
      aantallen := beheer.imp_tel(aantallen, 'taken', 'ongewijzigd');
      continue;
    end if;
    if rij_id is not null and not exists (select 1 from app.taken x where x.org_id = _org and x.id = rij_id) then
      rij_id := null;
    end if;
    if rij_id is null then
      insert into app.taken (org_id, omschrijving, toelichting, prioriteit_id, project_id, ouder_id, eigenaar_user_id,
                             aangemaakt_door, stand, deadline, week, grootte, inschatting_uren, herhalen)
      select _org, r.omschrijving, r.toelichting, coalesce(p.id, o.prioriteit_id), coalesce(j.id, o.project_id), o.id,
             coalesce(r.eigenaar_id, o.eigenaar_user_id), r.maker_id, coalesce(r.stand, 'open'), app_hidden.periode_begin('dag', r.deadline),
             r.week, r.grootte, r.inschatting_uren, r.herhalen
      from (select 1) x
      left join pg_temp.imp_prioriteiten p on p.pad = r.prio_pad
      left join pg_temp.imp_projecten j on j.pad = r.project_pad
      left join pg_temp.imp_taken ot on ot.pad = r.ouder_pad
      left join app.taken o on o.org_id = _org and o.id = ot.id
      returning taken.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.taken x set omschrijving = r.omschrijving, toelichting = coalesce(r.toelichting, x.toelichting),
        prioriteit_id = case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null)
                             then p.id else x.prioriteit_id end,
        project_id = case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null)
                          then j.id else x.project_id end,
        eigenaar_user_id = coalesce(r.eigenaar_id, x.eigenaar_user_id), stand = coalesce(r.stand, x.stand),
        deadline = coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline), week = coalesce(r.week, x.week),
        grootte = case when r.inschatting_uren is not null then null else coalesce(r.grootte, x.grootte) end,
        inschatting_uren = case when r.grootte is not null then null else coalesce(r.inschatting_uren, x.inschatting_uren) end,
        herhalen = coalesce(r.herhalen, x.herhalen)
      from (select 1) y
      left join pg_temp.imp_prioriteiten p on p.pad = r.prio_pad
      left join pg_temp.imp_projecten j on j.pad = r.project_pad
      where x.org_id = _org and x.id = rij_id
        and (x.omschrijving, x.toelichting, x.prioriteit_id, x.project_id, x.eigenaar_user_id, x.stand, x.deadline, x.week,
             x.grootte, x.inschatting_uren, x.herhalen) is distinct from
            (r.omschrijving, coalesce(r.toelichting, x.toelichting),
             case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null) then p.id else x.prioriteit_id end,
             case when r.ouder_pad is null and (r.prio_pad is not null or r.project_pad is not null) then j.id else x.project_id end,
             coalesce(r.eigenaar_id, x.eigenaar_user_id), coalesce(r.stand, x.stand),
             coalesce(app_hidden.periode_begin('dag', r.deadline), x.deadline), coalesce(r.week, x.week),
             case when r.inschatting_uren is not null then null else coalesce(r.grootte, x.grootte) end,
             case when r.grootte is not null then null else coalesce(r.inschatting_uren, x.inschatting_uren) end,
             coalesce(r.herhalen, x.herhalen));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    if r.tags is not null then
      oude_tags := app_hidden.taak_tags(_org, rij_id);
      if (select coalesce(jsonb_agg(lower(x) order by lower(x)), '[]') from jsonb_array_elements_text(oude_tags) x)
         is distinct from
         (select coalesce(jsonb_agg(distinct lower(x)), '[]') from jsonb_array_elements_text(r.tags) x) then
        perform app_hidden.tags_zetten(_org, rij_id, array(select jsonb_array_elements_text(r.tags)));
        if uitkomst = 'ongewijzigd' then uitkomst := 'bijgewerkt'; end if;
      end if;
    end if;
    perform beheer.imp_onthouden(_org, 'taak', r.ident, rij_id);
    update pg_temp.imp_taken x set id = rij_id where x.nr = r.nr;
    aantallen := beheer.imp_tel(aantallen, 'taken', uitkomst);
  end loop;
  for r in select o.*, t.id as taak_id, t.ident || '/' || coalesce(o.door, '') || '/' || md5(o.tekst) as ident,
                  beheer.lid_vinden(_org, o.door) as door_id
           from pg_temp.imp_opmerkingen o join pg_temp.imp_taken t on t.pad = o.taak_pad
           where t.id is not null order by o.nr loop
    if beheer.imp_bestaand(_org, 'opmerking', r.ident, 'app.opmerkingen') is null then
      insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id, geplaatst_op)
      values (_org, r.taak_id, r.tekst, r.door_id, nu) returning opmerkingen.id into rij_id;
      perform beheer.imp_onthouden(_org, 'opmerking', r.ident, rij_id);
      uitkomst := 'nieuw';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'opmerkingen', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Hours.
create function beheer.imp_schrijven_uren(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select u.*, beheer.lid_vinden(_org, u.wie) as wie_id, t.id as taak_id, p.id as prioriteit_id, j.id as project_id
           from pg_temp.imp_uren u
           left join pg_temp.imp_taken t on t.pad = u.taak_pad
           left join pg_temp.imp_prioriteiten p on p.pad = u.prio_pad
           left join pg_temp.imp_projecten j on j.pad = u.project_pad
           order by u.nr loop
    rij_id := beheer.imp_bestaand(_org, 'uren', r.ident, 'app.uren');
    if rij_id is null then
      insert into app.uren (org_id, user_id, datum, uren, taak_id, prioriteit_id, project_id, omschrijving, aangemaakt_op)
      values (_org, r.wie_id, app_hidden.periode_begin('dag', r.datum), r.uren, r.taak_id, r.prioriteit_id, r.project_id, r.omschrijving, nu)
      returning uren.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.uren x set user_id = r.wie_id, datum = app_hidden.periode_begin('dag', r.datum), uren = r.uren, taak_id = r.taak_id,
        prioriteit_id = r.prioriteit_id, project_id = r.project_id, omschrijving = r.omschrijving
      where x.org_id = _org and x.id = rij_id
        and (x.user_id, x.datum, x.uren, x.taak_id, x.prioriteit_id, x.project_id, x.omschrijving) is distinct from
            (r.wie_id, app_hidden.periode_begin('dag', r.datum), r.uren, r.taak_id, r.prioriteit_id, r.project_id, r.omschrijving);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'uren', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'uren', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- The weekly board, in the file's order.
create function beheer.imp_schrijven_weektaken(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select w.*, beheer.lid_vinden(_org, w.wie) as wie_id, p.id as prioriteit_id,
                  'w:' || w.wie || '/' || w.week || '/' || lower(w.titel) as ident
           from pg_temp.imp_weektaken w left join pg_temp.imp_prioriteiten p on p.pad = w.prio_pad order by w.nr loop
    rij_id := beheer.imp_bestaand(_org, 'weektaak', r.ident, 'app.weektaken');
    if rij_id is null then
      insert into app.weektaken (org_id, user_id, week, titel, kolom, klaar, prioriteit_id, aangemaakt_op)
      values (_org, r.wie_id, r.week, r.titel, coalesce(r.kolom, 'nieuw'), coalesce(r.kolom, 'nieuw') = 'klaar',
              r.prioriteit_id, nu + r.nr * interval '1 microsecond')
      returning weektaken.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.weektaken x set kolom = coalesce(r.kolom, x.kolom), klaar = coalesce(r.kolom, x.kolom) = 'klaar',
        prioriteit_id = coalesce(r.prioriteit_id, x.prioriteit_id)
      where x.org_id = _org and x.id = rij_id
        and (x.kolom, x.prioriteit_id) is distinct from (coalesce(r.kolom, x.kolom), coalesce(r.prioriteit_id, x.prioriteit_id));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    perform beheer.imp_onthouden(_org, 'weektaak', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'weektaken', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Reflections: one per person, kind and period. Submitted (the default) sets ingediend_op once.
create function beheer.imp_schrijven_reflecties(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  uitkomst text;
begin
  for r in select x.*, beheer.lid_vinden(_org, x.wie) as wie_id, o.id as oud_id,
                  (o.goed, o.beter, o.geleerd, o.focus, o.energie, o.ingediend_op is not null) is not distinct from
                  (coalesce(x.goed, o.goed), coalesce(x.beter, o.beter), coalesce(x.geleerd, o.geleerd),
                   coalesce(x.focus, o.focus), coalesce(x.energie::integer, o.energie),
                   coalesce(x.ingediend, true)) as gelijk
           from pg_temp.imp_reflecties x
           left join app.reflecties o on o.org_id = _org and o.user_id = beheer.lid_vinden(_org, x.wie)
             and o.soort = x.soort and o.periode = x.label
           order by x.nr loop
    if r.oud_id is null then
      insert into app.reflecties (org_id, user_id, soort, periode, goed, beter, geleerd, focus, energie, ingediend_op)
      values (_org, r.wie_id, r.soort, r.label, r.goed, r.beter, r.geleerd, r.focus, r.energie::integer,
              case when coalesce(r.ingediend, true) then nu end);
      uitkomst := 'nieuw';
    elsif not r.gelijk then
      update app.reflecties x set goed = coalesce(r.goed, x.goed), beter = coalesce(r.beter, x.beter),
        geleerd = coalesce(r.geleerd, x.geleerd), focus = coalesce(r.focus, x.focus),
        energie = coalesce(r.energie::integer, x.energie),
        ingediend_op = case when coalesce(r.ingediend, true) then coalesce(x.ingediend_op, nu) end
      where x.org_id = _org and x.id = r.oud_id;
      uitkomst := 'bijgewerkt';
    else
      uitkomst := 'ongewijzigd';
    end if;
    aantallen := beheer.imp_tel(aantallen, 'reflecties', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Valuations, one per period, as measured now.
create function beheer.imp_schrijven_waarderingen(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  uitkomst text;
begin
  for r in select w.*, (select x.id from app.waarderingen x where x.org_id = _org and x.periode = w.periode
                        order by x.gemeten_op desc, x.id limit 1) as oud_id
           from pg_temp.imp_waarderingen w order by w.nr loop
    if r.oud_id is null then
      insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op)
      values (_org, r.periode, r.omzet, r.ebitda, r.multiple, r.aandelenwaarde, nu);
      uitkomst := 'nieuw';
    else
      update app.waarderingen x set omzet = r.omzet, genormaliseerde_ebitda = r.ebitda, multiple = r.multiple,
        aandelenwaarde = r.aandelenwaarde, gemeten_op = nu
      where x.org_id = _org and x.id = r.oud_id
        and (x.omzet, x.genormaliseerde_ebitda, x.multiple, x.aandelenwaarde) is distinct from
            (r.omzet, r.ebitda, r.multiple, r.aandelenwaarde);
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'waarderingen', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Review conversations, by who, with whom, kind and date.
create function beheer.imp_schrijven_gesprekken(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  r record;
  rij_id uuid;
  uitkomst text;
begin
  for r in select g.*, beheer.lid_vinden(_org, g.wie) as wie_id, beheer.lid_vinden(_org, g.met) as met_id
           from pg_temp.imp_gesprekken g order by g.nr loop
    select x.id into rij_id from app.gesprekken x where x.org_id = _org and x.medewerker_user_id = r.wie_id
      and x.leider_user_id = r.met_id and x.soort = r.soort and x.datum = app_hidden.periode_begin('dag', r.datum) order by x.id limit 1;
    if rij_id is null then
      insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie)
      values (_org, r.wie_id, r.met_id, r.soort, app_hidden.periode_begin('dag', r.datum), coalesce(r.afgerond, false), r.eindoordeel);
      uitkomst := 'nieuw';
    else
      update app.gesprekken x set afgerond = coalesce(r.afgerond, x.afgerond),
        eindclassificatie = coalesce(r.eindoordeel, x.eindclassificatie)
      where x.org_id = _org and x.id = rij_id
        and (x.afgerond, x.eindclassificatie) is distinct from
            (coalesce(r.afgerond, x.afgerond), coalesce(r.eindoordeel, x.eindclassificatie));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    aantallen := beheer.imp_tel(aantallen, 'gesprekken', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- Session notes with their action points (replaced as a whole when they differ).
create function beheer.imp_schrijven_sessienotities(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  rij_id uuid;
  uitkomst text;
  oude_punten jsonb;
  nieuwe_punten jsonb;
begin
  for r in select n.*, beheer.lid_vinden(_org, n.geschreven_door) as schrijver from pg_temp.imp_sessienotities n order by n.nr loop
    rij_id := beheer.imp_bestaand(_org, 'sessienotitie', r.ident, 'app.sessienotities');
    if rij_id is null then
      insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, highlights, besluiten, learnings, status,
                                      geschreven_door, aangemaakt_op, vastgesteld_op)
      values (_org, app_hidden.periode_begin('dag', r.datum), r.titel, r.soort, r.samenvatting, coalesce(r.highlights, '[]'),
              coalesce(r.besluiten, '[]'), coalesce(r.learnings, '[]'),
              case when coalesce(r.vastgesteld, true) then 'vastgesteld' else 'concept' end, r.schrijver, nu,
              case when coalesce(r.vastgesteld, true) then nu end)
      returning sessienotities.id into rij_id;
      uitkomst := 'nieuw';
    else
      update app.sessienotities x set datum = app_hidden.periode_begin('dag', r.datum), titel = r.titel, soort = r.soort,
        samenvatting = r.samenvatting, highlights = coalesce(r.highlights, x.highlights),
        besluiten = coalesce(r.besluiten, x.besluiten), learnings = coalesce(r.learnings, x.learnings),
        status = case when r.vastgesteld is null then x.status when r.vastgesteld then 'vastgesteld' else 'concept' end,
        vastgesteld_op = case when coalesce(r.vastgesteld, x.status = 'vastgesteld') then coalesce(x.vastgesteld_op, nu) end,
        geschreven_door = coalesce(r.schrijver, x.geschreven_door)
      where x.org_id = _org and x.id = rij_id
        and (x.datum, x.titel, x.soort, x.samenvatting, x.highlights, x.besluiten, x.learnings, x.status, x.geschreven_door)
            is distinct from (app_hidden.periode_begin('dag', r.datum), r.titel, r.soort, r.samenvatting, coalesce(r.highlights, x.highlights),
              coalesce(r.besluiten, x.besluiten), coalesce(r.learnings, x.learnings),
              case when r.vastgesteld is null then x.status when r.vastgesteld then 'vastgesteld' else 'concept' end,
              coalesce(r.schrijver, x.geschreven_door));
      uitkomst := case when found then 'bijgewerkt' else 'ongewijzigd' end;
    end if;
    if exists (select 1 from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad) then
      select coalesce(jsonb_agg(jsonb_build_array(a.tekst, a.eigenaar_user_id, a.deadline) order by a.tekst, a.eigenaar_user_id, a.deadline), '[]')
        into oude_punten from app.sessie_actiepunten a where a.org_id = _org and a.notitie_id = rij_id;
      select coalesce(jsonb_agg(jsonb_build_array(a.tekst, beheer.lid_vinden(_org, a.eigenaar), app_hidden.periode_begin('dag', a.deadline))
                                order by a.tekst, beheer.lid_vinden(_org, a.eigenaar), app_hidden.periode_begin('dag', a.deadline)), '[]')
        into nieuwe_punten from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad;
      if oude_punten is distinct from nieuwe_punten then
        delete from app.sessie_actiepunten a where a.org_id = _org and a.notitie_id = rij_id;
        insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, deadline)
        select _org, rij_id, a.tekst, beheer.lid_vinden(_org, a.eigenaar), app_hidden.periode_begin('dag', a.deadline)
        from pg_temp.imp_actiepunten a where a.notitie_pad = r.pad order by a.nr;
        if uitkomst = 'ongewijzigd' then uitkomst := 'bijgewerkt'; end if;
      end if;
    end if;
    perform beheer.imp_onthouden(_org, 'sessienotitie', r.ident, rij_id);
    aantallen := beheer.imp_tel(aantallen, 'sessienotities', uitkomst);
  end loop;
  return aantallen;
end
$$;

-- The strategy canvas: the fields the file gives.
create function beheer.imp_schrijven_strategie(_org uuid, aantallen jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  r record;
  oude_tekst text;
begin
  if exists (select 1 from pg_temp.imp_strategie) then
    insert into app.strategie (org_id, bijgewerkt_op) values (_org, nu) on conflict (org_id) do nothing;
    for r in select * from pg_temp.imp_strategie order by nr loop
      -- The column is a canvas field (imp_uitpakken kept only those of the list strategie_veld).
      execute format('select s.%I from app.strategie s where s.org_id = $1', r.veld) into oude_tekst using _org;
      if oude_tekst is distinct from r.waarde then
        execute format('update app.strategie s set %I = $2, bijgewerkt_op = $3 where s.org_id = $1', r.veld)
          using _org, r.waarde, nu;
      end if;
      aantallen := beheer.imp_tel(aantallen, 'strategie', case when oude_tekst is not distinct from r.waarde then 'ongewijzigd'
                                                               when oude_tekst is null then 'nieuw' else 'bijgewerkt' end);
    end loop;
  end if;
  return aantallen;
end
$$;

-- Writes every kind, in order; returns the counts per kind.
create function beheer.imp_schrijven(_org uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare aantallen jsonb := '{}';
begin
  aantallen := beheer.imp_schrijven_mensen(_org, aantallen);
  aantallen := beheer.imp_schrijven_processen(_org, aantallen);
  aantallen := beheer.imp_schrijven_projecten(_org, aantallen);
  aantallen := beheer.imp_schrijven_prioriteiten(_org, aantallen);
  aantallen := beheer.imp_schrijven_kpis(_org, aantallen);
  aantallen := beheer.imp_schrijven_taken(_org, aantallen);
  aantallen := beheer.imp_schrijven_uren(_org, aantallen);
  aantallen := beheer.imp_schrijven_weektaken(_org, aantallen);
  aantallen := beheer.imp_schrijven_reflecties(_org, aantallen);
  aantallen := beheer.imp_schrijven_waarderingen(_org, aantallen);
  aantallen := beheer.imp_schrijven_gesprekken(_org, aantallen);
  aantallen := beheer.imp_schrijven_sessienotities(_org, aantallen);
  aantallen := beheer.imp_schrijven_strategie(_org, aantallen);
  return aantallen;
end
$$;
