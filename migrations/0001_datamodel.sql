-- Up Migration
-- The whole data model of Koers. Tables only: functions, policies, triggers and views are
-- re-applied from db/ on every migrate (see db/CONVENTIONS.md).
--
-- Every tenant table carries org_id and it leads its primary key and every foreign key, so a
-- reference can never point into another organisation and the schema can be distributed by
-- org_id. `app` holds what the doors may reach under RLS; `app_private` holds what nothing
-- but the definer role touches (keys, codes, the call log, webhook secrets).

do $$
begin
  -- Roles are cluster-wide; several Koers databases may share a cluster (tests do).
  if not exists (select 1 from pg_roles where rolname = 'koers_door') then
    create role koers_door login nosuperuser nocreatedb nocreaterole noinherit nobypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'koers_definer') then
    create role koers_definer nologin nosuperuser nocreatedb nocreaterole bypassrls;
  end if;
end
$$;

create schema app;
create schema app_private;
revoke all on schema app_private from public;

-- Global reference data (not per organisation) ---------------------------------------------

create table app.accounts (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  naam text not null check (length(trim(naam)) > 0),
  wachtwoord_hash text,
  aangemaakt_op timestamptz not null default now()
);
create unique index accounts_email_uniek on app.accounts (lower(email));

-- Every operation of the interface, with what it touches. The doors' registry is checked
-- against this table at start-up, so the two cannot drift.
create table app.operaties (
  naam text primary key,
  schrijft boolean not null,
  sectie text check (sectie in ('team', 'prioriteiten', 'kpis', 'weektaken', 'reviews', 'financien')),
  module text not null,
  vereist_org boolean not null default true,
  alleen_mcp boolean not null default false
);

-- Default rights per operation and role (decisions.md). 'eigen' means allowed, limited to
-- the caller's own rows by the operation and the policies.
create table app.rol_rechten (
  operatie text not null references app.operaties (naam),
  rol text not null check (rol in ('eigenaar', 'admin', 'mt', 'lid', 'coach')),
  recht text not null check (recht in ('alles', 'eigen', 'geen')),
  primary key (operatie, rol)
);

-- The whole error mapping in one place: each fout code with its HTTP status, and which
-- built-in SQLSTATEs answer with which code. Our own refusals raise SQLSTATE 'KOERS' with
-- the fout code in DETAIL and the parameter in HINT (app_hidden.fout).
create table app.foutcodes (
  code text primary key,
  status integer not null check (status between 400 and 599)
);
create table app.sqlstate_fouten (
  sqlstate text primary key check (length(sqlstate) = 5),
  code text not null references app.foutcodes (code)
);

-- Organisations and membership ----------------------------------------------------------

create table app.organisaties (
  org_id uuid primary key default gen_random_uuid(),
  naam text not null check (length(trim(naam)) > 0),
  tijdzone text not null default 'Europe/Amsterdam',
  volgend_taaknummer integer not null default 1,
  aangemaakt_op timestamptz not null default now()
);

create table app.teams (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null check (length(trim(naam)) > 0),
  leider_user_id uuid,
  primary key (org_id, id)
);
create unique index teams_naam_uniek on app.teams (org_id, lower(naam));

create table app.lidmaatschappen (
  org_id uuid not null references app.organisaties on delete cascade,
  user_id uuid not null references app.accounts (id),
  rol text not null check (rol in ('eigenaar', 'admin', 'mt', 'lid', 'coach')),
  functietitel text,
  team_id uuid,
  actief boolean not null default true,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, user_id),
  foreign key (org_id, team_id) references app.teams (org_id, id)
);
create index lidmaatschappen_user on app.lidmaatschappen (user_id);

alter table app.teams
  add foreign key (org_id, leider_user_id) references app.lidmaatschappen (org_id, user_id);

create table app.processen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null,
  eindverantwoordelijke_user_id uuid,
  volgorde integer not null default 0,
  primary key (org_id, id),
  foreign key (org_id, eindverantwoordelijke_user_id) references app.lidmaatschappen (org_id, user_id)
);

