-- Up Migration
-- (issue 19) The last value lists spelled out in check constraints now come from src/choices.ts:
-- db/005_keuzes.sql derives a <table>_<column>_keuze constraint for each from app.keuzes, so
-- these literal checks go (issue 19). The door of a connection (koppelingen.door) is not here.
alter table app.rol_rechten drop constraint rol_rechten_recht_check;
alter table app.org_rechten drop constraint org_rechten_recht_check;
alter table app.taken drop constraint taken_urgentie_check;
alter table app.weektaken drop constraint weektaken_kolom_check;
alter table app.gesprekken drop constraint gesprekken_eindclassificatie_check;
alter table app.gebeurtenissen drop constraint gebeurtenissen_soort_check;
alter table app.taak_geschiedenis drop constraint taak_geschiedenis_soort_check;
alter table app.audit_log drop constraint audit_log_actie_check;
alter table app.operatie_parameters drop constraint operatie_parameters_type_check;
alter table app_private.webhook_berichten drop constraint webhook_berichten_status_check;
alter table app_private.mcp_clients drop constraint mcp_clients_soort_check;
alter table app_private.mcp_verbindingen drop constraint mcp_verbindingen_reden_intrekking_check;
alter table app_private.mcp_tokens drop constraint mcp_tokens_soort_check;

-- The check constraints over several columns get names that say their rule, the names
-- app_hidden.regel (db/020_helpers.sql) maps to a parameter and a message.
alter table app.taken rename constraint taken_check to taken_prioriteit_of_project;
alter table app.taken rename constraint taken_check1 to taken_subtaak_herhaalt_niet;
alter table app.taken rename constraint taken_check2 to taken_grootte_of_inschatting;
alter table app.kernresultaten rename constraint kernresultaten_check to kernresultaten_doel_niet_start;
alter table app.prioriteiten rename constraint prioriteiten_check to prioriteiten_deadline_na_start;
alter table app.projecten rename constraint projecten_check to projecten_deadline_na_start;
alter table app.kpi_metingen rename constraint kpi_metingen_check to kpi_metingen_eind_na_start;
alter table app.reflecties rename constraint reflecties_energie_check to reflecties_energie;
alter table app_private.webhook_afleveringen rename constraint webhook_afleveringen_check to webhook_afleveringen_slot_met_pool;

-- Down Migration
alter table app.taken rename constraint taken_prioriteit_of_project to taken_check;
alter table app.taken rename constraint taken_subtaak_herhaalt_niet to taken_check1;
alter table app.taken rename constraint taken_grootte_of_inschatting to taken_check2;
alter table app.kernresultaten rename constraint kernresultaten_doel_niet_start to kernresultaten_check;
alter table app.prioriteiten rename constraint prioriteiten_deadline_na_start to prioriteiten_check;
alter table app.projecten rename constraint projecten_deadline_na_start to projecten_check;
alter table app.kpi_metingen rename constraint kpi_metingen_eind_na_start to kpi_metingen_check;
alter table app.reflecties rename constraint reflecties_energie to reflecties_energie_check;
alter table app_private.webhook_afleveringen rename constraint webhook_afleveringen_slot_met_pool to webhook_afleveringen_check;
alter table app.rol_rechten add constraint rol_rechten_recht_check check (recht in ('alles', 'eigen', 'geen'));
alter table app.org_rechten add constraint org_rechten_recht_check check (recht in ('alles', 'eigen', 'geen'));
alter table app.taken add constraint taken_urgentie_check check (urgentie in ('laag', 'normaal', 'hoog'));
alter table app.weektaken add constraint weektaken_kolom_check check (kolom in ('nieuw', 'bezig', 'klaar'));
alter table app.gesprekken add constraint gesprekken_eindclassificatie_check check (eindclassificatie in ('A', 'B', 'C', 'D'));
alter table app.gebeurtenissen add constraint gebeurtenissen_soort_check check (soort in ('taak.aangemaakt',
  'taak.gewijzigd', 'taak.klaar', 'prioriteit.aangemaakt', 'prioriteit.afgerond', 'kpi.rood', 'reflectie.ingediend', 'webhook.test'));
alter table app.taak_geschiedenis add constraint taak_geschiedenis_soort_check check (soort in ('aangemaakt', 'stand',
  'eigenaar', 'deadline', 'week', 'titel', 'toelichting', 'tags', 'bijlagen', 'subtaken', 'verwijderd'));
alter table app.audit_log add constraint audit_log_actie_check check (actie in ('INSERT', 'UPDATE', 'DELETE'));
alter table app.operatie_parameters add constraint operatie_parameters_type_check check (type in ('uuid', 'string',
  'text', 'integer', 'number', 'keuze', 'vlag', 'array', 'object'));
alter table app_private.webhook_berichten add constraint webhook_berichten_status_check
  check (status in ('wacht', 'afgeleverd', 'mislukt', 'overgeslagen'));
alter table app_private.mcp_clients add constraint mcp_clients_soort_check check (soort in ('registratie', 'metadata_document'));
alter table app_private.mcp_verbindingen add constraint mcp_verbindingen_reden_intrekking_check
  check (reden_intrekking in ('intrekking', 'hergebruik', 'code_hergebruik', 'beheer'));
alter table app_private.mcp_tokens add constraint mcp_tokens_soort_check check (soort in ('toegang', 'vernieuwing'));
