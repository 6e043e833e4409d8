-- Up Migration
-- Sessions of the owner's pages (/app, src/app/): one row per signed-in browser, for one
-- organisation. Only the SHA-256 hash of the cookie is stored. A session counts only while
-- its member is active with the role it signed in with (db/920_app_pages.sql), so removing or
-- demoting a member ends their sessions at once; signing out sets ingetrokken_op.
create table app_private.app_sessies (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  hash bytea not null,
  rol text not null,
  aangemaakt_op timestamptz not null,
  wachtwoord_op timestamptz not null,     -- the last time the password was given (new secrets ask again after 10 minutes)
  laatst_gebruikt_op timestamptz not null,
  verloopt_op timestamptz not null,
  ingetrokken_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id) on delete cascade
);
-- Looked up before the organisation is known, like an API key's hash.
create unique index app_sessies_hash on app_private.app_sessies (hash);
create index app_sessies_user on app_private.app_sessies (org_id, user_id);

-- Forms that show a secret once (a new API key, a webhook's signing secret) carry a one-time
-- token: posting it again (a reload) finds it used and creates nothing.
create table app_private.app_formulieren (
  org_id uuid not null,
  sessie_id uuid not null,
  hash bytea not null,
  gebruikt_op timestamptz not null,
  primary key (org_id, sessie_id, hash),
  foreign key (org_id, sessie_id) references app_private.app_sessies (org_id, id) on delete cascade
);

-- Failed sign-ins on the pages, per e-mail address (lower case), so guessing a password is
-- slowed down: beheer.app_aanmelden_geblokkeerd. Not tied to an organisation (the address may
-- have no account).
create table app_private.app_aanmeldpogingen (
  email text not null,
  tijdstip timestamptz not null
);
create index app_aanmeldpogingen_email on app_private.app_aanmeldpogingen (email, tijdstip);

-- Down Migration
drop table app_private.app_aanmeldpogingen;
drop table app_private.app_formulieren;
drop table app_private.app_sessies;
