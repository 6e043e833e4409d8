-- Up Migration
-- Webhook delivery (docs/webhooks.md). A message (webhook_berichten) says when its next attempt
-- is due; a change of that time queues the graphile-worker job (db/180_webhooks.sql). A
-- delivery (webhook_afleveringen) that is under way names the worker process that makes it,
-- so the attempt of a worker that died is taken over at once instead of after graphile-worker's
-- four-hour lock timeout.

alter table app_private.webhook_berichten
  drop constraint webhook_berichten_status_check,
  add constraint webhook_berichten_status_check
    check (status in ('wacht', 'afgeleverd', 'mislukt', 'overgeslagen')),
  -- When the next attempt is due; null when none is planned.
  add column volgende_poging_op timestamptz,
  -- Failed attempts since the message was queued (or queued again): picks the next delay.
  add column mislukte_pogingen integer not null default 0,
  -- Why the message was not sent (status overgeslagen).
  add column reden text;
create index webhook_berichten_webhook on app_private.webhook_berichten (org_id, webhook_id, aangemaakt_op);
create index webhook_berichten_bewaren on app_private.webhook_berichten (aangemaakt_op);

alter table app_private.webhook_afleveringen
  add column poging integer not null default 1,
  -- While the attempt is under way: the worker process's liveness lock and graphile-worker's
  -- locked_by of its job. Both null once the attempt has a result.
  add column werker_slot integer,
  add column werker_pool text,
  add check ((werker_slot is null) = (werker_pool is null));
create index webhook_afleveringen_bericht on app_private.webhook_afleveringen (org_id, bericht_id, tijdstip);
create index webhook_afleveringen_onderweg on app_private.webhook_afleveringen (werker_slot) where werker_slot is not null;
create index webhook_afleveringen_bewaren on app_private.webhook_afleveringen (tijdstip);

create index meldingen_user on app.meldingen (org_id, user_id, aangemaakt_op desc);

-- The graphile-worker pools of the running worker processes, each with its process's liveness
-- slot: the jobs a dead process had locked (running, or waiting in its local queue) are
-- released as soon as its slot is free.
create table app_private.werkers (
  pool text primary key,
  slot integer not null
);
create index werkers_slot on app_private.werkers (slot);

-- Down Migration
drop table app_private.werkers;
drop index app.meldingen_user;
drop index app_private.webhook_afleveringen_bewaren;
drop index app_private.webhook_afleveringen_onderweg;
drop index app_private.webhook_afleveringen_bericht;
alter table app_private.webhook_afleveringen
  drop column werker_pool, drop column werker_slot, drop column poging;
drop index app_private.webhook_berichten_bewaren;
drop index app_private.webhook_berichten_webhook;
alter table app_private.webhook_berichten
  drop column reden, drop column mislukte_pogingen, drop column volgende_poging_op,
  drop constraint webhook_berichten_status_check,
  add constraint webhook_berichten_status_check check (status in ('wacht', 'afgeleverd', 'mislukt'));
