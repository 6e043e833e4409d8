-- Up Migration
-- Search (zoeken). Text is matched with app.koers_nl: PostgreSQL's Dutch stemmer after the
-- unaccent dictionary, so "taken" finds "taak" and "cafe" finds "café". Each searchable table
-- carries a generated tsvector with a GIN index that leads with org_id (btree_gin), so a
-- search reads only its own organisation's entries. Attachment files are kept inside
-- PostgreSQL (app_private.bijlage_bestanden, at most 10 MiB each); their text, extracted by a
-- worker job, is split into parts of a few thousand characters (app.bijlage_delen), so a
-- snippet is cut from one part and never from a whole book.

create extension if not exists unaccent;
create extension if not exists btree_gin;

-- The unaccent dictionary is named with the schema the extension lives in (public, unless a
-- deployment put it elsewhere). to_tsvector with a fixed configuration is immutable, so
-- generated columns and indexes can use it without an unaccent() wrapper.
do $$
declare s text := (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
                   where e.extname = 'unaccent');
begin
  create text search configuration app.koers_nl (copy = pg_catalog.dutch);
  execute format('alter text search configuration app.koers_nl alter mapping for hword, hword_part, word '
                 'with %I.unaccent, dutch_stem', s);
end
$$;

-- When something last changed: the search filters na and voor and the order of hits without
-- text. Set by a trigger (db/260_zoeken.sql); null on rows from before, which then count by
-- aangemaakt_op.
alter table app.prioriteiten add column bijgewerkt_op timestamptz;
alter table app.projecten add column bijgewerkt_op timestamptz;
alter table app.kpis add column bijgewerkt_op timestamptz;
alter table app.lidmaatschappen add column bijgewerkt_op timestamptz;

-- A task's tag names, kept by a trigger on app.taak_tags, so one vector holds title, tags and
-- description and a search for "offerte sales" finds a task titled Offerte tagged Sales.
-- tag_sleutels holds them in lower case for the tags filter, which then needs no join.
alter table app.taken add column tag_tekst text;
alter table app.taken add column tag_sleutels text[];
alter table app.taken disable trigger user;
update app.taken t set tag_tekst = x.namen, tag_sleutels = x.sleutels
from (select tt.org_id, tt.taak_id, string_agg(g.naam, ' ' order by lower(g.naam)) as namen,
             array_agg(lower(g.naam) order by lower(g.naam)) as sleutels
      from app.taak_tags tt join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
      group by tt.org_id, tt.taak_id) x
where t.org_id = x.org_id and t.id = x.taak_id;
alter table app.taken enable trigger user;

-- Weights: A titles and names, B tags and attachment names, C descriptions, D file text.
-- Long text is cut before it is indexed (a tsvector holds at most 1 MB).
alter table app.taken add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', omschrijving), 'A')
  || setweight(to_tsvector('app.koers_nl', coalesce(tag_tekst, '')), 'B')
  || setweight(to_tsvector('app.koers_nl', left(coalesce(toelichting, ''), 100000)), 'C')) stored;
-- Titles alone, so a search can put hits whose title holds every word first and still read
-- them newest first from an index.
alter table app.taken add column titelvector tsvector generated always as (to_tsvector('app.koers_nl', omschrijving)) stored;
alter table app.prioriteiten add column titelvector tsvector generated always as (to_tsvector('app.koers_nl', titel)) stored;
alter table app.projecten add column titelvector tsvector generated always as (to_tsvector('app.koers_nl', titel)) stored;
alter table app.kpis add column titelvector tsvector generated always as (to_tsvector('app.koers_nl', naam)) stored;
alter table app.opmerkingen add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', left(tekst, 100000)), 'C')) stored;
alter table app.prioriteiten add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', titel), 'A')
  || setweight(to_tsvector('app.koers_nl', left(coalesce(omschrijving, ''), 100000)), 'C')) stored;
alter table app.kernresultaten add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', titel), 'B')) stored;
alter table app.projecten add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', titel), 'A')
  || setweight(to_tsvector('app.koers_nl', left(coalesce(omschrijving, ''), 100000)), 'C')) stored;
alter table app.kpis add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', naam), 'A')
  || setweight(to_tsvector('app.koers_nl', coalesce(eenheid, '') || ' ' || left(coalesce(doel, ''), 100000)), 'C')) stored;

-- Attachments: the file's size and whether its text could be read. tekst_status null means
-- there is no file to read (the text was given as it is). tekst holds the extracted text,
-- parts separated by form feeds, each part's place (page, sheet) in tekst_plekken.
alter table app.bijlagen add column bytes integer check (bytes >= 0);
alter table app.bijlagen add column tekst_status text;
alter table app.bijlagen add column tekst_fout text;
alter table app.bijlagen add column tekst_plekken text[];
-- File names are split on dots, dashes and underscores: offerte_acme.pdf is "offerte acme pdf".
alter table app.bijlagen add column zoekvector tsvector generated always as (
  setweight(to_tsvector('app.koers_nl', regexp_replace(naam, '[._\-]+', ' ', 'g')), 'B')) stored;

