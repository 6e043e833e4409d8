-- The warehouse logins on the owner's Integrations page (src/app/warehouse.ts): what the page
-- needs beside the CLI's beheer.warehouse_* (930_warehouse.sql), which know no session. Like
-- 920_app_pages.sql: called over the administrative connection, granted to no door.

-- Revoking a login of this organisation (beheer.warehouse_intrekken knows no organisation),
-- logged with door app as the person on the page.
create function beheer.app_warehouse_intrekken(_org uuid, _user uuid, _id uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
begin
  perform beheer.namens(_org, _user::text, 'warehouse_intrekken', jsonb_build_object('id', _id));
  if not exists (select 1 from app_private.warehouse_logins w where w.org_id = _org and w.id = _id) then
    perform app_hidden.ongeldig('id', 'Deze warehouse-login hoort niet bij deze organisatie.');
  end if;
  return beheer.warehouse_intrekken(_id);
end
$$;