-- A role is a named seat in a process; user_id null means the seat is open.
create table app.rollen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  proces_id uuid not null,
  naam text not null,
  user_id uuid,
  primary key (org_id, id),
  foreign key (org_id, proces_id) references app.processen (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Per-door switches: the owner turns a door on and may keep it read only.
create table app.koppelingen (
  org_id uuid not null references app.organisaties on delete cascade,
  door text not null check (door in ('rest', 'mcp')),
  aan boolean not null default false,
  alleen_lezen boolean not null default false,
  primary key (org_id, door)
);

-- Sections the owner released for the doors. No row means not released.
create table app.secties (
  org_id uuid not null references app.organisaties on delete cascade,
  sectie text not null check (sectie in ('team', 'prioriteiten', 'kpis', 'weektaken', 'reviews', 'financien')),
  vrijgegeven boolean not null default false,
  primary key (org_id, sectie)
);

-- Modules an organisation switched off. No row means on.
create table app.modules (
  org_id uuid not null references app.organisaties on delete cascade,
  module text not null,
  aan boolean not null default true,
  primary key (org_id, module)
);

-- Per-organisation deviations from app.rol_rechten.
create table app.org_rechten (
  org_id uuid not null references app.organisaties on delete cascade,
  operatie text not null references app.operaties (naam),
  rol text not null check (rol in ('eigenaar', 'admin', 'mt', 'lid', 'coach')),
  recht text not null check (recht in ('alles', 'eigen', 'geen')),
  primary key (org_id, operatie, rol)
);

create table app.brand_labels (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null,
  primary key (org_id, id)
);
create unique index brand_labels_naam_uniek on app.brand_labels (org_id, lower(naam));

-- Priorities and key results --------------------------------------------------------------

create table app.prioriteiten (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  soort text not null check (soort in ('rock', 'okr')),
  titel text not null check (length(trim(titel)) > 0),
  omschrijving text,
  eigenaar_user_id uuid not null,
  kwartaal_start date not null check (extract(day from kwartaal_start) = 1 and extract(month from kwartaal_start) in (1, 4, 7, 10)),
  startdatum date,
  deadline date,
  team_id uuid,
  brand_label_id uuid,
  afgerond_op timestamptz,
  aangemaakt_door uuid,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, eigenaar_user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, team_id) references app.teams (org_id, id),
  foreign key (org_id, brand_label_id) references app.brand_labels (org_id, id),
  foreign key (org_id, aangemaakt_door) references app.lidmaatschappen (org_id, user_id),
  check (deadline is null or startdatum is null or deadline >= startdatum)
);
create index prioriteiten_kwartaal on app.prioriteiten (org_id, kwartaal_start);

create table app.kernresultaten (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  prioriteit_id uuid not null,
  titel text not null,
  startwaarde numeric not null default 0,
  doelwaarde numeric not null,
  huidige_waarde numeric not null default 0,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, prioriteit_id) references app.prioriteiten (org_id, id),
  check (doelwaarde <> startwaarde)
);

-- KPIs ------------------------------------------------------------------------------------

create table app.kpis (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null check (length(trim(naam)) > 0),
  eenheid text,
  eigenaar_user_id uuid not null,
  meetsoort text not null check (meetsoort in ('teller', 'stand')),
  cadans text not null check (cadans in ('week', 'month', 'quarter')),
  lager_is_beter boolean not null default false,
  team_id uuid,
  proces_id uuid,
  doel text,
  actief boolean not null default true,
  aangemaakt_door uuid,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, eigenaar_user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, team_id) references app.teams (org_id, id),
  foreign key (org_id, proces_id) references app.processen (org_id, id)
);

create table app.kpi_kwartaaldoelen (
  org_id uuid not null references app.organisaties on delete cascade,
  kpi_id uuid not null,
  kwartaal_start date not null check (extract(day from kwartaal_start) = 1 and extract(month from kwartaal_start) in (1, 4, 7, 10)),
  doel numeric not null,
  primary key (org_id, kpi_id, kwartaal_start),
  foreign key (org_id, kpi_id) references app.kpis (org_id, id)
);

