-- organisaties (AI connection only): where the signed-in person can use the assistant. The one
-- operation that answers about more than the caller's organisation: it lists the caller's own
-- memberships, found by the caller's user id (app_hidden.beller), never by an argument.
-- Record: org_id, naam, rol, onderdelen (the released sections, in the order of the value
-- list), alleen_lezen (the AI door is read only there, so writes are refused).
create function api.organisaties(p jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare b app_hidden.aanroep_start := app_hidden.beller();
begin
  if b.user_id is null then
    raise exception 'api.organisaties needs a caller' using errcode = '42501';
  end if;
  return jsonb_build_object('organisaties', coalesce((
    select jsonb_agg(jsonb_build_object(
             'org_id', o.org_id, 'naam', o.naam, 'rol', l.rol,
             'onderdelen', coalesce((
               select jsonb_agg(s.sectie order by k.volgorde)
               from app.secties s join app.keuzes k on k.lijst = 'sectie' and k.waarde = s.sectie
               where s.org_id = o.org_id and s.vrijgegeven), '[]'),
             'alleen_lezen', c.alleen_lezen)
           order by o.naam, o.org_id)
    from app.lidmaatschappen l
    join app.organisaties o on o.org_id = l.org_id
    join app.koppelingen c on c.org_id = l.org_id and c.door = 'mcp' and c.aan
    where l.user_id = b.user_id and l.actief), '[]'));
end
$$;
