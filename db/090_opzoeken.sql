-- Finding what the app (CLI, import, workers) is told about by name, or refusing by parameter:
-- the one lookup-or-refuse path of beheer, as app_hidden.param_verwijzing (040_parameters.sql)
-- is the doors'. Early in the file map, so every later file may use it.

-- The one row a name or id found, or a refusal by _parameter: none (<wat> <naam> bestaat niet)
-- or several rows of that name (then the id tells them apart).
create function beheer.enige(_ids uuid[], _parameter text, _wat text, _meervoud text, _naam text) returns uuid
language plpgsql immutable set search_path = '' as $$
begin
  if coalesce(cardinality(_ids), 0) = 0 then
    perform app_hidden.ongeldig(_parameter, format('%s %s bestaat niet.', _wat, _naam));
  elsif cardinality(_ids) > 1 then
    perform app_hidden.ongeldig(_parameter, format('Er zijn meerdere %s met de naam %s; gebruik het id.', _meervoud, _naam));
  end if;
  return _ids[1];
end
$$;

-- An organisation by id or by its name (unique, ignoring letter case).
create function beheer.org(_org text) returns uuid
language sql stable as $$
  select beheer.enige((select array_agg(o.org_id) from app.organisaties o
                       where o.org_id::text = lower(_org) or lower(o.naam) = lower(trim(_org))),
                      'org', 'Organisatie', 'organisaties', _org)
$$;

-- A business process of the organisation by id or by its name, refused by _parameter.
create function beheer.proces(_org uuid, _proces text, _parameter text default 'proces') returns uuid
language sql stable as $$
  select beheer.enige((select array_agg(p.id) from app.processen p
                       where p.org_id = _org and (p.id::text = lower(_proces) or lower(p.naam) = lower(_proces))),
                      _parameter, 'Proces', 'processen', _proces)
$$;

-- A webhook by its id (the app names webhooks by id only; the id tells the organisation), or a
-- refusal by _parameter.
create function beheer.webhook(_id uuid, _parameter text default 'id') returns app_private.webhooks
language plpgsql stable set search_path = '' as $$
declare
  gevonden uuid := beheer.enige(array(select x.id from app_private.webhooks x where x.id = _id),
                                _parameter, 'Webhook', 'webhooks', _id::text);
  w app_private.webhooks;
begin
  select * into w from app_private.webhooks x where x.id = gevonden;
  return w;
end
$$;

-- A team of the organisation by its name (any letter case), or null. The doors and the CLI
-- name a team through app_hidden.param_verwijzing ('team'); the import, which has no caller while
-- it checks, finds one here.
create function beheer.team_vinden(_org uuid, _naam text) returns uuid
language sql stable as $$
  select t.id from app.teams t where t.org_id = _org and lower(t.naam) = lower(trim(_naam))
$$;

-- A member by user_id or e-mail address (any letter case), or null: who is found, and how, for
-- the app and the import alike. _actief: only an active member (see beheer.lid).
create function beheer.lid_vinden(_org uuid, _wie text, _actief boolean default false) returns uuid
language sql stable as $$
  select l.user_id from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
  where l.org_id = _org and (l.actief or not _actief)
    and (a.id = case when trim(_wie) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then trim(_wie)::uuid end
         or lower(a.email) = lower(trim(_wie)))
$$;

-- A member as beheer.lid_vinden finds one, or a refusal by _parameter. Who a record is about,
-- or who acted, may be a member who left (_actief false: a key listed, a membership changed
-- back, history recorded for them, as the import keeps it). Whom the app gives something to do
-- now (a team to lead, a process, a role seat, a conversation) must be active (_actief true),
-- like a member the doors name (app_hidden.param_verwijzing, 'lid'). The import, which reports
-- every fault at its place instead of refusing at the first, uses beheer.lid_vinden itself.
create function beheer.lid(_org uuid, _wie text, _parameter text default 'user', _actief boolean default false)
returns uuid
language plpgsql stable set search_path = '' as $$
declare id uuid := beheer.lid_vinden(_org, _wie, _actief);
begin
  if id is null then
    perform app_hidden.ongeldig(_parameter, format(case when _actief then '%s is geen actief lid van deze organisatie.'
                                                        else '%s is geen lid van deze organisatie.' end, _wie));
  end if;
  return id;
end
$$;
