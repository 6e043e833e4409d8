-- Review conversations: who, with whom, soort, date, completed and the final classification
-- (A-D). No salary and no free text. With access to Team the whole team; otherwise the
-- caller's own conversations and those the caller leads.

-- Whether the caller sees every conversation: the right on gesprekken is 'alles' and the team
-- section is released and readable by the role (access to Team).
create function app_hidden.ziet_alle_gesprekken() returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return app_hidden.mijn_recht('gesprekken') = 'alles' and app_hidden.sectie_zichtbaar('team');
end
$$;

-- Definition (docs/definitions.md): the conversations the caller may see (the policy below).
create view app_hidden.def_gesprekken with (security_invoker = true) as
  select g.org_id, g.id, g.medewerker_user_id as wie_user_id, w.naam as wie_naam,
         g.leider_user_id as met_user_id, m.naam as met_naam, g.soort, g.datum, g.afgerond, g.eindclassificatie
  from app.gesprekken g
  left join app_hidden.def_personen w on w.org_id = g.org_id and w.user_id = g.medewerker_user_id
  left join app_hidden.def_personen m on m.org_id = g.org_id and m.user_id = g.leider_user_id;
grant select on app_hidden.def_gesprekken to koers_door;

-- The policy below decides which conversations the caller gets.
create function api.gesprekken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  jaar integer := (p ->> 'jaar')::integer;
  alleen_open boolean := coalesce((p ->> 'alleen_open')::boolean, false);
begin
  return jsonb_build_object(
    'hele_team', app_hidden.ziet_alle_gesprekken(),
    'gesprekken', coalesce((
      select jsonb_agg(jsonb_build_object('id', g.id,
                         'wie', app_hidden.persoon_weergave(g.wie_user_id, g.wie_naam),
                         'met', app_hidden.persoon_weergave(g.met_user_id, g.met_naam),
                         'soort', g.soort, 'datum', g.datum, 'afgerond', g.afgerond,
                         'eindclassificatie', g.eindclassificatie)
                       order by g.datum desc, g.id)
      from app_hidden.def_gesprekken g
      where (jaar is null or g.datum >= make_date(jaar, 1, 1) and g.datum < make_date(jaar + 1, 1, 1))
        and (not alleen_open or not g.afgerond)), '[]'));
end
$$;

-- Policies ------------------------------------------------------------------------------------
grant select (org_id, id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie)
  on app.gesprekken to koers_door;
create policy "members see their own conversations and those they lead, with access to Team all" on app.gesprekken
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mag_lezen('reviews', 'gesprekken'))
         and (medewerker_user_id = (select g.user_id from app_hidden.mijn_gebruiker() g)
              or leider_user_id = (select g.user_id from app_hidden.mijn_gebruiker() g)
              or (select app_hidden.ziet_alle_gesprekken())));
