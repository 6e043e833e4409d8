-- Finding what the app (CLI, import, workers) is told about by name, or refusing by parameter:
-- the one lookup-or-refuse path of beheer, as app_hidden.param_verwijzing (040_parameters.sql)
-- is the doors'. Early in the file map, so every later file may use it.

-- An organisation by id or by its name (unique, ignoring letter case).
create function beheer.org(_org text) returns uuid
language plpgsql stable set search_path = '' as $$
declare ids uuid[];
begin
  select array_agg(o.org_id) into ids from app.organisaties o
  where o.org_id::text = lower(_org) or lower(o.naam) = lower(trim(_org));
  if ids is null then
    perform app_hidden.ongeldig('org', format('Organisatie %s bestaat niet.', _org));
  elsif cardinality(ids) > 1 then
    perform app_hidden.ongeldig('org', format('Er zijn meerdere organisaties met de naam %s; gebruik het id.', _org));
  end if;
  return ids[1];
end
$$;

-- A member by user_id or e-mail address, refused by _parameter. Who a record is about, or who
-- acted, may be a member who left (_actief false: a key listed, a membership changed back,
-- history recorded for them, as the import keeps it). Whom the app gives something to do now
-- (a team to lead, a process, a role seat, a conversation) must be active (_actief true), like
-- a member the doors name (app_hidden.param_verwijzing, 'lid').
create function beheer.lid(_org uuid, _wie text, _parameter text default 'user', _actief boolean default false)
returns uuid
language plpgsql stable set search_path = '' as $$
declare id uuid;
begin
  select l.user_id into id from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
  where l.org_id = _org and (l.actief or not _actief)
    and (a.id::text = lower(trim(_wie)) or lower(a.email) = lower(trim(_wie)));
  if id is null then
    perform app_hidden.ongeldig(_parameter, format(case when _actief then '%s is geen actief lid van deze organisatie.'
                                                        else '%s is geen lid van deze organisatie.' end, _wie));
  end if;
  return id;
end
$$;
