-- Webhooks (docs/webhooks.md): what a message is. At the commit of a change, each of its events
-- becomes a message for every active webhook subscribed to it; a message that is due queues a
-- graphile-worker job, which the task src/tasks/deliver_webhook.ts runs (delivery:
-- 186_webhooks_aflevering.sql). What a message carries, and which addresses are refused, are
-- here; the app's webhook commands are 183_webhooks_beheer.sql.

-- Events become messages at commit, not when they are recorded: until then the change may
-- still merge an event into another one or remove it (app_hidden.taak_gebeurtenis_samenvoegen),
-- and such an event must not be sent. Events about private-project tasks are never sent.
create function app_hidden.tg_gebeurtenissen__webhook_berichten() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  -- One statement: the event as the change left it (it may be gone, or merged into another),
  -- and the organisation's active webhooks subscribed to it; none, and nothing is written.
  insert into app_private.webhook_berichten (org_id, webhook_id, gebeurtenis_id, aangemaakt_op, volgende_poging_op)
  select w.org_id, w.id, g.id, app_hidden.nu(), app_hidden.nu()
  from app.gebeurtenissen g
  join app_private.webhooks w on w.org_id = g.org_id and w.aan and g.soort = any (w.gebeurtenissen)
  where g.org_id = new.org_id and g.id = new.id and not g.besloten and g.soort <> 'webhook.test'
  on conflict (org_id, webhook_id, gebeurtenis_id) do nothing;
  return null;
end
$$;
create constraint trigger _900_webhook_berichten after insert on app.gebeurtenissen
  deferrable initially deferred
  for each row execute function app_hidden.tg_gebeurtenissen__webhook_berichten();

create trigger _900_job after insert on app_private.webhook_berichten
  for each row when (new.status = 'wacht' and new.volgende_poging_op is not null)
  execute function app_hidden.tg__job('deliver_webhook', 'volgende_poging_op');
create trigger _900_job_opnieuw after update of volgende_poging_op on app_private.webhook_berichten
  for each row when (new.status = 'wacht' and new.volgende_poging_op is not null
                     and new.volgende_poging_op is distinct from old.volgende_poging_op)
  execute function app_hidden.tg__job('deliver_webhook', 'volgende_poging_op');

