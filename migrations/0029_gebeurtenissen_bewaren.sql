-- Up Migration
-- Events (app.gebeurtenissen) exist for the webhook messages made from them; the hourly
-- retention job (beheer.webhook_log_inkorten) now removes those older than the delivery log's
-- retention that no message refers to any longer. Removing an event checks the messages'
-- foreign key, and finding the events no message refers to looks messages up by event: this
-- index serves both (the unique key leads with the webhook).
create index webhook_berichten_gebeurtenis on app_private.webhook_berichten (org_id, gebeurtenis_id);

-- Down Migration
drop index app_private.webhook_berichten_gebeurtenis;
