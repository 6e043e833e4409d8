-- Up Migration
-- Sign-in for the AI connection (MCP): Koers is its own OAuth 2.1 authorization server. These
-- tables belong to a person, not to an organisation (a token acts for the person in every
-- organisation where the AI door is on), so they carry no org_id and are no tenant tables.
-- Nothing secret is stored: codes and tokens only as SHA-256 hashes; assistants are public
-- clients (PKCE, no client secret).

-- Assistants (OAuth clients): registered dynamically (RFC 7591, client_id a uuid) or known by
-- the https address of their client ID metadata document (client_id that address).
create table app_private.mcp_clients (
  client_id text primary key,
  soort text not null check (soort in ('registratie', 'metadata_document')),
  -- The client metadata as registered or fetched: client_name, redirect_uris, ...
  metadata jsonb not null,
  aangemaakt_op timestamptz not null,
  -- Metadata documents are fetched again when this is old (see app_hidden.mcp_client).
  opgehaald_op timestamptz not null
);

-- A sign-in in progress: the checked authorization request, bound to one browser by the hash
-- of a cookie, until the person signs in and allows or refuses.
create table app_private.mcp_aanvragen (
  id uuid primary key default gen_random_uuid(),
  browser_hash bytea not null,
  client_id text not null references app_private.mcp_clients on delete cascade,
  redirect_uri text not null,
  code_challenge text not null,
  state text,
  scopes text[] not null,
  bron text not null,                  -- the resource (RFC 8707) the tokens will be for
  user_id uuid references app.accounts (id),
  -- The consent form's one-time token, set when the person signed in.
  toestemming_hash bytea,
  mislukte_pogingen integer not null default 0,
  aangemaakt_op timestamptz not null,
  geldig_tot timestamptz not null
);

-- A connected assistant: one consent of one person, and the family of tokens it yields.
-- Revoking it (the person, the CLI, a reused refresh token) ends every token of the family.
create table app_private.mcp_verbindingen (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references app.accounts (id),
  client_id text not null references app_private.mcp_clients on delete cascade,
  redirect_uri text not null,
  scopes text[] not null,
  bron text not null,
  aangemaakt_op timestamptz not null,
  vernieuwd_op timestamptz,
  verloopt_op timestamptz not null,    -- the family's absolute end
  ingetrokken_op timestamptz,
  reden_intrekking text check (reden_intrekking in ('intrekking', 'hergebruik', 'code_hergebruik', 'beheer'))
);
create index mcp_verbindingen_user on app_private.mcp_verbindingen (user_id);

-- Authorization codes: one use, short-lived. A code used twice revokes what it yielded.
create table app_private.mcp_codes (
  hash bytea primary key,
  client_id text not null references app_private.mcp_clients on delete cascade,
  user_id uuid not null references app.accounts (id),
  redirect_uri text not null,
  code_challenge text not null,
  scopes text[] not null,
  bron text not null,
  aangemaakt_op timestamptz not null,
  geldig_tot timestamptz not null,
  verbinding_id uuid references app_private.mcp_verbindingen on delete cascade
);

-- Access and refresh tokens, by hash. An access token's hash covers the resource it was issued
-- for, so it resolves only at that resource. A used refresh token stays, to recognise reuse.
create table app_private.mcp_tokens (
  hash bytea primary key,
  verbinding_id uuid not null references app_private.mcp_verbindingen on delete cascade,
  soort text not null check (soort in ('toegang', 'vernieuwing')),
  aangemaakt_op timestamptz not null,
  verloopt_op timestamptz not null,
  gebruikt_op timestamptz
);
create index mcp_tokens_verbinding on app_private.mcp_tokens (verbinding_id);

-- Down Migration
drop table app_private.mcp_tokens;
drop table app_private.mcp_codes;
drop table app_private.mcp_verbindingen;
drop table app_private.mcp_aanvragen;
drop table app_private.mcp_clients;