-- A team as a message shows it: id and name, or null (company-wide).
create function app_hidden.webhook_team(t jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case when jsonb_typeof(t) = 'object' then jsonb_build_object('id', t -> 'id', 'naam', t -> 'naam') else 'null'::jsonb end
$$;

-- What a message may carry (interface, content restrictions): titles, statuses and ids, per
-- event kind, each key named here. Whatever else a trigger records (a figure, a description)
-- is left out, so the rule holds for every event, also one recorded before this rule changed.
create function app_hidden.webhook_gegevens(_soort text, g jsonb) returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  team jsonb := case when g ? 'team' then jsonb_build_object('team', app_hidden.webhook_team(g -> 'team')) else '{}' end;
  t jsonb := g -> 'taak';
  o jsonb := g -> 'onderdeel';
  p jsonb := g -> 'prioriteit';
  k jsonb := g -> 'kpi';
begin
  case
    when _soort in ('taak.aangemaakt', 'taak.gewijzigd', 'taak.klaar') then
      return jsonb_build_object(
        'taak', jsonb_build_object('id', t -> 'id', 'nummer', t -> 'nummer', 'titel', t -> 'titel', 'klaar', t -> 'klaar',
                                   'status', t -> 'status', 'deadline', t -> 'deadline', 'eigenaar_id', t -> 'eigenaar_id'),
        'onderdeel', case when jsonb_typeof(o) = 'object' then
          jsonb_build_object('id', o -> 'id', 'titel', o -> 'titel', 'soort', o -> 'soort')
          || case when o ? 'team' then jsonb_build_object('team', app_hidden.webhook_team(o -> 'team')) else '{}' end
        end);
    when _soort in ('prioriteit.aangemaakt', 'prioriteit.afgerond') then
      return jsonb_build_object('prioriteit', jsonb_build_object('id', p -> 'id', 'titel', p -> 'titel', 'soort', p -> 'soort',
        'kwartaal', p -> 'kwartaal', 'deadline', p -> 'deadline', 'eigenaar_id', p -> 'eigenaar_id', 'afgerond', p -> 'afgerond'))
        || team;
    when _soort = 'kpi.rood' then
      return jsonb_build_object(
        'kpi', jsonb_build_object('id', k -> 'id', 'naam', k -> 'naam', 'eigenaar_id', k -> 'eigenaar_id',
                                  'meetsoort', k -> 'meetsoort', 'cadans', k -> 'cadans'),
        'periode', g -> 'meting' -> 'periode', 'kwartaal', g -> 'kwartaal', 'stoplicht', g -> 'stoplicht') || team;
    when _soort = 'reflectie.ingediend' then
      return jsonb_build_object('reflectie', jsonb_build_object('id', g -> 'reflectie' -> 'id',
        'user_id', g -> 'reflectie' -> 'user_id', 'soort', g -> 'reflectie' -> 'soort', 'periode', g -> 'reflectie' -> 'periode'));
    when _soort = 'webhook.test' then
      return jsonb_build_object('webhook', jsonb_build_object('id', g -> 'webhook' -> 'id', 'naam', g -> 'webhook' -> 'naam'));
    else
      return '{}';
  end case;
end
$$;

-- Whether the subject of a task event is in a private project now: a project made private
-- after the event was recorded keeps its tasks to itself as well.
create function app_hidden.webhook_besloten(g app.gebeurtenissen) returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return g.besloten or (g.soort like 'taak.%' and exists (
    select 1 from app.taken t join app.projecten p on p.org_id = t.org_id and p.id = t.project_id
    where t.org_id = g.org_id and t.id = g.onderwerp_id and p.besloten));
end
$$;

-- Addresses ---------------------------------------------------------------------------------

-- Why a webhook address is refused, or null. The CLI checks first with the WHATWG URL parser
-- (which also reads 0x7f.1, 2130706433 and 0177.0.0.1 as IPv4) and stores what it made of
-- the address; this is the database's own guard for every other path.
create function app_hidden.webhook_adres_fout(_url text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  autoriteit text;
  host text;
  poort text;
  laatste text;
begin
  if _url is null or length(_url) > 2048 or _url ~ '[\s\x01-\x1f\\]' then
    return 'Het adres is geen geldige URL.';
  end if;
  if lower(_url) !~ '^https://' then
    return 'Het adres moet https gebruiken.';
  end if;
  autoriteit := substring(_url from '^https://([^/?#]*)');
  if autoriteit like '%@%' then
    return 'Het adres mag geen gebruikersnaam of wachtwoord bevatten.';
  end if;
  if autoriteit like '[%' then
    return 'Het adres moet een domeinnaam gebruiken, geen IP-adres.';
  end if;
  host := lower(split_part(autoriteit, ':', 1));
  poort := nullif(substring(autoriteit from ':(.*)$'), '');
  if poort is not null and (poort !~ '^\d{1,5}$' or poort::int not between 1 and 65535) then
    return 'De poort van het adres is ongeldig.';
  end if;
  if host !~ '^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$' then
    return 'Het adres moet een domeinnaam gebruiken.';
  end if;
  -- A host whose last label is a number is an IPv4 address in some notation (WHATWG URL).
  laatste := split_part(rtrim(host, '.'), '.', -1);
  if laatste ~ '^\d+$' or laatste ~ '^0x[0-9a-f]*$' then
    return 'Het adres moet een domeinnaam gebruiken, geen IP-adres.';
  end if;
  return null;
end
$$;

create function app_hidden.webhook_soorten() returns text[]
language sql stable parallel safe as $$
  select array_remove(app_hidden.keuzes('gebeurtenis_soort'), 'webhook.test')
$$;