-- One measurement per KPI per period; a new one overwrites.
create table app.kpi_metingen (
  org_id uuid not null references app.organisaties on delete cascade,
  kpi_id uuid not null,
  periode text not null check (periode ~ '^\d{4}-(W\d{2}|\d{2}|Q[1-4])$'),
  periode_start date not null,
  periode_eind date not null,
  waarde numeric not null,
  toelichting text,
  ingevoerd_door uuid,
  ingevoerd_op timestamptz not null default now(),
  primary key (org_id, kpi_id, periode),
  foreign key (org_id, kpi_id) references app.kpis (org_id, id),
  foreign key (org_id, ingevoerd_door) references app.lidmaatschappen (org_id, user_id),
  check (periode_eind >= periode_start)
);

-- Projects --------------------------------------------------------------------------------

create table app.projecten (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  titel text not null check (length(trim(titel)) > 0),
  omschrijving text,
  eigenaar_user_id uuid not null,
  startdatum date not null,
  deadline date,
  besloten boolean not null default false,
  brand_label_id uuid,
  afgerond_op timestamptz,
  aangemaakt_door uuid,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, eigenaar_user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, brand_label_id) references app.brand_labels (org_id, id),
  foreign key (org_id, aangemaakt_door) references app.lidmaatschappen (org_id, user_id),
  check (deadline is null or deadline >= startdatum)
);

-- Who works on a project (what `besloten` limits visibility to).
create table app.project_leden (
  org_id uuid not null references app.organisaties on delete cascade,
  project_id uuid not null,
  user_id uuid not null,
  primary key (org_id, project_id, user_id),
  foreign key (org_id, project_id) references app.projecten (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Tasks -----------------------------------------------------------------------------------

create table app.taken (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  nummer integer not null,
  omschrijving text not null check (length(trim(omschrijving)) > 0),
  toelichting text,
  prioriteit_id uuid,
  project_id uuid,
  ouder_id uuid,
  eigenaar_user_id uuid,
  aangemaakt_door uuid,
  stand text not null default 'open' check (stand in ('open', 'in_uitvoering', 'wacht_op_feedback', 'voltooid', 'vervallen')),
  deadline date,
  week text check (week ~ '^\d{4}-W\d{2}$'),
  urgentie text check (urgentie in ('laag', 'normaal', 'hoog')),
  brand_label_id uuid,
  grootte text check (grootte in ('klein', 'middel', 'groot')),
  inschatting_uren numeric check (inschatting_uren >= 0),
  herhalen text check (herhalen in ('dag', 'week', 'maand', 'kwartaal', 'jaar')),
  herhaling_van uuid,
  afgerond_op timestamptz,
  verwijderd_op timestamptz,
  aangemaakt_op timestamptz not null default now(),
  bijgewerkt_op timestamptz not null default now(),
  primary key (org_id, id),
  unique (org_id, nummer),
  foreign key (org_id, prioriteit_id) references app.prioriteiten (org_id, id),
  foreign key (org_id, project_id) references app.projecten (org_id, id),
  foreign key (org_id, ouder_id) references app.taken (org_id, id),
  foreign key (org_id, eigenaar_user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, aangemaakt_door) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, brand_label_id) references app.brand_labels (org_id, id),
  foreign key (org_id, herhaling_van) references app.taken (org_id, id),
  check (prioriteit_id is null or project_id is null),
  check (ouder_id is null or herhalen is null),
  check (grootte is null or inschatting_uren is null)
);
create index taken_prioriteit on app.taken (org_id, prioriteit_id) where prioriteit_id is not null;
create index taken_project on app.taken (org_id, project_id) where project_id is not null;
create index taken_ouder on app.taken (org_id, ouder_id) where ouder_id is not null;
create index taken_eigenaar on app.taken (org_id, eigenaar_user_id);

create table app.tags (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null check (length(trim(naam)) > 0),
  primary key (org_id, id)
);
create unique index tags_naam_uniek on app.tags (org_id, lower(naam));

create table app.taak_tags (
  org_id uuid not null references app.organisaties on delete cascade,
  taak_id uuid not null,
  tag_id uuid not null,
  primary key (org_id, taak_id, tag_id),
  foreign key (org_id, taak_id) references app.taken (org_id, id),
  foreign key (org_id, tag_id) references app.tags (org_id, id)
);

create table app.bijlagen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  taak_id uuid not null,
  naam text not null,
  mimetype text,
  tekst text,
  geupload_door uuid,
  geupload_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, taak_id) references app.taken (org_id, id),
  foreign key (org_id, geupload_door) references app.lidmaatschappen (org_id, user_id)
);

