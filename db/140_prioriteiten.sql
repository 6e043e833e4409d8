-- Priorities: rocks and OKRs per quarter, in one list, with progress and stand from SQL.

-- The key result definition: every key result of every priority the caller may see, with its
-- progress from start value to target in percent (one decimal).
create view app_hidden.def_kernresultaten with (security_invoker = true) as
  select k.org_id, k.id, k.prioriteit_id, k.titel, k.startwaarde, k.doelwaarde, k.huidige_waarde,
    round(app_hidden.kernresultaat_voortgang(k.startwaarde, k.doelwaarde, k.huidige_waarde) * 100, 1) as voortgang,
    k.aangemaakt_op
  from app.kernresultaten k;

grant select on app_hidden.def_kernresultaten to koers_door, koers_definer;

-- The priority definition: every priority the caller may see (all quarters, completed ones too),
-- with its key results and figures: voortgang and verstreken in percent (one decimal, as answers
-- show them), stand by the rules of app_hidden.prioriteit_stand. Progress of a rock: done weight
-- over the weight of its tasks that are not vervallen (directly under it; a subtask counts
-- inside its parent), 100% when all of them are done; of an OKR: the mean progress of its key
-- results; of a completed priority: 100%.
create view app_hidden.def_prioriteiten with (security_invoker = true) as
  select p.org_id, p.id, p.titel, p.soort, p.omschrijving,
    p.eigenaar_user_id, pe.naam as eigenaar_naam,
    p.kwartaal_start, app_hidden.kwartaal_label(p.kwartaal_start) as kwartaal,
    f.startdatum, f.deadline,
    round(f.voortgang * 100, 1) as voortgang, round(f.verstreken * 100, 1) as verstreken,
    app_hidden.prioriteit_stand(p.afgerond_op is not null, f.moment >= f.startdatum::timestamp,
                                f.verstreken, f.voortgang, f.telt) as stand,
    p.afgerond_op is not null as afgerond,
    p.team_id, tm.naam as team_naam, p.brand_label_id,
    coalesce(kr.kernresultaten, '[]') as kernresultaten,
    p.afgerond_op, p.aangemaakt_op, p.bijgewerkt_op
  from app.prioriteiten p
  join app.organisaties o on o.org_id = p.org_id
  left join app_hidden.def_personen pe on pe.org_id = p.org_id and pe.user_id = p.eigenaar_user_id
  left join app.teams tm on tm.org_id = p.org_id and tm.id = p.team_id
  -- A rock's tasks summed (app_hidden.prioriteit_sommen, db/135_prioriteit_sommen.sql): whether
  -- any counts, whether all of those are done, and the done weight over the weight.
  left join lateral (
    select s.aantal > 0 as telt, case when s.aantal > 0 then s.klaar = s.aantal end as alles_klaar,
           s.gewicht_klaar / nullif(s.gewicht, 0) as voortgang
    from app_hidden.prioriteit_sommen_alle s
    where s.org = p.org_id and s.prioriteit = p.id and p.soort = 'rock') rt on true
  left join lateral (
    select count(*) > 0 as telt,
           avg(app_hidden.kernresultaat_voortgang(k.startwaarde, k.doelwaarde, k.huidige_waarde)) as voortgang,
           jsonb_agg(jsonb_build_object('id', k.id, 'titel', k.titel, 'startwaarde', k.startwaarde,
                                        'doelwaarde', k.doelwaarde, 'huidige_waarde', k.huidige_waarde,
                                        'voortgang', k.voortgang)
                     order by k.aangemaakt_op, k.id) as kernresultaten
    from app_hidden.def_kernresultaten k
    where k.org_id = p.org_id and k.prioriteit_id = p.id) kr on true
  cross join lateral (
    select s.startdatum, s.deadline, s.moment,
           app_hidden.verstreken(s.startdatum, s.deadline, s.moment) as verstreken,
           case when p.afgerond_op is not null then 1
                when p.soort = 'rock' then case when rt.alles_klaar then 1 else coalesce(rt.voortgang, 0) end
                else coalesce(kr.voortgang, 0) end as voortgang,
           coalesce(case when p.soort = 'rock' then rt.telt else kr.telt end, false) as telt
    from (select coalesce(p.startdatum, p.kwartaal_start) as startdatum,
                 coalesce(p.deadline, app_hidden.kwartaal_eind(p.kwartaal_start)) as deadline,
                 app_hidden.moment(o.tijdzone) as moment
          offset 0) s
    offset 0) f;

grant select on app_hidden.def_prioriteiten to koers_door, koers_definer;

-- A priority as every answer shows it; team only when the organisation has teams. Built as json
-- (weergave_json: text, assembled once) and read as jsonb (weergave): building jsonb per row and
-- gathering it into a jsonb list takes every value apart and puts it together again, several
-- times the work of one json text that the list turns into jsonb once (api.prioriteiten).
-- The team pair comes first, named 'id' when the organisation has no teams (its value is null
-- then: there is no team to name): jsonb keeps the last value of a key, so the key is absent and
-- the object the same.
create view app_hidden.prioriteit_weergaven with (security_invoker = true) as
  select w.*, w.weergave_json::jsonb as weergave
  from (
    select d.org_id, d.id, d.kwartaal_start, d.team_id, d.stand, d.deadline, d.eigenaar_naam, d.titel,
      json_build_object(
        case when (select exists (select 1 from app.teams t where t.org_id = (select o.org from app_hidden.mijn_org() o)))
             then 'team' else 'id' end,
        case when d.team_naam is not null then json_build_object('id', d.team_id, 'naam', d.team_naam) end,
        'id', d.id, 'titel', d.titel, 'soort', d.soort, 'omschrijving', d.omschrijving,
        'eigenaar', app_hidden.persoon_weergave(d.eigenaar_user_id, d.eigenaar_naam),
        'kwartaal', d.kwartaal, 'startdatum', d.startdatum, 'deadline', d.deadline,
        'voortgang', d.voortgang, 'verstreken', d.verstreken, 'stand', d.stand, 'afgerond', d.afgerond)
        as weergave_json
    from app_hidden.def_prioriteiten d) w;

