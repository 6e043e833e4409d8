-- Up Migration
-- A priority's key results are read by the priority (def_prioriteiten: an OKR's progress and its
-- list of key results, for every priority of a quarter). Without this index each priority read
-- every key result of its organisation.
create index kernresultaten_prioriteit on app.kernresultaten (org_id, prioriteit_id);

-- Down Migration
drop index app.kernresultaten_prioriteit;
