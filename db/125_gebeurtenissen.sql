-- One change: the rows a single door call (or, without a call, a single transaction) writes.
-- A second trigger within the same change (tags after a new deadline, say) updates its
-- history entry or event rather than adding one.
create function app_hidden.zelfde_wijziging(_xid xid8, _aanroep uuid) returns boolean
language sql stable as $$
  select _xid = pg_current_xact_id() and _aanroep is not distinct from (app_hidden.beller()).aanroep_id
$$;

-- Domain events, recorded by triggers in the transaction of the change: one per subject and
-- kind per change.
create function app_hidden.gebeurtenis(_org uuid, _soort text, _onderwerp uuid, _gegevens jsonb,
                                       _besloten boolean default false)
returns void language plpgsql volatile security definer set search_path = '' as $$
begin
  update app.gebeurtenissen g set gegevens = _gegevens, tijdstip = app_hidden.nu(), besloten = _besloten
  where g.org_id = _org and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.soort = _soort
    and g.onderwerp_id = _onderwerp;
  if not found then
    insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, besloten, onderwerp_id, aanroep_id)
    values (_org, _soort, app_hidden.nu(), _gegevens, _besloten, _onderwerp, (app_hidden.beller()).aanroep_id);
  end if;
end
$$;

-- The `team` key of an answer or event: {"team": {id, naam} or null} when the organisation
-- has teams, and no key at all when it has none (the interface: "present when the
-- organisation has teams").
create function app_hidden.team_veld(_org uuid, _team uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app_hidden.eigen_org(_org) or not exists (select 1 from app.teams t where t.org_id = _org) then return '{}'; end if;
  return jsonb_build_object('team', (select jsonb_build_object('id', t.id, 'naam', t.naam) from app.teams t
                                     where t.org_id = _org and t.id = _team));
end
$$;

-- A team filter: name or id; 'geen' means company-wide (returned as the nil uuid).
create function app_hidden.param_team(p jsonb, naam text, org uuid) returns uuid
language plpgsql stable set search_path = '' as $$
declare
  v text := app_hidden.param_tekst(p, naam);
  id uuid;
begin
  if v is null then return null; end if;
  if lower(v) = 'geen' then return '00000000-0000-0000-0000-000000000000'; end if;
  select t.id into id from app.teams t
  where t.org_id = org and (t.id::text = lower(v) or lower(t.naam) = lower(v));
  if id is null then
    perform app_hidden.ongeldig(naam, format('Team %s bestaat niet; gebruik een naam of id uit team, of geen.', v));
  end if;
  return id;
end
$$;

-- A flag: ja/nee or a JSON boolean.
create function app_hidden.param_vlag(p jsonb, naam text, standaard boolean default false) returns boolean
language plpgsql immutable set search_path = '' as $$
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' or p ->> naam = '' then return standaard; end if;
  if jsonb_typeof(p -> naam) = 'boolean' then return (p -> naam)::boolean; end if;
  if p ->> naam in ('ja', 'nee') then return p ->> naam = 'ja'; end if;
  perform app_hidden.ongeldig(naam, format('%s moet ja of nee zijn.', naam));
end
$$;

create function app_hidden.param_getal(p jsonb, naam text, verplicht boolean default false) returns numeric
language plpgsql immutable set search_path = '' as $$
begin
  if not p ? naam or jsonb_typeof(p -> naam) = 'null' or p ->> naam = '' then
    if verplicht then perform app_hidden.ongeldig(naam, format('%s is verplicht.', naam)); end if;
    return null;
  end if;
  if jsonb_typeof(p -> naam) = 'number' or p ->> naam ~ '^-?\d+(\.\d+)?$' then return (p ->> naam)::numeric; end if;
  perform app_hidden.ongeldig(naam, format('%s moet een getal zijn.', naam));
end
$$;

create function app_hidden.param_keuze(p jsonb, naam text, waarden text[], verplicht boolean default false) returns text
language plpgsql immutable set search_path = '' as $$
declare v text := app_hidden.param_tekst(p, naam, verplicht);
begin
  if v is not null and not v = any (waarden) then
    perform app_hidden.ongeldig(naam, format('%s moet een van %s zijn.', naam, array_to_string(waarden, ', ')));
  end if;
  return v;
end
$$;
