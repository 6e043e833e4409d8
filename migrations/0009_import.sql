-- Up Migration
-- What `koers import` created, by the identity the file gives it (its own `sleutel`, or a key
-- derived from its natural key; docs/import.md), so that importing the same file again updates
-- those rows instead of adding them a second time. Bookkeeping of the app: no door reads it.
create table app_private.import_sleutels (
  org_id uuid not null references app.organisaties on delete cascade,
  soort text not null,
  sleutel text not null,
  id uuid not null,
  primary key (org_id, soort, sleutel)
);
alter table app_private.import_sleutels enable row level security;
alter table app_private.import_sleutels force row level security;

-- Down Migration
drop table app_private.import_sleutels;
