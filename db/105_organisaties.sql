-- organisaties (AI connection only): where the signed-in person can use the assistant. The one
-- operation that answers about more than the caller's organisation: it lists the caller's own
-- memberships, found by the caller's user id (app_hidden.huidige_gebruiker), never by an argument.
-- Record: org_id, naam, rol, onderdelen (the released sections, in the order of the value
-- list), alleen_lezen (the AI door is read only there, so writes are refused).
-- Definition (docs/definitions.md): the organisations where the caller can use the assistant, one
-- row per active membership of the caller's person with the AI door on, with the released
-- sections. The one definition that crosses organisations: owned by koers_definer, it fences
-- itself on the caller's person (once per statement), never on an argument.
create view app_hidden.def_organisaties as
  select o.org_id, o.naam, l.rol,
         array(select s.sectie from app.secties s join app.keuzes k on k.lijst = 'sectie' and k.waarde = s.sectie
               where s.org_id = o.org_id and s.vrijgegeven order by k.volgorde) as onderdelen,
         c.alleen_lezen
  from app.lidmaatschappen l
  join app.organisaties o on o.org_id = l.org_id
  join app.koppelingen c on c.org_id = l.org_id and c.door = 'mcp' and c.aan
  where l.user_id = (select g.user_id from app_hidden.mijn_gebruiker() g) and l.actief;
alter view app_hidden.def_organisaties owner to koers_definer;
grant select on app_hidden.def_organisaties to koers_door;

create function api.organisaties(p jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if app_hidden.huidige_gebruiker() is null then
    raise exception 'api.organisaties needs a caller' using errcode = '42501';
  end if;
  return jsonb_build_object('organisaties', coalesce((
    select jsonb_agg(jsonb_build_object('org_id', d.org_id, 'naam', d.naam, 'rol', d.rol,
                                        'onderdelen', to_jsonb(d.onderdelen), 'alleen_lezen', d.alleen_lezen)
                     order by d.naam, d.org_id)
    from app_hidden.def_organisaties d), '[]'));
end
$$;
