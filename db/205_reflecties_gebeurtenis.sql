-- The webhook event of a reflection (its table and operations: 200_reflecties.sql; what a
-- message of it carries: app_hidden.webhook_gegevens, 180_webhooks.sql).

-- reflectie.ingediend: only who and which period, never the content.
create function app_hidden.tg_reflecties__gebeurtenis() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if new.ingediend_op is not null and (tg_op = 'INSERT' or old.ingediend_op is null) then
    perform app_hidden.gebeurtenis(new.org_id, 'reflectie.ingediend', new.id, jsonb_build_object(
      'reflectie', jsonb_build_object('id', new.id, 'user_id', new.user_id, 'soort', new.soort,
                                      'periode', new.periode)));
  end if;
  return null;
end
$$;
create trigger _900_gebeurtenis after insert or update of ingediend_op on app.reflecties
  for each row execute function app_hidden.tg_reflecties__gebeurtenis();
