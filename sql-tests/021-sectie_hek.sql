-- The tables of a section carry the section in their organisation fence (db/060_policies.sql,
-- app_hidden.mijn_org_in), and their read policies no longer check it. Read directly as the
-- door role, each shows its rows while the section is released and the role may read in it,
-- and nothing once the section is withdrawn or the role may read nothing in it; the app acting
-- as itself (a session past row-level security, reading a definition) still sees its
-- organisation's rows, as before.
begin;
select plan(4 * 9 + 3);

select tests.wereld('Hek BV') as org \gset
create temp table hek (tabel text, sectie text);
insert into hek values ('app.projecten', 'prioriteiten'), ('app.prioriteiten', 'prioriteiten'),
  ('app.kernresultaten', 'prioriteiten'), ('app.taken', 'prioriteiten'), ('app.tags', 'prioriteiten'),
  ('app.kpis', 'kpis'), ('app.kpi_kwartaaldoelen', 'kpis'), ('app.kpi_metingen', 'kpis'), ('app.weektaken', 'weektaken');

-- Released: the owner reads rows of every one of them.
select ok(tests.rijen(:'org', 'eigenaar', h.tabel) > 0, format('%s: rows while %s is released', h.tabel, h.sectie))
from hek h order by h.tabel;

-- A role that may read nothing in the section (every read operation of it 'geen') reads no row.
insert into app.org_rechten (org_id, operatie, rol, recht)
select :'org', o.naam, 'mt', 'geen' from app.operaties o where o.sectie in (select sectie from hek) and not o.schrijft;
select is(tests.rijen(:'org', 'mt', h.tabel), 0::bigint, format('%s: no row for a role that may read nothing in %s', h.tabel, h.sectie))
from hek h order by h.tabel;
delete from app.org_rechten where org_id = :'org' and rol = 'mt';

-- Withdrawn: nobody reads a row, the owner neither.
select beheer.secties_zetten(:'org', array['prioriteiten', 'kpis', 'weektaken'], false);
select is(tests.rijen(:'org', 'eigenaar', h.tabel), 0::bigint, format('%s: no row once %s is withdrawn', h.tabel, h.sectie))
from hek h order by h.tabel;

-- The app acting as itself reads its organisation's rows through the definitions
-- whatever the sections (it reads past row-level security), and no other organisation's.
select tests.wereld('Ander BV') as ander \gset
select app_hidden.handelen_namens(:'org', null, 'app');
select ok((select count(*) from app_hidden.def_taken) > 0 and (select bool_and(org_id = :'org') from app_hidden.def_taken),
  'the app acting as itself reads its own tasks through def_taken, the section withdrawn');
select ok((select count(*) from app_hidden.def_kpi_metingen) > 0 and (select bool_and(org_id = :'org') from app_hidden.def_kpi_metingen),
  'its own KPI measurements through def_kpi_metingen');
select ok((select count(*) from app_hidden.def_weektaken) > 0 and (select bool_and(org_id = :'org') from app_hidden.def_weektaken),
  'and its own weekly boards through def_weektaken');

-- Released again: the rows are back.
select beheer.secties_zetten(:'org', array['prioriteiten', 'kpis', 'weektaken'], true);
select ok(tests.rijen(:'org', 'eigenaar', h.tabel) > 0, format('%s: rows again once %s is released', h.tabel, h.sectie))
from hek h order by h.tabel;

select * from finish();
rollback;
