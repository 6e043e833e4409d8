-- Session notes of coach and management-team sessions. A note is written as concept
-- (sessienotitie_schrijven) and visible only to the coach until the coach establishes it in the
-- app. Element shapes (docs/decisions.md): highlights, besluiten and learnings are lists of
-- texts; actiepunten a list of {tekst, eigenaar_user_id, deadline} (owner and deadline may be
-- empty), stored as rows of app.sessie_actiepunten in the order given.

-- An action point as every answer shows it (its owner from def_personen). Stable like the
-- jsonb_build_object it holds, so it is inlined.
create function app_hidden.actiepunt_weergave(_tekst text, _eigenaar uuid, _eigenaar_naam text, _deadline date) returns jsonb
language sql stable as $$
  select jsonb_build_object('tekst', _tekst, 'eigenaar', app_hidden.persoon_weergave(_eigenaar, _eigenaar_naam),
                            'deadline', _deadline)
$$;

-- A note as every answer shows it, with its action points (shown already, as the writer gives
-- them before the note is visible to them).
create function app_hidden.sessienotitie_weergave(_id uuid, _datum date, _titel text, _soort text, _status text,
  _samenvatting text, _highlights jsonb, _besluiten jsonb, _learnings jsonb, _actiepunten jsonb) returns jsonb
language sql stable as $$
  select jsonb_build_object('id', _id, 'datum', _datum, 'titel', _titel, 'soort', _soort, 'status', _status,
    'samenvatting', _samenvatting, 'highlights', _highlights, 'besluiten', _besluiten, 'learnings', _learnings,
    'actiepunten', _actiepunten)
$$;

-- Definitions (docs/definitions.md): the notes the caller may see (the policies below), and
-- their action points with their owner.
create view app_hidden.def_sessienotities with (security_invoker = true) as
  select n.org_id, n.id, n.datum, n.titel, n.soort, n.status, n.samenvatting, n.highlights, n.besluiten, n.learnings,
         n.geschreven_door as geschreven_door_user_id, p.naam as geschreven_door_naam, n.aangemaakt_op, n.vastgesteld_op
  from app.sessienotities n
  left join app_hidden.def_personen p on p.org_id = n.org_id and p.user_id = n.geschreven_door;

create view app_hidden.def_sessie_actiepunten with (security_invoker = true) as
  select a.org_id, a.id, a.notitie_id, a.volgorde, a.tekst, a.eigenaar_user_id, p.naam as eigenaar_naam, a.deadline
  from app.sessie_actiepunten a
  left join app_hidden.def_personen p on p.org_id = a.org_id and p.user_id = a.eigenaar_user_id;
grant select on app_hidden.def_sessienotities, app_hidden.def_sessie_actiepunten to koers_door;

