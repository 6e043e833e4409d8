-- What the interface says happens "in the app": organisations, people, keys, door switches,
-- section releases, reading the log. Called by the CLI over the administrative connection;
-- nothing here is granted to the doors.

create function beheer.org_aanmaken(_naam text, _tijdzone text default 'Europe/Amsterdam')
returns jsonb language plpgsql volatile set search_path = '' as $$
declare o app.organisaties;
begin
  if nullif(trim(_naam), '') is null then
    perform app_hidden.ongeldig('naam', 'De naam van de organisatie is verplicht.');
  end if;
  if not exists (select 1 from pg_timezone_names where name = _tijdzone) then
    perform app_hidden.ongeldig('tijdzone', format('Tijdzone %s bestaat niet.', _tijdzone));
  end if;
  -- Names are unique ignoring case; two at once with one name: the second is refused.
  insert into app.organisaties (naam, tijdzone) values (trim(_naam), _tijdzone)
  on conflict ((lower(naam))) do nothing returning * into o;
  if o.org_id is null then perform beheer.naam_bezet(_naam); end if;
  return jsonb_build_object('org_id', o.org_id, 'naam', o.naam, 'tijdzone', o.tijdzone);
end
$$;

-- Refuses a name another organisation has, saying which and what to do.
create function beheer.naam_bezet(_naam text) returns void
language plpgsql stable set search_path = '' as $$
declare o app.organisaties;
begin
  select * into o from app.organisaties x where lower(x.naam) = lower(trim(_naam));
  perform app_hidden.ongeldig('naam', format('Er is al een organisatie %s (org_id %s). Kies een andere naam, of geef '
    'de bestaande een andere naam met koers org rename --org %s --naam ...', o.naam, o.org_id, o.org_id));
end
$$;