create table app.opmerkingen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  taak_id uuid not null,
  tekst text not null,
  door_user_id uuid,
  geplaatst_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, taak_id) references app.taken (org_id, id),
  foreign key (org_id, door_user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Written by triggers only; an empty door_user_id means automatic.
create table app.taak_geschiedenis (
  org_id uuid not null references app.organisaties on delete cascade,
  id bigint generated always as identity,
  taak_id uuid not null,
  soort text not null check (soort in ('aangemaakt', 'stand', 'eigenaar', 'deadline', 'week', 'titel', 'toelichting', 'tags', 'bijlagen', 'subtaken', 'verwijderd')),
  door_user_id uuid,
  tijdstip timestamptz not null,
  oud jsonb,
  nieuw jsonb,
  primary key (org_id, id),
  foreign key (org_id, taak_id) references app.taken (org_id, id)
);
create index taak_geschiedenis_taak on app.taak_geschiedenis (org_id, taak_id, tijdstip desc, id desc);

create table app.uren (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  datum date not null,
  uren numeric not null check (uren > 0 and uren <= 24),
  taak_id uuid,
  prioriteit_id uuid,
  project_id uuid,
  omschrijving text,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, taak_id) references app.taken (org_id, id),
  foreign key (org_id, prioriteit_id) references app.prioriteiten (org_id, id),
  foreign key (org_id, project_id) references app.projecten (org_id, id)
);
create index uren_user_datum on app.uren (org_id, user_id, datum);

-- Weekly board and day priorities -----------------------------------------------------------

create table app.weektaken (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  week text not null check (week ~ '^\d{4}-W\d{2}$'),
  titel text not null check (length(trim(titel)) > 0),
  kolom text not null default 'nieuw' check (kolom in ('nieuw', 'bezig', 'klaar')),
  klaar boolean not null default false,
  prioriteit_id uuid,
  aangemaakt_door uuid,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, prioriteit_id) references app.prioriteiten (org_id, id),
  foreign key (org_id, aangemaakt_door) references app.lidmaatschappen (org_id, user_id)
);
create index weektaken_user_week on app.weektaken (org_id, user_id, week);

