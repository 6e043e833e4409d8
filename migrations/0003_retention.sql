-- Up Migration
-- Retention trims the logs by age (beheer.bewaartermijnen_toepassen); these let it find the
-- oldest rows without reading the whole table.
create index aanroepen_bewaren on app_private.aanroepen (tijdstip);
create index audit_log_bewaren on app.audit_log (tijdstip);

-- Down Migration
drop index app.audit_log_bewaren;
drop index app_private.aanroepen_bewaren;
