-- A person as every answer names one, {user_id, naam}, from a definition's <key>_user_id and
-- <key>_naam (app_hidden.def_personen below): null for nobody, or for someone who is no member of the
-- organisation. Inlined where it is used: stable, as jsonb_build_object is (a function declared
-- immutable around a stable body is not inlined, but called once per row).
create function app_hidden.persoon_weergave(_user_id uuid, _naam text) returns jsonb
language sql stable parallel safe as $$
  select case when _naam is not null then jsonb_build_object('user_id', _user_id, 'naam', _naam) end
$$;

-- Members as answers name them ({user_id, naam}): set-based, for every definition that names a
-- person. Owned by koers_definer because the doors may not read app.accounts; it fences itself on
-- the caller's organisation (once per statement: a scalar subquery).
create view app_hidden.def_personen as
  select l.org_id, l.user_id, a.naam, app_hidden.persoon_weergave(a.id, a.naam) as persoon
  from app.lidmaatschappen l
  join app.accounts a on a.id = l.user_id
  where l.org_id = (select o.org from app_hidden.mijn_org() o);

alter view app_hidden.def_personen owner to koers_definer;
grant select on app_hidden.def_personen to koers_door;
