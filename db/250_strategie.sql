-- The strategy canvas. strategie_bijwerken changes nothing on the canvas: it stores a proposal
-- with the current and the new text per field, which an owner, admin or MT member approves or
-- rejects in the app. The canvas fields are the list strategie_veld (src/choices.ts), each a
-- column of app.strategie.

-- Definitions (docs/definitions.md): the canvas, and the proposals the caller may see (the
-- policies below), with who made them.
create view app_hidden.def_strategie with (security_invoker = true) as
  select s.* from app.strategie s;

create view app_hidden.def_strategie_voorstellen with (security_invoker = true) as
  select v.org_id, v.id, v.status, v.velden, v.ingediend_door as ingediend_door_user_id,
         p.naam as ingediend_door_naam, v.ingediend_op
  from app.strategie_voorstellen v
  left join app_hidden.def_personen p on p.org_id = v.org_id and p.user_id = v.ingediend_door;
grant select on app_hidden.def_strategie, app_hidden.def_strategie_voorstellen to koers_door;

create function api.strategie_bijwerken(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  nieuw jsonb := p -> 'velden';
  huidig jsonb;
  velden jsonb := '{}';
  sleutel text;
  voorstel_id uuid := gen_random_uuid();
  tijdstip timestamptz := app_hidden.nu();
begin
  if app_hidden.mijn_recht('strategie_bijwerken') = 'geen' then
    perform app_hidden.fout('rol_mag_niet', 'Alleen een eigenaar, admin of MT-lid stelt een wijziging van de strategie voor.');
  end if;
  if nieuw = '{}' then
    perform app_hidden.ongeldig('velden', format('Geef minstens één veld dat verandert; kies uit %s.',
      array_to_string(app_hidden.keuzes('strategie_veld'), ', ')));
  end if;
  select to_jsonb(s) into huidig from app_hidden.def_strategie s where s.org_id = org;
  -- In the canvas's order; a field whose text stays the same is no part of the proposal. Empty
  -- text empties the field.
  foreach sleutel in array app_hidden.keuzes('strategie_veld') loop
    if nieuw ? sleutel and (huidig ->> sleutel) is distinct from nullif(nieuw ->> sleutel, '') then
      velden := velden || jsonb_build_object(sleutel,
        app_hidden.veld(huidig -> sleutel, to_jsonb(nullif(nieuw ->> sleutel, ''))));
    end if;
  end loop;
  if velden = '{}' then
    perform app_hidden.ongeldig('velden', 'Er verandert niets: elk genoemd veld heeft al deze tekst.');
  end if;

  insert into app.strategie_voorstellen (org_id, id, velden, ingediend_door, ingediend_op, status)
  values (org, voorstel_id, velden, ik, tijdstip, 'open');
  return (select jsonb_build_object(
    'voorstel', v.velden,
    'resultaat', jsonb_build_object('voorstel', jsonb_build_object(
      'id', v.id, 'status', v.status, 'velden', v.velden,
      'ingediend_door', app_hidden.persoon_weergave(v.ingediend_door_user_id, v.ingediend_door_naam),
      'ingediend_op', v.ingediend_op)))
    from app_hidden.def_strategie_voorstellen v where v.org_id = org and v.id = voorstel_id);
end
$$;

-- Policies ------------------------------------------------------------------------------------
-- The canvas is read only as the "nu" of a proposal, by those who may propose.
grant select on app.strategie to koers_door;
grant select (org_id, id, velden, ingediend_door, ingediend_op, status),
  insert (org_id, id, velden, ingediend_door, ingediend_op, status)
  on app.strategie_voorstellen to koers_door;
create policy "owners, admins and MT see the strategy canvas" on app.strategie
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('strategie_bijwerken')) <> 'geen');
create policy "owners, admins and MT see the strategy proposals they made" on app.strategie_voorstellen
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('strategie_bijwerken')) <> 'geen'
         and ingediend_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "owners, admins and MT propose a new strategy" on app.strategie_voorstellen
  for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('strategie_bijwerken')) <> 'geen'
              and status = 'open' and ingediend_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
