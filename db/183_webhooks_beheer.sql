-- Webhooks (docs/webhooks.md), what the app does (CLI, the owner's pages): an organisation's
-- webhooks by their owner, their delivery log, and the notifications they raise. A webhook the
-- CLI names by its id is found by beheer.webhook (090_opzoeken.sql); what a message is, and
-- which addresses are refused, is 180_webhooks.sql.

-- A webhook as the owner sees it: never its secret.
create function beheer.webhook_weergave(w app_private.webhooks) returns jsonb
language sql stable as $$
  select jsonb_build_object('id', w.id, 'org_id', w.org_id, 'naam', w.naam, 'url', w.url,
    'gebeurtenissen', to_jsonb(w.gebeurtenissen), 'aan', w.aan, 'opeenvolgende_fouten', w.opeenvolgende_fouten,
    'uitgezet_op', w.uitgezet_op, 'aangemaakt_door', w.aangemaakt_door, 'aangemaakt_op', w.aangemaakt_op)
$$;

-- Only an owner creates webhooks (interface). Without _user the organisation's only owner
-- acts; with several owners the CLI must say which.
create function beheer.webhook_maken(_org uuid, _user text, _naam text, _url text, _gebeurtenissen text[],
                                     _geheim text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  eigenaar uuid;
  eigenaren uuid[];
  fout text := app_hidden.webhook_adres_fout(_url);
  onbekend text;
  w app_private.webhooks;
begin
  if _user is not null then
    eigenaar := beheer.lid(_org, _user);
    if not exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = eigenaar and l.rol = 'eigenaar') then
      perform app_hidden.fout('rol_mag_niet', 'Alleen een eigenaar van de organisatie maakt webhooks.', 'user');
    end if;
  else
    select array_agg(l.user_id order by l.aangemaakt_op) into eigenaren from app.lidmaatschappen l
    where l.org_id = _org and l.rol = 'eigenaar' and l.actief;
    if eigenaren is null then
      perform app_hidden.fout('rol_mag_niet', 'De organisatie heeft geen eigenaar; alleen een eigenaar maakt webhooks.', 'user');
    elsif cardinality(eigenaren) > 1 then
      perform app_hidden.ongeldig('user', 'De organisatie heeft meerdere eigenaren; zeg met --user welke de webhook maakt.');
    end if;
    eigenaar := eigenaren[1];
  end if;
  if nullif(trim(_naam), '') is null then
    perform app_hidden.ongeldig('naam', 'De naam van de webhook is verplicht.');
  end if;
  if fout is not null then
    perform app_hidden.ongeldig('url', fout);
  end if;
  select s into onbekend from unnest(_gebeurtenissen) s where s is null or s <> all (app_hidden.webhook_soorten()) limit 1;
  if onbekend is not null or coalesce(cardinality(_gebeurtenissen), 0) = 0 then
    perform app_hidden.ongeldig('gebeurtenissen', format('Onbekende gebeurtenis %s; kies uit %s.',
      coalesce(onbekend, '(geen)'), array_to_string(app_hidden.webhook_soorten(), ', ')));
  end if;
  if _geheim is null or length(_geheim) < 32 then
    raise exception 'beheer.webhook_maken: the signing secret is too short';
  end if;
  perform app_hidden.handelen_namens(_org, eigenaar, 'app', 'webhook_maken', jsonb_build_object(
    'naam', trim(_naam), 'host', lower(split_part(substring(_url from '^https://([^/?#]*)'), ':', 1)),
    'gebeurtenissen', to_jsonb(_gebeurtenissen)));
  insert into app_private.webhooks (org_id, naam, url, gebeurtenissen, geheim, aangemaakt_door, aangemaakt_op)
  values (_org, trim(_naam), _url, array(select distinct s from unnest(_gebeurtenissen) s order by s), _geheim,
          eigenaar, app_hidden.nu())
  returning * into w;
  return beheer.webhook_weergave(w);
end
$$;

create function beheer.webhooks(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select beheer.webhook_weergave(w) from app_private.webhooks w where w.org_id = _org order by w.aangemaakt_op, w.id
$$;

-- Switching on resets the count of failed deliveries; messages that fell due while the
-- webhook was off were skipped (status overgeslagen) and can be sent again one by one.
-- _user (here and below): the owner named in the log (the pages); the CLI acts as the app.
create function beheer.webhook_zetten(_id uuid, _aan boolean, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare w app_private.webhooks := beheer.webhook(_id);
begin
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', case when _aan then 'webhook_aan' else 'webhook_uit' end,
                                     jsonb_build_object('id', _id));
  update app_private.webhooks x
  set aan = _aan,
      opeenvolgende_fouten = case when _aan and not x.aan then 0 else x.opeenvolgende_fouten end,
      uitgezet_op = case when _aan then null when x.aan then app_hidden.nu() else x.uitgezet_op end
  where x.org_id = w.org_id and x.id = _id
  returning * into w;
  return beheer.webhook_weergave(w);
end
$$;

-- A webhook.test message for this webhook only.
create function beheer.webhook_testen(_id uuid, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  w app_private.webhooks := beheer.webhook(_id);
  g uuid;
  b uuid;
begin
  if not w.aan then
    perform app_hidden.fout('ongeldige_parameters', 'De webhook staat uit; zet hem eerst aan (koers webhook aan).', 'id');
  end if;
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', 'webhook_testen', jsonb_build_object('id', _id));
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, onderwerp_id)
  values (w.org_id, 'webhook.test', app_hidden.nu(), jsonb_build_object('webhook', jsonb_build_object('id', w.id, 'naam', w.naam)), w.id)
  returning id into g;
  insert into app_private.webhook_berichten (org_id, webhook_id, gebeurtenis_id, aangemaakt_op, volgende_poging_op)
  values (w.org_id, w.id, g, app_hidden.nu(), app_hidden.nu())
  returning id into b;
  return jsonb_build_object('webhook_id', w.id, 'bericht_id', b, 'gebeurtenis_id', g, 'gebeurtenis', 'webhook.test');
end
$$;

-- Sends a message again: the same id, a new round of attempts (each a new delivery).
create function beheer.webhook_opnieuw(_id uuid, _bericht uuid, _user uuid default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  w app_private.webhooks := beheer.webhook(_id);
  b app_private.webhook_berichten;
begin
  if not w.aan then
    perform app_hidden.fout('ongeldige_parameters', 'De webhook staat uit; zet hem eerst aan (koers webhook aan).', 'id');
  end if;
  perform app_hidden.handelen_namens(w.org_id, _user, 'app', 'webhook_opnieuw', jsonb_build_object('id', _id, 'bericht', _bericht));
  update app_private.webhook_berichten x
  set status = 'wacht', mislukte_pogingen = 0, reden = null, volgende_poging_op = app_hidden.nu()
  where x.org_id = w.org_id and x.webhook_id = w.id and x.id = _bericht
  returning * into b;
  if not found then
    perform app_hidden.ongeldig('bericht', format('Bericht %s hoort niet bij deze webhook.', _bericht));
  end if;
  return jsonb_build_object('webhook_id', w.id, 'bericht_id', b.id, 'status', b.status,
                            'volgende_poging_op', b.volgende_poging_op);
end
$$;

-- The delivery log of a webhook, newest first; on a message's latest attempt, when it failed and
-- the message still waits, when the next attempt is due.
create function beheer.webhook_afleveringslog(_id uuid, _limiet integer default 50) returns setof jsonb
language plpgsql stable set search_path = '' as $$
declare w app_private.webhooks := beheer.webhook(_id);
begin
  return query
    select jsonb_build_object('tijdstip', a.tijdstip, 'bericht_id', b.id, 'gebeurtenis', g.soort,
      'aflevering_id', a.id, 'poging', a.poging, 'status_code', a.status_code, 'duur_ms', round(a.duur_ms, 1),
      'fout', a.fout, 'onderweg', a.werker_slot is not null, 'bericht_status', b.status,
      'volgende_poging_op', case when b.status = 'wacht' and a.werker_slot is null and a.poging = b.pogingen
                                 then b.volgende_poging_op end)
    from app_private.webhook_berichten b
    join app_private.webhook_afleveringen a on a.org_id = b.org_id and a.bericht_id = b.id
    join app.gebeurtenissen g on g.org_id = b.org_id and g.id = b.gebeurtenis_id
    where b.org_id = w.org_id and b.webhook_id = w.id
    order by a.tijdstip desc, a.poging desc, a.id
    limit greatest(_limiet, 1);
end
$$;

-- Notifications of an organisation's owners (or of one member), newest first.
create function beheer.meldingen(_org uuid, _user text default null, _limiet integer default 50) returns setof jsonb
language plpgsql stable set search_path = '' as $$
declare u uuid := case when _user is not null then beheer.lid(_org, _user) end;
begin
  return query
    select jsonb_build_object('id', m.id, 'tijdstip', m.aangemaakt_op, 'user_id', m.user_id, 'naam', a.naam,
                              'tekst', m.tekst, 'gelezen_op', m.gelezen_op)
    from app.meldingen m
    join app.lidmaatschappen l on l.org_id = m.org_id and l.user_id = m.user_id
    join app.accounts a on a.id = m.user_id
    where m.org_id = _org and (m.user_id = u or (u is null and l.rol = 'eigenaar'))
    order by m.aangemaakt_op desc, m.id
    limit greatest(_limiet, 1);
end
$$;
