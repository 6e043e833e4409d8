-- The warehouse logins on the owner's Integrations page (src/app/warehouse.ts): what the page
-- needs beside the CLI's beheer.warehouse_* (930_warehouse.sql), which know no session. Like
-- 920_app_pages.sql: called over the administrative connection, granted to no door.

-- Revoking a login of this organisation (beheer.warehouse_intrekken knows no organisation),
-- logged with door app as the person on the page.
create function beheer.app_warehouse_intrekken(_org uuid, _user uuid, _id uuid) returns jsonb
language sql volatile set search_path = '' as $$
  select beheer.app_namens(_org, _user, 'warehouse_intrekken', 'id', _id,
    exists (select 1 from app_private.warehouse_logins w where w.org_id = _org and w.id = _id),
    'Deze warehouse-login hoort niet bij deze organisatie.');
  select beheer.warehouse_intrekken(_id);
$$;
