-- GET /api/v1/wie-ben-ik: lets automation tools verify an entered key.
-- Only ever about the caller: the organisation, the member and the credential of this backend's
-- running call (app_hidden.beller_bron, as beller() reads it). Security definer, so that it
-- is one statement with one plan instead of a helper per field (beller, persoon), each with
-- its own look-up of the caller.
create function api.wie_ben_ik(p jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select jsonb_build_object(
    'organisatie', jsonb_build_object('org_id', o.org_id, 'naam', o.naam),
    'gebruiker', case when a.id is not null then jsonb_build_object('user_id', a.id, 'naam', a.naam, 'rol', b.rol) end,
    'sleutel_id', b.sleutel_id,
    'door', b.door)
  from app_hidden.beller_bron() b
  join app.organisaties o on o.org_id = b.org
  left join app.lidmaatschappen l on l.org_id = b.org and l.user_id = b.user_id
  left join app.accounts a on a.id = l.user_id);
end
$$;
