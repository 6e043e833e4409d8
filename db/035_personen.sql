-- Members as answers name them ({user_id, naam}): set-based, for every definition that names a
-- person. Owned by koers_definer because the doors may not read app.accounts; it fences itself on
-- the caller's organisation (once per statement: a scalar subquery).
create view app_hidden.def_personen as
  select l.org_id, l.user_id, a.naam, jsonb_build_object('user_id', a.id, 'naam', a.naam) as persoon
  from app.lidmaatschappen l
  join app.accounts a on a.id = l.user_id
  where l.org_id = (select app_hidden.huidige_org());

alter view app_hidden.def_personen owner to koers_definer;
grant select on app_hidden.def_personen to koers_door;