create function beheer.org_hernoemen(_org uuid, _naam text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare o app.organisaties;
begin
  if nullif(trim(_naam), '') is null then
    perform app_hidden.ongeldig('naam', 'De naam van de organisatie is verplicht.');
  end if;
  begin
    update app.organisaties x set naam = trim(_naam) where x.org_id = _org returning * into o;
  exception when unique_violation then
    perform beheer.naam_bezet(_naam);
  end;
  return jsonb_build_object('org_id', o.org_id, 'naam', o.naam, 'tijdzone', o.tijdzone);
end
$$;

create function beheer.lid_aanmaken(_org uuid, _naam text, _email text, _rol text,
                                    _functietitel text default null, _team text default null,
                                    _wachtwoord_hash text default null)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  account uuid;
  team uuid;
begin
  if _rol is null or not _rol = any (app_hidden.keuzes('rol')) then
    perform app_hidden.ongeldig('rol', format('Rol moet een van %s zijn.', array_to_string(app_hidden.keuzes('rol'), ', ')));
  end if;
  if _email is null or _email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform app_hidden.ongeldig('email', format('%s is geen e-mailadres.', coalesce(_email, '')));
  end if;
  if nullif(trim(_naam), '') is null then
    perform app_hidden.ongeldig('naam', 'De naam is verplicht.');
  end if;
  -- One account per person, possibly member of several organisations.
  -- Two at once with the same new e-mail address or team: the second finds the first's row.
  insert into app.accounts (email, naam, wachtwoord_hash)
  values (trim(_email), trim(_naam), _wachtwoord_hash)
  on conflict (lower(email)) do nothing returning id into account;
  if account is null then
    select a.id into account from app.accounts a where lower(a.email) = lower(trim(_email));
    if exists (select 1 from app.lidmaatschappen l where l.org_id = _org and l.user_id = account) then
      perform app_hidden.ongeldig('email', format('%s is al lid van deze organisatie.', _email));
    end if;
    -- Whoever may add a member must not be able to sign in as that person elsewhere: an
    -- existing account joins with its own password, which only `koers user password` sets.
    if _wachtwoord_hash is not null then
      perform app_hidden.ongeldig('wachtwoord', format('%s heeft al een account; het wachtwoord verandert hier niet. '
        'Voeg het lid toe zonder wachtwoord; een nieuw wachtwoord zet de beheerder met koers user password --email %s.',
        trim(_email), trim(_email)));
    end if;
  end if;
  if nullif(trim(_team), '') is not null then
    insert into app.teams (org_id, naam) values (_org, trim(_team))
    on conflict (org_id, lower(naam)) do nothing returning id into team;
    if team is null then
      select t.id into team from app.teams t where t.org_id = _org and lower(t.naam) = lower(trim(_team));
    end if;
  end if;
  insert into app.lidmaatschappen (org_id, user_id, rol, functietitel, team_id)
  values (_org, account, _rol, nullif(trim(_functietitel), ''), team);
  return (select jsonb_build_object('user_id', account, 'naam', a.naam, 'email', a.email,
    'rol', _rol, 'functietitel', nullif(trim(_functietitel), ''),
    'team', case when team is null then null else trim(_team) end) from app.accounts a where a.id = account);
end
$$;

-- A person's password for signing in (the AI connection), set by the operator; the hash
-- only. Returns the account, never the hash.
create function beheer.wachtwoord_zetten(_email text, _wachtwoord_hash text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare a app.accounts;
begin
  update app.accounts x set wachtwoord_hash = _wachtwoord_hash where lower(x.email) = lower(trim(_email)) returning * into a;
  if a.id is null then
    perform app_hidden.ongeldig('email', format('Er is geen account met e-mailadres %s (koers user list --org O noemt de leden).',
      trim(_email)));
  end if;
  return jsonb_build_object('user_id', a.id, 'naam', a.naam, 'email', a.email);
end
$$;

create function beheer.sleutel_aanmaken(_org uuid, _user uuid, _hash bytea, _hint text)
returns jsonb language sql volatile set search_path = '' as $$
  insert into app_private.api_sleutels (org_id, user_id, hash, hint)
  values (_org, _user, _hash, _hint)
  returning jsonb_build_object('key_id', id, 'org_id', org_id, 'user_id', user_id, 'hint', hint)
$$;

create function beheer.sleutel_intrekken(_sleutel uuid) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare r jsonb;
begin
  update app_private.api_sleutels s
  set ingetrokken_op = coalesce(s.ingetrokken_op, app_hidden.nu())
  where s.id = _sleutel
  returning jsonb_build_object('key_id', s.id, 'org_id', s.org_id, 'ingetrokken_op', s.ingetrokken_op)
  into r;
  if r is null then
    perform app_hidden.ongeldig('key-id', format('Sleutel %s bestaat niet.', _sleutel));
  end if;
  return r;
end
$$;

-- Lists, so a person can recover an id: organisations, members, keys. Never a secret: a key
-- shows only its hint.
create function beheer.organisaties() returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('org_id', o.org_id, 'naam', o.naam, 'tijdzone', o.tijdzone, 'aangemaakt_op', o.aangemaakt_op,
    'leden', (select count(*) from app.lidmaatschappen l where l.org_id = o.org_id and l.actief),
    'koppelingen', coalesce((select jsonb_agg(jsonb_build_object('door', k.door, 'aan', k.aan, 'alleen_lezen', k.alleen_lezen)
                                              order by k.door)
                             from app.koppelingen k where k.org_id = o.org_id), '[]'),
    'secties', coalesce((select jsonb_agg(s.sectie order by s.sectie)
                         from app.secties s where s.org_id = o.org_id and s.vrijgegeven), '[]'))
  from app.organisaties o
  order by o.naam, o.org_id
$$;

create function beheer.leden(_org uuid) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('user_id', l.user_id, 'naam', a.naam, 'email', a.email, 'rol', l.rol,
    'functietitel', l.functietitel, 'team', t.naam, 'actief', l.actief, 'lid_sinds', l.aangemaakt_op)
  from app.lidmaatschappen l
  join app.accounts a on a.id = l.user_id
  left join app.teams t on t.org_id = l.org_id and t.id = l.team_id
  where l.org_id = _org
  order by a.naam, l.user_id
$$;

-- _user null: the keys of every member.
create function beheer.sleutels(_org uuid, _user uuid default null) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('key_id', k.id, 'user_id', k.user_id, 'naam', a.naam, 'email', a.email, 'hint', k.hint,
    'aangemaakt_op', k.aangemaakt_op, 'ingetrokken_op', k.ingetrokken_op)
  from app_private.api_sleutels k
  join app.accounts a on a.id = k.user_id
  where k.org_id = _org and (_user is null or k.user_id = _user)
  order by k.aangemaakt_op desc, k.id
$$;

-- _alleen_lezen null leaves the read-only setting as it is.
create function beheer.koppeling_zetten(_org uuid, _door text, _aan boolean, _alleen_lezen boolean)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare k app.koppelingen;
begin
  if _door is null or not _door = any (app_hidden.keuzes('door')) then
    perform app_hidden.ongeldig('door', format('Door moet %s of %s zijn.',
      array_to_string(trim_array(app_hidden.keuzes('door'), 1), ', '), (app_hidden.keuzes('door'))[cardinality(app_hidden.keuzes('door'))]));
  end if;
  insert into app.koppelingen as c (org_id, door, aan, alleen_lezen)
  values (_org, _door, _aan, coalesce(_alleen_lezen, false))
  on conflict (org_id, door) do update
    set aan = excluded.aan, alleen_lezen = coalesce(_alleen_lezen, c.alleen_lezen)
  returning * into k;
  return jsonb_build_object('org_id', k.org_id, 'door', k.door, 'aan', k.aan, 'alleen_lezen', k.alleen_lezen);
end
$$;

create function beheer.secties_zetten(_org uuid, _secties text[], _vrijgegeven boolean)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare onbekend text;
begin
  select s into onbekend from unnest(_secties) s where not s = any (app_hidden.keuzes('sectie')) limit 1;
  if onbekend is not null or cardinality(_secties) = 0 then
    perform app_hidden.ongeldig('sectie', format('Onbekend onderdeel %s; kies uit %s.',
      coalesce(onbekend, '(geen)'), array_to_string(app_hidden.keuzes('sectie'), ', ')));
  end if;
  insert into app.secties (org_id, sectie, vrijgegeven)
  select _org, s, _vrijgegeven from unnest(_secties) s
  on conflict (org_id, sectie) do update set vrijgegeven = excluded.vrijgegeven;
  return (select jsonb_object_agg(s.sectie, s.vrijgegeven order by s.sectie)
          from app.secties s where s.org_id = _org);
end
$$;

create function beheer.log(_org uuid, _limiet integer default 50) returns setof jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('tijdstip', a.tijdstip, 'door', a.door, 'operatie', a.operatie,
    'user_id', a.user_id, 'sleutel_id', a.sleutel_id, 'parameters', a.parameters,
    'status', a.status, 'fout_code', a.fout_code, 'duur_ms', a.duur_ms, 'verzoek_id', a.verzoek_id)
  from app_private.aanroepen a
  where a.org_id = _org and a.operatie <> 'test'
  order by a.tijdstip desc, a.id
  limit greatest(_limiet, 1)
$$;

-- Retention: what would grow forever is trimmed by a worker job (src/tasks/), in batches of
-- _batch rows per table so no statement holds locks for long. Returns the rows removed per
-- table; the job repeats until every count is below _batch. Confirmation codes go one day
-- after they expire (a late second call still hears "verlopen"). The caller rows of backends
-- that have ended go too (app_hidden.bellers): a backend removes its own earlier rows, but its
-- last one stays when it ends, with what its last call's log row says of the input.
create function beheer.bewaartermijnen_toepassen(_log_dagen integer, _zonder_org_dagen integer,
                                                 _audit_dagen integer, _batch integer default 5000)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  nu timestamptz := app_hidden.nu();
  log_weg integer; zonder_org_weg integer; audit_weg integer; codes_weg integer; bellers_weg integer;
begin
  delete from app_private.aanroepen a where a.ctid = any (array(
    select x.ctid from app_private.aanroepen x where x.tijdstip < nu - make_interval(days => _log_dagen) limit _batch));
  get diagnostics log_weg = row_count;
  delete from app_private.aanroepen_zonder_org a where a.ctid = any (array(
    select x.ctid from app_private.aanroepen_zonder_org x where x.tijdstip < nu - make_interval(days => _zonder_org_dagen) limit _batch));
  get diagnostics zonder_org_weg = row_count;
  delete from app.audit_log a where a.ctid = any (array(
    select x.ctid from app.audit_log x where x.tijdstip < nu - make_interval(days => _audit_dagen) limit _batch));
  get diagnostics audit_weg = row_count;
  delete from app_private.bevestigcodes b where b.ctid = any (array(
    select x.ctid from app_private.bevestigcodes x where x.geldig_tot < nu - interval '1 day' limit _batch));
  get diagnostics codes_weg = row_count;
  -- A backend's pid is in pg_stat_activity from its start to its end, whatever its database and
  -- role: a row whose pid is not there belongs to no running call.
  delete from app_hidden.bellers b where b.ctid = any (array(
    select x.ctid from app_hidden.bellers x
    where not exists (select 1 from pg_catalog.pg_stat_activity a where a.pid = x.pid) limit _batch));
  get diagnostics bellers_weg = row_count;
  return jsonb_build_object('aanroepen', log_weg, 'aanroepen_zonder_org', zonder_org_weg,
                            'audit_log', audit_weg, 'bevestigcodes', codes_weg, 'bellers', bellers_weg);
end
$$;

-- What the app does is logged (door 'app') and, with a person, named in task history; without
-- one it acts as the app itself (history names nobody). Either way the helpers see a caller in
-- this organisation, the only organisation they answer about.
create function beheer.namens(_org uuid, _user text, _operatie text, _parameters jsonb) returns void
language plpgsql volatile set search_path = '' as $$
begin
  perform app_hidden.handelen_namens(_org, case when _user is not null then beheer.lid(_org, _user) end,
                                     'app', _operatie, _parameters);
end
$$;

-- Tick a task off (as the app does).
create function beheer.taak_afvinken(_org uuid, _nummer integer, _user text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare id uuid;
begin
  perform beheer.namens(_org, _user, 'taak_afvinken', jsonb_build_object('nummer', _nummer));
  update app.taken t set stand = 'voltooid' where t.org_id = _org and t.nummer = _nummer and t.verwijderd_op is null
  returning t.id into id;
  if id is null then perform app_hidden.ongeldig('nummer', format('Taak #%s bestaat niet.', _nummer)); end if;
  return app_hidden.taak_weergave(_org, id);
end
$$;

create function beheer.prioriteit_afronden(_org uuid, _id uuid, _user text default null) returns jsonb
language plpgsql volatile set search_path = '' as $$
begin
  perform beheer.namens(_org, _user, 'prioriteit_afronden', jsonb_build_object('id', _id));
  update app.prioriteiten p set afgerond_op = coalesce(p.afgerond_op, app_hidden.nu()) where p.org_id = _org and p.id = _id;
  if not found then perform app_hidden.ongeldig('id', format('Prioriteit %s bestaat niet.', _id)); end if;
  return app_hidden.prioriteit_weergave(_org, _id);
end
$$;

create function beheer.kpi_kwartaaldoel_zetten(_org uuid, _kpi uuid, _kwartaal text, _doel numeric) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare kwartaal date := app_hidden.param_kwartaal(jsonb_build_object('kwartaal', _kwartaal), 'kwartaal', _org);
begin
  perform beheer.namens(_org, null, 'kpi_kwartaaldoel_zetten', jsonb_build_object('kpi', _kpi, 'kwartaal', _kwartaal, 'doel', _doel));
  if not exists (select 1 from app.kpis k where k.org_id = _org and k.id = _kpi) then
    perform app_hidden.ongeldig('kpi', format('KPI %s bestaat niet.', _kpi));
  end if;
  insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (_org, _kpi, kwartaal, _doel)
  on conflict (org_id, kpi_id, kwartaal_start) do update set doel = excluded.doel;
  return app_hidden.kpi_weergave(_org, _kpi, kwartaal) || jsonb_build_object('kwartaal', app_hidden.kwartaal_label(kwartaal));
end
$$;

create function beheer.kernresultaat_toevoegen(_org uuid, _prioriteit uuid, _titel text, _doel numeric,
                                               _start numeric default 0) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare id uuid;
begin
  perform beheer.namens(_org, null, 'kernresultaat_toevoegen', jsonb_build_object('prioriteit', _prioriteit, 'titel', _titel));
  if not exists (select 1 from app.prioriteiten p where p.org_id = _org and p.id = _prioriteit and p.soort = 'okr') then
    perform app_hidden.ongeldig('prioriteit', format('%s is geen OKR van deze organisatie.', _prioriteit));
  end if;
  if _doel = _start then perform app_hidden.regel_weigeren('kernresultaten_doel_niet_start'); end if;
  insert into app.kernresultaten (org_id, prioriteit_id, titel, startwaarde, doelwaarde, huidige_waarde)
  values (_org, _prioriteit, _titel, _start, _doel, _start) returning kernresultaten.id into id;
  return jsonb_build_object('id', id, 'titel', _titel, 'start', _start, 'doel', _doel,
                            'prioriteit', app_hidden.prioriteit_weergave(_org, _prioriteit));
end
$$;

create function beheer.kernresultaat_bijwerken(_org uuid, _id uuid, _waarde numeric) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare p uuid;
begin
  perform beheer.namens(_org, null, 'kernresultaat_bijwerken', jsonb_build_object('id', _id, 'waarde', _waarde));
  update app.kernresultaten k set huidige_waarde = _waarde where k.org_id = _org and k.id = _id returning k.prioriteit_id into p;
  if p is null then perform app_hidden.ongeldig('id', format('Kernresultaat %s bestaat niet.', _id)); end if;
  return jsonb_build_object('id', _id, 'waarde', _waarde, 'prioriteit', app_hidden.prioriteit_weergave(_org, p));
end
$$;