grant select on app_hidden.prioriteit_weergaven to koers_door, koers_definer;

-- One priority as answers show it (the writes' results, the app).
create function app_hidden.prioriteit_weergave(_org uuid, _id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  -- PL/pgSQL for its plan, kept for the session: a SQL function holding a query is planned anew
  -- at every call, and planning the definition costs more than running it for one row.
  return (select w.weergave from app_hidden.prioriteit_weergaven w where w.org_id = _org and w.id = _id
            and w.org_id = (select o.org from app_hidden.mijn_org() o));
end
$$;

create function api.prioriteiten(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  kwartaal date := app_hidden.param_kwartaal(p, 'kwartaal', org);
  aandacht boolean := coalesce((p ->> 'alleen_aandacht')::boolean, false);
  team uuid := app_hidden.param_verwijzing(p, 'team', 'team');
begin
  -- The answer as json text, turned into jsonb once (app_hidden.prioriteit_weergaven).
  return json_build_object(
    'kwartaal', app_hidden.kwartaal_label(kwartaal),
    'prioriteiten', coalesce((
      select json_agg(w.weergave_json order by w.deadline, w.eigenaar_naam, w.titel)
      from app_hidden.prioriteit_weergaven w
      where w.org_id = org and w.kwartaal_start = kwartaal
        and app_hidden.in_team(w.team_id, team)
        and (not aandacht or w.stand in ('aandacht nodig', 'loopt achter'))), '[]'))::jsonb;
end
$$;

create function api.prioriteit_aanmaken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  titel text := (p ->> 'titel');
  soort text := (p ->> 'soort');
  eigenaar uuid := app_hidden.param_verwijzing(p, 'eigenaar_user_id', 'lid');
  kwartaal date := app_hidden.param_kwartaal(p, 'kwartaal', org);
  eind date := app_hidden.kwartaal_eind(kwartaal);
  deadline date := coalesce(app_hidden.param_datum(p, 'deadline'), eind);
  omschrijving text := (p ->> 'omschrijving');
  vandaag date := app_hidden.vandaag(org);
  aantal integer;
  nieuw uuid;
  w jsonb;
begin
  if eind < vandaag then
    perform app_hidden.ongeldig('kwartaal', format('Kwartaal %s is al voorbij.', app_hidden.kwartaal_label(kwartaal)));
  end if;
  if deadline < kwartaal or deadline > eind then
    perform app_hidden.ongeldig('deadline', format('deadline moet in %s liggen (%s tot en met %s).',
      app_hidden.kwartaal_label(kwartaal), kwartaal, eind));
  end if;
  if deadline < vandaag then
    perform app_hidden.ongeldig('deadline', format('deadline %s ligt voor vandaag.', deadline));
  end if;
  select count(*) + 1 into aantal from app.prioriteiten x
  where x.org_id = org and x.kwartaal_start = kwartaal and x.eigenaar_user_id = eigenaar;

  insert into app.prioriteiten (org_id, soort, titel, omschrijving, eigenaar_user_id, kwartaal_start, deadline, aangemaakt_door)
  values (org, soort, titel, omschrijving, eigenaar, kwartaal, deadline, app_hidden.huidige_gebruiker())
  returning id into nieuw;

  w := app_hidden.prioriteit_weergave(org, nieuw);
  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'titel', app_hidden.veld(null, to_jsonb(titel)),
      'soort', app_hidden.veld(null, to_jsonb(soort)),
      'eigenaar', app_hidden.veld(null, w -> 'eigenaar'),
      'kwartaal', app_hidden.veld(null, to_jsonb(app_hidden.kwartaal_label(kwartaal))),
      'deadline', app_hidden.veld(null, to_jsonb(deadline)),
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)))
      || case when aantal > 5 then jsonb_build_object('advies', format(
           '%s heeft hiermee %s prioriteiten in %s; het advies is drie tot vijf per persoon per kwartaal.',
           w #>> '{eigenaar,naam}', aantal, app_hidden.kwartaal_label(kwartaal)))
         else '{}' end,
    'resultaat', jsonb_build_object('prioriteit', w));
end
$$;

-- prioriteit.aangemaakt and prioriteit.afgerond.
create function app_hidden.tg_prioriteiten__gebeurtenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare gegevens jsonb;
begin
  gegevens := jsonb_build_object('prioriteit', jsonb_build_object(
      'id', new.id, 'titel', new.titel, 'soort', new.soort, 'kwartaal', app_hidden.kwartaal_label(new.kwartaal_start),
      'deadline', new.deadline, 'eigenaar_id', new.eigenaar_user_id, 'afgerond', new.afgerond_op is not null))
    || app_hidden.team_veld(new.org_id, new.team_id);
  if tg_op = 'INSERT' then
    perform app_hidden.gebeurtenis(new.org_id, 'prioriteit.aangemaakt', new.id, gegevens);
  elsif new.afgerond_op is not null and old.afgerond_op is null then
    perform app_hidden.gebeurtenis(new.org_id, 'prioriteit.afgerond', new.id, gegevens);
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update of afgerond_op on app.prioriteiten
  for each row execute function app_hidden.tg_prioriteiten__gebeurtenis();
