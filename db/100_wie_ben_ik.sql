-- GET /api/v1/wie-ben-ik: lets automation tools verify an entered key.
create function api.wie_ben_ik(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (select jsonb_build_object(
    'organisatie', jsonb_build_object('org_id', o.org_id, 'naam', o.naam),
    'gebruiker', app_hidden.persoon(b.org_id, b.user_id) || jsonb_build_object('rol', b.rol),
    'sleutel_id', b.sleutel_id,
    'door', b.door)
  from app_hidden.beller() b join app.organisaties o on o.org_id = b.org_id);
end
$$;