-- The policy below shows concept notes only to those whose right on sessienotities is 'alles'
-- (the coach, by default).
create function api.sessienotities(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return jsonb_build_object('sessienotities', coalesce((
    select jsonb_agg(app_hidden.sessienotitie_weergave(n.id, n.datum, n.titel, n.soort, n.status, n.samenvatting,
                       n.highlights, n.besluiten, n.learnings, coalesce(a.actiepunten, '[]'))
           order by n.datum desc, n.aangemaakt_op desc, n.id)
    from (select x.org_id, x.id, x.datum, x.titel, x.soort, x.samenvatting, x.highlights, x.besluiten, x.learnings,
                 x.status, x.aangemaakt_op
          from app_hidden.def_sessienotities x
          order by x.datum desc, x.aangemaakt_op desc, x.id limit coalesce((p ->> 'aantal')::integer, 5)) n
    left join lateral (
      select jsonb_agg(app_hidden.actiepunt_weergave(a.tekst, a.eigenaar_user_id, a.eigenaar_naam, a.deadline)
                       order by a.volgorde, a.id) as actiepunten
      from app_hidden.def_sessie_actiepunten a where a.org_id = n.org_id and a.notitie_id = n.id) a on true), '[]'));
end
$$;

create function api.sessienotitie_schrijven(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  n app.sessienotities;
  a jsonb;
  i integer := 0;
  eigenaar uuid;
  eigenaar_naam text;
  deadline date;
  actiepunten jsonb := '[]';
begin
  n.org_id := org;
  n.id := gen_random_uuid();
  n.datum := app_hidden.param_datum(p, 'datum');
  n.titel := p ->> 'titel';
  n.soort := p ->> 'soort';
  n.samenvatting := p ->> 'samenvatting';
  n.highlights := coalesce(p -> 'highlights', '[]');
  n.besluiten := coalesce(p -> 'besluiten', '[]');
  n.learnings := coalesce(p -> 'learnings', '[]');
  n.status := 'concept';
  n.geschreven_door := ik;
  n.aangemaakt_op := app_hidden.nu();
  if n.datum > app_hidden.vandaag(org) then
    perform app_hidden.ongeldig('datum', format('datum %s ligt in de toekomst; een notitie is van een sessie die geweest is.', n.datum));
  end if;

  insert into app.sessienotities (org_id, id, datum, titel, soort, samenvatting, highlights, besluiten, learnings,
                                  status, geschreven_door, aangemaakt_op)
  values (n.org_id, n.id, n.datum, n.titel, n.soort, n.samenvatting, n.highlights, n.besluiten, n.learnings,
          n.status, n.geschreven_door, n.aangemaakt_op);
  -- Shapes were checked by the input checker; owners must be members, deadlines dates that exist.
  for a in select * from jsonb_array_elements(coalesce(p -> 'actiepunten', '[]')) loop
    i := i + 1;
    eigenaar := app_hidden.param_verwijzing(jsonb_build_object('actiepunten', a -> 'eigenaar_user_id'), 'actiepunten', 'lid');
    deadline := app_hidden.param_datum(jsonb_build_object('actiepunten', a -> 'deadline'), 'actiepunten');
    insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, deadline, volgorde)
    values (org, n.id, a ->> 'tekst', eigenaar, deadline, i);
    select x.naam into eigenaar_naam from app_hidden.def_personen x where x.user_id = eigenaar;
    actiepunten := actiepunten || jsonb_build_array(app_hidden.actiepunt_weergave(a ->> 'tekst', eigenaar, eigenaar_naam, deadline));
  end loop;

  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'datum', app_hidden.veld(null, to_jsonb(n.datum)),
      'titel', app_hidden.veld(null, to_jsonb(n.titel)),
      'soort', app_hidden.veld(null, to_jsonb(n.soort)),
      'samenvatting', app_hidden.veld(null, to_jsonb(n.samenvatting)),
      'highlights', app_hidden.veld(null, n.highlights),
      'besluiten', app_hidden.veld(null, n.besluiten),
      'learnings', app_hidden.veld(null, n.learnings),
      'actiepunten', app_hidden.veld(null, actiepunten),
      'status', app_hidden.veld(null, to_jsonb(n.status))),
    'resultaat', jsonb_build_object('sessienotitie', app_hidden.sessienotitie_weergave(n.id, n.datum, n.titel, n.soort,
      n.status, n.samenvatting, n.highlights, n.besluiten, n.learnings, actiepunten)));
end
$$;

-- Policies ------------------------------------------------------------------------------------

-- A concept note the caller wrote (the note itself is hidden from a writer who is not a coach).
create function app_hidden.eigen_conceptnotitie(_org uuid, _notitie uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return app_hidden.eigen_org(_org)
     and exists (select 1 from app.sessienotities n
                 where n.org_id = _org and n.id = _notitie and n.status = 'concept'
                   and n.geschreven_door = app_hidden.huidige_gebruiker());
end
$$;

grant select (org_id, id, datum, titel, soort, samenvatting, highlights, besluiten, learnings, status,
              geschreven_door, aangemaakt_op, vastgesteld_op),
  insert (org_id, id, datum, titel, soort, samenvatting, highlights, besluiten, learnings, status,
          geschreven_door, aangemaakt_op)
  on app.sessienotities to koers_door;
grant select (org_id, id, notitie_id, tekst, eigenaar_user_id, deadline, volgorde),
  insert (org_id, notitie_id, tekst, eigenaar_user_id, deadline, volgorde)
  on app.sessie_actiepunten to koers_door;
create policy "members see established session notes, the coach concept notes too" on app.sessienotities
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('sessienotities')) <> 'geen'
         and (status <> 'concept' or (select app_hidden.mijn_recht('sessienotities')) = 'alles'));
create policy "members who may write session notes add them as concept" on app.sessienotities
  for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('sessienotitie_schrijven')) <> 'geen'
              and status = 'concept' and geschreven_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "members see the action points of the session notes they see" on app.sessie_actiepunten
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o)
         and exists (select 1 from app.sessienotities n where n.org_id = sessie_actiepunten.org_id
                     and n.id = sessie_actiepunten.notitie_id));
create policy "writers add action points to their own concept notes" on app.sessie_actiepunten
  for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and app_hidden.eigen_conceptnotitie(org_id, notitie_id));
