-- Up Migration
-- The warehouse door: read-only PostgreSQL logins, one per credential, each acting for one member
-- of one organisation like an API key. The login is bound to its organisation by this table (its
-- role's OID, in a row only the app writes), never by its name or a setting the client could
-- change. db/930_warehouse.sql makes and ends the logins and resolves a session's caller.

-- The door switch takes its values from the value list `door` (src/choices.ts; the check is
-- derived by db/005_keuzes.sql), no longer from a list spelled out here.
alter table app.koppelingen drop constraint if exists koppelingen_door_check;

create table app_private.warehouse_logins (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  rol_oid oid not null,            -- the login's role (pg_roles.oid) while it exists
  rolnaam text not null,           -- its name, for display and for ending it
  user_id uuid not null,           -- the member it acts for
  verbindingen_max integer not null default 5,
  aangemaakt_op timestamptz not null default now(),
  ingetrokken_op timestamptz,
  laatst_gezien_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);
-- A session's caller is looked up by its role, once per query: one index probe.
create unique index warehouse_logins_rol on app_private.warehouse_logins (rol_oid) where ingetrokken_op is null;
create unique index warehouse_logins_id on app_private.warehouse_logins (id);

-- Down Migration
drop table app_private.warehouse_logins;
alter table app.koppelingen add constraint koppelingen_door_check check (door in ('rest', 'mcp'));
