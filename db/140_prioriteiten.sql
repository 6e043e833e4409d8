-- Priorities: rocks and OKRs per quarter, in one list, with progress and stand from SQL.

-- A priority as every answer shows it.
create function app_hidden.prioriteit_weergave(_org uuid, _id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', p.id, 'titel', p.titel, 'soort', p.soort, 'omschrijving', p.omschrijving,
      'eigenaar', app_hidden.persoon(p.org_id, p.eigenaar_user_id),
      'kwartaal', app_hidden.kwartaal_label(p.kwartaal_start),
      'startdatum', c.startdatum, 'deadline', c.deadline,
      'voortgang', round(c.voortgang * 100, 1), 'verstreken', round(c.verstreken * 100, 1),
      'stand', c.stand, 'afgerond', c.afgerond)
      || app_hidden.team_veld(p.org_id, p.team_id)
    from app.prioriteiten p, app_hidden.prioriteit_cijfers(p.org_id, p.id) c
    where p.org_id = _org and p.id = _id);
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
  return jsonb_build_object(
    'kwartaal', app_hidden.kwartaal_label(kwartaal),
    'prioriteiten', coalesce((
      select jsonb_agg(w order by w ->> 'deadline', w #>> '{eigenaar,naam}', w ->> 'titel')
      from app.prioriteiten x, app_hidden.prioriteit_weergave(x.org_id, x.id) w
      where x.org_id = org and x.kwartaal_start = kwartaal
        and app_hidden.in_team(x.team_id, team)
        and (not aandacht or w ->> 'stand' in ('aandacht nodig', 'loopt achter'))), '[]'));
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

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'titel', app_hidden.veld(null, to_jsonb(titel)),
      'soort', app_hidden.veld(null, to_jsonb(soort)),
      'eigenaar', app_hidden.veld(null, app_hidden.persoon(org, eigenaar)),
      'kwartaal', app_hidden.veld(null, to_jsonb(app_hidden.kwartaal_label(kwartaal))),
      'deadline', app_hidden.veld(null, to_jsonb(deadline)),
      'omschrijving', app_hidden.veld(null, to_jsonb(omschrijving)))
      || case when aantal > 5 then jsonb_build_object('advies', format(
           '%s heeft hiermee %s prioriteiten in %s; het advies is drie tot vijf per persoon per kwartaal.',
           app_hidden.persoon(org, eigenaar) ->> 'naam', aantal, app_hidden.kwartaal_label(kwartaal)))
         else '{}' end,
    'resultaat', jsonb_build_object('prioriteit', app_hidden.prioriteit_weergave(org, nieuw)));
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