create table app.dagprioriteiten (
  org_id uuid not null references app.organisaties on delete cascade,
  user_id uuid not null,
  datum date not null,
  prioriteit_1 text,
  prioriteit_2 text,
  prioriteit_3 text,
  bijgewerkt_op timestamptz not null default now(),
  primary key (org_id, user_id, datum),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Reviews ---------------------------------------------------------------------------------

create table app.reflecties (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  soort text not null check (soort in ('maand', 'kwartaal', 'jaar')),
  periode text not null check (periode ~ '^\d{4}(-\d{2}|-Q[1-4])?$'),
  goed text,
  beter text,
  geleerd text,
  focus text,
  energie integer check (energie between 1 and 10),
  ingediend_op timestamptz,
  primary key (org_id, id),
  unique (org_id, user_id, soort, periode),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

create table app.gesprekken (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  medewerker_user_id uuid not null,
  leider_user_id uuid not null,
  soort text not null,
  datum date not null,
  afgerond boolean not null default false,
  eindclassificatie text check (eindclassificatie in ('A', 'B', 'C', 'D')),
  primary key (org_id, id),
  foreign key (org_id, medewerker_user_id) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, leider_user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Finance ---------------------------------------------------------------------------------

-- Figures stay null while the measurement is an open invitation to the bookkeeper.
create table app.waarderingen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  periode text not null,
  omzet numeric,
  genormaliseerde_ebitda numeric,
  multiple numeric,
  aandelenwaarde numeric,
  gemeten_op timestamptz not null default now(),
  primary key (org_id, id)
);

-- Coaching and strategy ---------------------------------------------------------------------

create table app.sessienotities (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  datum date not null,
  titel text not null,
  soort text not null check (soort in ('strategie', 'kwartaal', 'maand', 'check_in', 'overig')),
  samenvatting text not null,
  highlights jsonb not null default '[]',
  besluiten jsonb not null default '[]',
  learnings jsonb not null default '[]',
  status text not null default 'concept' check (status in ('concept', 'vastgesteld')),
  geschreven_door uuid,
  aangemaakt_op timestamptz not null default now(),
  vastgesteld_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, geschreven_door) references app.lidmaatschappen (org_id, user_id)
);

create table app.sessie_actiepunten (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  notitie_id uuid not null,
  tekst text not null,
  eigenaar_user_id uuid,
  deadline date,
  primary key (org_id, id),
  foreign key (org_id, notitie_id) references app.sessienotities (org_id, id),
  foreign key (org_id, eigenaar_user_id) references app.lidmaatschappen (org_id, user_id)
);

create table app.strategie (
  org_id uuid primary key references app.organisaties on delete cascade,
  bhag text,
  purpose text,
  dna text,
  jaarthema text,
  core_customer text,
  core_competence text,
  brand_promise text,
  sandbox_geo text,
  sandbox_niche text,
  sandbox_product text,
  profit_per_x text,
  profit_per_x_toelichting text,
  thag text,
  bijgewerkt_op timestamptz not null default now()
);

create table app.strategie_voorstellen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  velden jsonb not null,
  ingediend_door uuid not null,
  ingediend_op timestamptz not null default now(),
  status text not null default 'open' check (status in ('open', 'goedgekeurd', 'afgewezen')),
  beoordeeld_door uuid,
  beoordeeld_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, ingediend_door) references app.lidmaatschappen (org_id, user_id),
  foreign key (org_id, beoordeeld_door) references app.lidmaatschappen (org_id, user_id)
);

create table app.meldingen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  tekst text not null,
  aangemaakt_op timestamptz not null default now(),
  gelezen_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

-- Domain events, recorded by triggers in the transaction of the change. `besloten` marks
-- events about private-project tasks, which are never sent.
create table app.gebeurtenissen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  soort text not null check (soort in ('taak.aangemaakt', 'taak.gewijzigd', 'taak.klaar', 'prioriteit.aangemaakt', 'prioriteit.afgerond', 'kpi.rood', 'reflectie.ingediend', 'webhook.test')),
  tijdstip timestamptz not null,
  gegevens jsonb not null,
  besloten boolean not null default false,
  primary key (org_id, id)
);
create index gebeurtenissen_tijdstip on app.gebeurtenissen (org_id, tijdstip);

-- Change log of tenant rows, written by one generic trigger.
create table app.audit_log (
  org_id uuid not null references app.organisaties on delete cascade,
  id bigint generated always as identity,
  tijdstip timestamptz not null,
  tabel text not null,
  actie text not null check (actie in ('INSERT', 'UPDATE', 'DELETE')),
  rij jsonb not null,
  oud jsonb,
  aanroep_id uuid,
  user_id uuid,
  primary key (org_id, id)
);

-- Private: secrets, codes, logs --------------------------------------------------------------

create table app_private.api_sleutels (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  hash bytea not null,
  hint text not null,
  aangemaakt_op timestamptz not null default now(),
  ingetrokken_op timestamptz,
  laatst_gebruikt_op timestamptz,
  primary key (org_id, id),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);
-- Looked up before the organisation is known. (With Citus this index would move to a
-- reference table of hashes; see docs/architecture.md.)
create unique index api_sleutels_hash on app_private.api_sleutels (hash);