-- The file itself, inside PostgreSQL: backed up, replicated and deleted with everything else.
create table app_private.bijlage_bestanden (
  org_id uuid not null references app.organisaties on delete cascade,
  bijlage_id uuid not null,
  inhoud bytea not null check (octet_length(inhoud) <= 10485760),  -- 10 MiB: app_hidden.bijlage_max_bytes()
  primary key (org_id, bijlage_id),
  foreign key (org_id, bijlage_id) references app.bijlagen (org_id, id) on delete cascade
);

-- The searchable parts of an attachment's text, derived from app.bijlagen.tekst by a trigger.
-- taak_id is the attachment's task, so the policy looks up one task, not the attachment first.
create table app.bijlage_delen (
  org_id uuid not null references app.organisaties on delete cascade,
  bijlage_id uuid not null,
  nr integer not null,
  taak_id uuid not null,
  -- The attachment's upload time, so the newest matching parts are found without a join.
  geupload_op timestamptz not null,
  plek text,
  tekst text not null,
  zoekvector tsvector generated always as (setweight(to_tsvector('app.koers_nl', tekst), 'D')) stored,
  primary key (org_id, bijlage_id, nr),
  foreign key (org_id, bijlage_id) references app.bijlagen (org_id, id) on delete cascade,
  foreign key (org_id, taak_id) references app.taken (org_id, id)
);

alter table app_private.bijlage_bestanden enable row level security;
alter table app_private.bijlage_bestanden force row level security;
alter table app.bijlage_delen enable row level security;
alter table app.bijlage_delen force row level security;

create index taken_zoek on app.taken using gin (org_id, zoekvector);
create index taken_titel on app.taken using gin (org_id, titelvector);
create index prioriteiten_titel on app.prioriteiten using gin (org_id, titelvector);
create index projecten_titel on app.projecten using gin (org_id, titelvector);
create index kpis_titel on app.kpis using gin (org_id, titelvector);
create index opmerkingen_zoek on app.opmerkingen using gin (org_id, zoekvector);
create index bijlagen_zoek on app.bijlagen using gin (org_id, zoekvector);
create index bijlage_delen_zoek on app.bijlage_delen using gin (org_id, zoekvector);
create index prioriteiten_zoek on app.prioriteiten using gin (org_id, zoekvector);
create index kernresultaten_zoek on app.kernresultaten using gin (org_id, zoekvector);
create index projecten_zoek on app.projecten using gin (org_id, zoekvector);
create index kpis_zoek on app.kpis using gin (org_id, zoekvector);

-- Newest first, without text; and the tags filter.
create index taken_bijgewerkt on app.taken (org_id, bijgewerkt_op desc);
create index opmerkingen_geplaatst on app.opmerkingen (org_id, geplaatst_op desc);
create index bijlagen_geupload on app.bijlagen (org_id, geupload_op desc);
create index bijlage_delen_geupload on app.bijlage_delen (org_id, geupload_op desc);
create index taak_tags_tag on app.taak_tags (org_id, tag_id);
create index opmerkingen_taak on app.opmerkingen (org_id, taak_id);
create index bijlagen_taak on app.bijlagen (org_id, taak_id);
create index bijlage_delen_taak on app.bijlage_delen (org_id, taak_id);
create index taken_tags on app.taken using gin (org_id, tag_sleutels);
-- The filter aangemaakt_door_user_id.
create index taken_aangemaakt_door on app.taken (org_id, aangemaakt_door);
create index opmerkingen_door on app.opmerkingen (org_id, door_user_id);
create index bijlagen_geupload_door on app.bijlagen (org_id, geupload_door);

-- Down Migration
drop table app.bijlage_delen;
drop table app_private.bijlage_bestanden;
drop index app.bijlagen_taak;
drop index app.opmerkingen_taak;
drop index app.taak_tags_tag;
drop index app.taken_aangemaakt_door;
drop index app.opmerkingen_door;
drop index app.bijlagen_geupload_door;
alter table app.bijlagen drop column zoekvector, drop column tekst_plekken, drop column tekst_fout,
  drop column tekst_status, drop column bytes;
alter table app.kpis drop column titelvector, drop column zoekvector, drop column bijgewerkt_op;
alter table app.projecten drop column titelvector, drop column zoekvector, drop column bijgewerkt_op;
alter table app.kernresultaten drop column zoekvector;
alter table app.prioriteiten drop column titelvector, drop column zoekvector, drop column bijgewerkt_op;
alter table app.opmerkingen drop column zoekvector;
alter table app.taken drop column titelvector, drop column zoekvector, drop column tag_sleutels, drop column tag_tekst;
alter table app.lidmaatschappen drop column bijgewerkt_op;
drop text search configuration app.koers_nl;