create table app_private.bevestigcodes (
  org_id uuid not null references app.organisaties on delete cascade,
  code text not null,
  user_id uuid not null,
  door text not null,
  operatie text not null references app.operaties (naam),
  parameters jsonb not null,
  voorstel jsonb not null,
  aangemaakt_op timestamptz not null,
  geldig_tot timestamptz not null,
  gebruikt_op timestamptz,
  resultaat jsonb,
  primary key (org_id, code),
  foreign key (org_id, user_id) references app.lidmaatschappen (org_id, user_id)
);

-- The organisation's call log: every call through a door, refused ones too. The row of the
-- running call also carries the caller's identity for the policies (bound to its
-- transaction by xid, so a forged setting points at nothing).
create table app_private.aanroepen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  xid xid8 not null,
  tijdstip timestamptz not null default clock_timestamp(),
  door text not null,
  operatie text not null,
  user_id uuid,
  rol text,
  sleutel_id uuid,
  parameters jsonb not null default '{}',
  status integer,
  fout_code text,
  -- What an unexpected error said; for operators only, never sent to the caller.
  fout_detail text,
  duur_ms numeric,
  primary key (org_id, id)
);
create index aanroepen_tijdstip on app_private.aanroepen (org_id, tijdstip desc);

-- Calls that could not be tied to an organisation (no or an unknown key).
create table app_private.aanroepen_zonder_org (
  id uuid primary key default gen_random_uuid(),
  tijdstip timestamptz not null default clock_timestamp(),
  door text not null,
  operatie text not null,
  parameters jsonb not null default '{}',
  status integer not null,
  fout_code text,
  duur_ms numeric
);
create index aanroepen_zonder_org_tijdstip on app_private.aanroepen_zonder_org (tijdstip desc);

create table app_private.webhooks (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  naam text not null,
  url text not null check (url ~ '^https://'),
  gebeurtenissen text[] not null,
  geheim text not null,
  aan boolean not null default true,
  opeenvolgende_fouten integer not null default 0,
  uitgezet_op timestamptz,
  aangemaakt_door uuid not null,
  aangemaakt_op timestamptz not null default now(),
  primary key (org_id, id),
  foreign key (org_id, aangemaakt_door) references app.lidmaatschappen (org_id, user_id)
);

-- A message is one event for one webhook; it keeps its id on every retry.
create table app_private.webhook_berichten (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  webhook_id uuid not null,
  gebeurtenis_id uuid not null,
  status text not null default 'wacht' check (status in ('wacht', 'afgeleverd', 'mislukt')),
  pogingen integer not null default 0,
  aangemaakt_op timestamptz not null default now(),
  afgeleverd_op timestamptz,
  primary key (org_id, id),
  unique (org_id, webhook_id, gebeurtenis_id),
  foreign key (org_id, webhook_id) references app_private.webhooks (org_id, id),
  foreign key (org_id, gebeurtenis_id) references app.gebeurtenissen (org_id, id)
);

-- A delivery is one attempt to send a message.
create table app_private.webhook_afleveringen (
  org_id uuid not null references app.organisaties on delete cascade,
  id uuid not null default gen_random_uuid(),
  bericht_id uuid not null,
  tijdstip timestamptz not null default now(),
  status_code integer,
  fout text,
  duur_ms numeric,
  primary key (org_id, id),
  foreign key (org_id, bericht_id) references app_private.webhook_berichten (org_id, id)
);

-- Deployment-wide settings (the hash of the applied db/ sources, ...).
create table app_private.instellingen (
  sleutel text primary key,
  waarde text not null
);

-- RLS is enabled and forced on every tenant table; the policies themselves live in db/.
do $$
declare t regclass;
begin
  for t in
    select c.oid::regclass from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('app', 'app_private') and c.relkind = 'r'
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'org_id')
  loop
    execute format('alter table %s enable row level security', t);
    execute format('alter table %s force row level security', t);
  end loop;
end
$$;
alter table app.accounts enable row level security;
alter table app.accounts force row level security;

-- Down Migration
drop schema app_private cascade;
drop schema app cascade;
