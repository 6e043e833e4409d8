-- Who is calling. The doors never set the caller themselves: app_hidden.aanroep_begin
-- resolves the credential, checks the three conditions, writes this backend's row in
-- app_hidden.bellers and points the setting koers.aanroep at it. The caller is read back from
-- that row, and only from the row of this backend (pid) in this very transaction (xid) that the
-- setting names, written by a security-definer function the door cannot write through: a forged
-- setting impersonates nobody. Every helper that answers about an organisation answers only
-- about the caller's: nothing is trusted because of a database role's name.

-- The caller of the running transaction, in the row of its backend for the tenth of a second in
-- which the transaction began (pid, vak: app_hidden.beller_vak), which every call of that backend
-- in that tenth updates; the backend's first call of a later tenth makes a new row and removes
-- the one before it (app_hidden.beller_vorige). Not data: it means nothing after its
-- transaction, so it is made anew with the code (a table of db/, not of migrations/). Logged all
-- the same: the policies read it (mijn_org, below), and a hot standby can plan a query on a
-- logged table only. Only security-definer functions write it.
-- A row per tenth of a second, not one per backend for good: while any transaction holds back the
-- horizon (a long warehouse query, a backup), no old version of a row can be pruned, and a
-- look-up of a row updated by every call reads every version made since. A call reads its caller
-- row about twenty times (each policy, each fence), so one transaction held open for two minutes
-- made a door call ten to seventeen times as expensive. Now a look-up reads the versions of one
-- tenth of a second at most. Not a row per call either: that made every call an insert and a
-- delete, and between two runs of vacuum the caller table and its index grew by every call (about
-- 100 us more per call on the benchmark's data).
create table app_hidden.bellers (
  pid integer not null,     -- the backend
  vak timestamptz not null, -- the tenth of a second its transaction began in (app_hidden.beller_vak)
  xid xid8 not null,        -- its transaction (for its call-log row)
  sinds timestamptz not null,  -- when its transaction began: the row counts in that transaction only
  wijzer text not null,     -- the value koers.aanroep has while this call runs
  toegelaten boolean not null,  -- passed every check; a refused call is only logged
  aanroep_id uuid not null, -- its call-log row, written by app_hidden.aanroep_einde
  org uuid,                 -- not named org_id: this is no tenant table
  user_id uuid,
  rol text,
  sleutel_id uuid,
  door text not null,
  operatie text not null,
  -- The sections released to the caller's organisation in which the caller's role may read
  -- something (sectie_zichtbaar), computed once per call; null: not computed for this call.
  secties text[],
  -- The private projects hidden from the caller (app_hidden.verborgen_projecten), computed once
  -- per call for the operations that read tasks or projects (app_hidden.leest_projecten); null:
  -- not computed for this call, or forgotten since the call wrote what they depend on.
  verborgen uuid[],
  -- What the call-log row will say beyond the outcome.
  parameters jsonb not null,
  status integer,
  fout_code text,
  verzoek_id text,
  primary key (pid, vak)
) with (fillfactor = 50);
revoke all on app_hidden.bellers from public;
grant select, insert, update, delete on app_hidden.bellers to koers_definer;

-- The tenth of a second in which this transaction began: with the backend, the key of its caller
-- row. An expression, inlined where it is used, and cheap: every policy's look-up of the caller
-- works it out (one function on now(); as a number of tenths since 1970 it took four, and made a
-- call by task number about 50 us dearer than a look-up by the backend alone).
create function app_hidden.beller_vak() returns timestamptz
language sql stable as $$ select date_bin('100 milliseconds', now(), timestamptz '2000-01-01 00:00:00+00') $$;

-- The caller of this backend's running transaction: the one place a caller is resolved. Only the
-- row of this backend (pid), written in this transaction (the transaction's start, now(), which
-- unlike its id a parallel worker may read too), admitted, and named by the setting koers.aanroep
-- counts: a setting copied from an earlier call of the same backend finds that row no longer
-- current. A view owned by the owner of app_hidden.bellers, not security_invoker: the doors and
-- the warehouse read the current caller through it, and nothing else of the table, whose rows
-- say what the call's log row will say of its input and outcome. (A door without a call, such
-- as read-only logins resolved from session_user, adds its branch to the readers below.) A
-- warehouse session (db/930_warehouse.sql) has no call: the readers below ask
-- app_hidden.beller_warehouse() when this finds no caller; so on a hot standby, where no call
-- exists.
create view app_hidden.beller_nu as
  select b.aanroep_id, b.org, b.user_id, b.rol, b.sleutel_id, b.door, b.operatie, b.secties, b.verborgen
  from app_hidden.bellers b
  where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak() and b.sinds = now() and b.toegelaten
    and b.wijzer = current_setting('koers.aanroep', true);
revoke all on app_hidden.beller_nu from public;
grant select on app_hidden.beller_nu to koers_door, koers_definer;

-- The same as a SQL function in FROM without SET, inlined into the query that reads it, so the
-- helpers below share this definition at no cost per call.
create function app_hidden.beller_bron()
returns table (aanroep_id uuid, org uuid, user_id uuid, rol text, sleutel_id uuid, door text, operatie text, secties text[],
               verborgen uuid[])
language sql stable as $$
  select b.aanroep_id, b.org, b.user_id, b.rol, b.sleutel_id, b.door, b.operatie, b.secties, b.verborgen
  from app_hidden.beller_nu b
$$;

-- The private projects of an organisation that a member does not work on (as its owner, added
-- to it, or owning one of its tasks).
create function app_hidden.verborgen_projecten_van(_org uuid, _ik uuid) returns uuid[]
language plpgsql stable parallel restricted security definer set search_path = '' as $$
begin
  -- "offset 0" keeps each probe a look-up per private project by its whole key (for tasks on
  -- taken_project_eigenaar), also in the generic plan PL/pgSQL caches. Without it the planner,
  -- guessing one private project for any organisation, joins against every task the caller
  -- owns, once per private project.
  return array(
    select p.id from app.projecten p
    where p.org_id = _org and p.besloten and p.eigenaar_user_id is distinct from _ik
      and not exists (select 1 from app.project_leden l
                      where l.org_id = p.org_id and l.project_id = p.id and l.user_id = _ik offset 0)
      and not exists (select 1 from app.taken t
                      where t.org_id = p.org_id and t.project_id = p.id and t.eigenaar_user_id = _ik offset 0));
end
$$;

-- The operations whose statements read tasks or projects under the policies (db/060_policies.sql):
-- their call works the hidden projects out once, in its caller row (app_hidden.aanroep_begin), where a
-- two-step write of a task needed them seven times (the lock, the update, the render, in both
-- calls) and a read of one task twice. Any other operation that needs them works them out per
-- statement, as before: this list saves work, it decides nothing.
-- The names are checked against the registry (sql-tests/160-projecten.sql), so a renamed
-- operation cannot quietly fall out of the list.
create function app_hidden.projectlezers() returns text[]
language sql immutable parallel safe as $$
  select '{projecten,project_aanmaken,taken,taak_toevoegen,taak_bijwerken,taak_geschiedenis,uren,zoeken}'::text[]
$$;

create function app_hidden.leest_projecten(_operatie text) returns boolean
language sql immutable parallel safe as $$
  select _operatie = any (app_hidden.projectlezers())
$$;

-- The caller as a record. These helpers run as koers_definer whoever calls them (the door in
-- a policy, a security-definer helper, the app): PL/pgSQL keeps one plan per statement for the
-- session, and a plan made for one role is made anew when another runs it.
create function app_hidden.beller() returns app_hidden.aanroep_start
language plpgsql stable security definer set search_path = '' as $$
declare s app_hidden.aanroep_start;
begin
  if not pg_is_in_recovery() then
    select b.aanroep_id, b.org, b.user_id, b.rol, b.sleutel_id, b.door, b.operatie into
           s.aanroep_id, s.org_id, s.user_id, s.rol, s.sleutel_id, s.door, s.operatie
    from app_hidden.beller_bron() b;
    if s.org_id is not null then return s; end if;
  end if;
  select b.aanroep_id, b.org, b.user_id, b.rol, b.sleutel_id, b.door, b.operatie into
         s.aanroep_id, s.org_id, s.user_id, s.rol, s.sleutel_id, s.door, s.operatie
  from app_hidden.beller_warehouse() b;
  return s;
end
$$;

-- The caller's organisation and member, for operations, and for the policies' inlined readers
-- (mijn_org and the like, below) when there is no call: a warehouse session, a hot standby.
-- PL/pgSQL like beller(): a SQL function holding a subquery is not inlined, and is planned anew
-- at every query that calls it.
-- The helpers policies call (these two, sectie_zichtbaar, mijn_recht, mag_lezen,
-- verborgen_projecten, and the inlined readers) are parallel restricted: they read this
-- backend's own caller row, so only the leader of a parallel query may run them, and it does,
-- once, as the init plan whose value it hands to the workers. Left parallel unsafe (the
-- default), any query under a policy could never be parallel: a full read of a definition would
-- use one core where a plain select of the same table uses three processes.
create function app_hidden.huidige_org() returns uuid
language plpgsql stable parallel restricted security definer set search_path = '' as $$
declare o uuid;
begin
  if not pg_is_in_recovery() then
    o := (select b.org from app_hidden.beller_bron() b);
    if o is not null then return o; end if;
  end if;
  return (select b.org from app_hidden.beller_warehouse() b);
end
$$;

create function app_hidden.huidige_gebruiker() returns uuid
language plpgsql stable parallel restricted security definer set search_path = '' as $$
declare
  o uuid;
  u uuid;
begin
  if not pg_is_in_recovery() then
    select x.org, x.user_id into o, u from app_hidden.beller_bron() x;
    if o is not null then return u; end if;
  end if;
  return (select x.user_id from app_hidden.beller_warehouse() x);
end
$$;

-- Security-definer helpers that return an organisation's data answer only about the caller's
-- own organisation. The app (CLI, workers) establishes a caller too (handelen_namens).
create function app_hidden.eigen_org(_org uuid) returns boolean
language sql stable as $$ select coalesce(_org = app_hidden.huidige_org(), false) $$;

-- A member as every answer names one: {user_id, naam}; null for nobody, or for someone who is
-- no member of the organisation. Answers only about the caller's organisation, like every
-- security-definer helper; it is one for speed: answers name people in every row, and under
-- RLS each look-up would also check the caller's organisation for both tables it reads.
create function app_hidden.persoon(org uuid, u uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if u is null or not app_hidden.eigen_org(org) then return null; end if;
  return (select jsonb_build_object('user_id', a.id, 'naam', a.naam)
          from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
          where l.org_id = org and l.user_id = u);
end
$$;

-- The registry's operations and the default rights of each role (app.operaties,
-- app.rol_rechten) as one constant JSON object, app_hidden.operaties_json(): {naam: {schrijft,
-- twee_stappen, sectie, module, vereist_org, alleen_mcp, rechten: {rol: recht}, parameters: how
-- many it takes}}. Made from the reference data, which migrating writes before it applies db/ and
-- which is part of the hash that decides whether db/ is applied again; made here for every
-- operation of the registry, and again by db/995_uitvoeren.sql for those whose function exists
-- (an operation not built yet is an unknown address). A call reads it without touching a table:
-- every table a call touches costs it a lock, and beyond sixteen of them those locks go through
-- the lock manager that every backend shares.
create function app_hidden.operaties_maken(_alleen_gebouwd boolean) returns void
language plpgsql volatile set search_path = '' as $$
declare waarden jsonb;
begin
  select jsonb_object_agg(o.naam, jsonb_build_object(
           'schrijft', o.schrijft, 'twee_stappen', o.twee_stappen, 'sectie', o.sectie, 'module', o.module,
           'vereist_org', o.vereist_org, 'alleen_mcp', o.alleen_mcp,
           'rechten', coalesce((select jsonb_object_agg(d.rol, d.recht) from app.rol_rechten d where d.operatie = o.naam), '{}'),
           'parameters', (select count(*) from app.operatie_parameters p where p.operatie = o.naam)))
    into waarden from app.operaties o
  where not _alleen_gebouwd or to_regproc('api.' || quote_ident(o.naam)) is not null;
  execute format('create or replace function app_hidden.operaties_json() returns jsonb language sql immutable as '
                 '$b$ select %L::jsonb $b$', coalesce(waarden, '{}'));
end
$$;
select app_hidden.operaties_maken(false);

-- One operation's facts, null for a name the registry does not have: one key of the constant
-- (a call's check; a scan of a list would have the executor set every row up anew in each
-- transaction).
create function app_hidden.operatie_vast(_naam text) returns jsonb
language sql immutable as $$ select app_hidden.operaties_json() -> _naam $$;

-- Every operation as a row, for what goes through them all (the sections a role may see).
create function app_hidden.operaties_vast()
returns table (naam text, schrijft boolean, twee_stappen boolean, sectie text, module text, vereist_org boolean,
               alleen_mcp boolean, rechten jsonb)
language sql immutable as $$
  select e.key, (e.value ->> 'schrijft')::boolean, (e.value ->> 'twee_stappen')::boolean, e.value ->> 'sectie',
         e.value ->> 'module', (e.value ->> 'vereist_org')::boolean, (e.value ->> 'alleen_mcp')::boolean, e.value -> 'rechten'
  from jsonb_each(app_hidden.operaties_json()) e
$$;

-- What an organisation has switched, in one row per organisation, for the checks of every call:
-- the doors (app.koppelingen), the released sections (app.secties), the modules switched off
-- (app.modules) and its own rights (app.org_rechten). A call then reads one row instead of probing
-- four tables (each a lock on the table and its index, beyond sixteen of them through the lock
-- manager every backend shares). Kept by the triggers below in the transaction of the change, so
-- the very next call sees it: not a cache. Made anew with the code, from those tables.
create table app_hidden.org_toestand (
  org uuid primary key,              -- not named org_id: no tenant table, only definers read it
  koppelingen jsonb not null,        -- {door: {"aan": .., "alleen_lezen": ..}}
  secties jsonb not null,            -- {sectie: vrijgegeven}
  vrijgegeven text[] not null,       -- the released sections, in order
  modules jsonb not null,            -- {module: aan}
  rechten jsonb not null,            -- {rol: {operatie: recht}}: the organisation's deviations
  -- {rol: the sections released here in which that role may read something (zichtbare_secties),
  -- as the text of a text[]}: what a call of that role puts in its caller row for the policies.
  secties_per_rol jsonb not null
) with (fillfactor = 70);
revoke all on app_hidden.org_toestand from public;
grant select, insert, update, delete on app_hidden.org_toestand to koers_definer;

-- The caller of a warehouse session: the member the login acts for, while the login is not
-- revoked, the member is active and the organisation's warehouse door is on; otherwise no row,
-- and the session sees nothing. Read by the caller's readers above (beller, huidige_org,
-- huidige_gebruiker), which run it as koers_definer; the logins themselves are made in
-- db/930_warehouse.sql. Reads only logged tables, so it answers on a hot standby too.
-- The membership and the organisation's switches are read by scalar subqueries, one index probe
-- each, not joins: a warehouse login plans with enable_nestloop off (db/930_warehouse.sql), so a
-- join was hashed from the whole membership table (about 9 ms, in each of the dozen policy init
-- plans of a read), and a nested loop would cost the plan enough to have it compiled by JIT.
create function app_hidden.beller_warehouse()
returns table (aanroep_id uuid, org uuid, user_id uuid, rol text, sleutel_id uuid, door text, operatie text, secties text[])
language sql stable as $$
  select null::uuid, w.org_id, w.user_id,
    (select l.rol from app.lidmaatschappen l where l.org_id = w.org_id and l.user_id = w.user_id and l.actief),
    w.id, 'warehouse'::text, 'rapportage'::text, null::text[]
  from app_private.warehouse_logins w
  where w.rol_oid = to_regrole(quote_ident(session_user))::oid and w.ingetrokken_op is null
    and (select l.rol from app.lidmaatschappen l where l.org_id = w.org_id and l.user_id = w.user_id and l.actief) is not null
    and coalesce((select (t.koppelingen -> 'warehouse' ->> 'aan')::boolean from app_hidden.org_toestand t where t.org = w.org_id), false)
$$;

-- Works out an organisation's row anew. Serialised per organisation (a transaction lock, then a
-- statement of its own, so it reads what a change that went before committed): two changes at
-- once never leave a row that misses one of them.
create function app_hidden.org_toestand_bijwerken(_org uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('org_toestand/' || _org, 0));
  if not exists (select from app.organisaties o where o.org_id = _org) then
    delete from app_hidden.org_toestand t where t.org = _org;
    return;
  end if;
  insert into app_hidden.org_toestand as t (org, koppelingen, secties, vrijgegeven, modules, rechten, secties_per_rol)
  select _org,
    coalesce((select jsonb_object_agg(k.door, jsonb_build_object('aan', k.aan, 'alleen_lezen', k.alleen_lezen))
              from app.koppelingen k where k.org_id = _org), '{}'),
    coalesce((select jsonb_object_agg(s.sectie, s.vrijgegeven) from app.secties s where s.org_id = _org), '{}'),
    array(select s.sectie from app.secties s where s.org_id = _org and s.vrijgegeven order by s.sectie),
    coalesce((select jsonb_object_agg(m.module, m.aan) from app.modules m where m.org_id = _org), '{}'),
    coalesce((select jsonb_object_agg(x.rol, x.rechten) from (
                select r.rol, jsonb_object_agg(r.operatie, r.recht) as rechten from app.org_rechten r
                where r.org_id = _org group by r.rol) x), '{}'),
    (select jsonb_object_agg(r.rol, app_hidden.zichtbare_secties(_org, r.rol)::text)
     from unnest(app_hidden.keuzes('rol')) r (rol))
  on conflict (org) do update
    set koppelingen = excluded.koppelingen, secties = excluded.secties, vrijgegeven = excluded.vrijgegeven,
        modules = excluded.modules, rechten = excluded.rechten, secties_per_rol = excluded.secties_per_rol;
end
$$;

create function app_hidden.tg__org_toestand() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  if tg_op <> 'INSERT' then
    perform app_hidden.org_toestand_bijwerken(old.org_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.org_id <> old.org_id) then
    perform app_hidden.org_toestand_bijwerken(new.org_id);
  end if;
  return null;
end
$$;

create trigger tg_koppelingen__800_org_toestand after insert or update or delete on app.koppelingen
  for each row execute function app_hidden.tg__org_toestand();
create trigger tg_secties__800_org_toestand after insert or update or delete on app.secties
  for each row execute function app_hidden.tg__org_toestand();
create trigger tg_modules__800_org_toestand after insert or update or delete on app.modules
  for each row execute function app_hidden.tg__org_toestand();
create trigger tg_org_rechten__800_org_toestand after insert or update or delete on app.org_rechten
  for each row execute function app_hidden.tg__org_toestand();

-- The right of a role on an operation: the organisation's own deviation, else the default.
create function app_hidden.recht(_org uuid, _rol text, _operatie text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce(
    (select r.recht from app.org_rechten r
     where r.org_id = _org and r.operatie = _operatie and r.rol = _rol),
    app_hidden.operatie_vast(_operatie) -> 'rechten' ->> _rol,
    'geen');
end
$$;

-- The caller's right on an operation ('alles', 'eigen' or 'geen').
create function app_hidden.mijn_recht(_operatie text) returns text
language plpgsql stable parallel restricted set search_path = '' as $$
declare b app_hidden.aanroep_start := app_hidden.beller();
begin
  return app_hidden.recht(b.org_id, b.rol, _operatie);
end
$$;

-- The sections released in an organisation in which a role may read something (only _sectie,
-- when given).
create function app_hidden.zichtbare_secties(_org uuid, _rol text, _sectie text default null) returns text[]
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((
    select array_agg(s.sectie) from app.secties s
    where s.org_id = _org and s.vrijgegeven and (_sectie is null or s.sectie = _sectie)
      and exists (select from app_hidden.operaties_vast() o
                  where o.sectie = s.sectie and not o.schrijft
                    and coalesce((select r.recht from app.org_rechten r where r.org_id = _org and r.operatie = o.naam and r.rol = _rol),
                                 o.rechten ->> _rol) <> 'geen')), '{}');
end
$$;

-- Every organisation's row is made when db/ is applied, at the end of db/999_grants.sql.

-- Policy helper: the section is released in the caller's organisation and the caller's role
-- may read something in it. Read from the caller's row when the call worked it out.
create function app_hidden.sectie_zichtbaar(_sectie text) returns boolean
language plpgsql stable parallel restricted security definer set search_path = '' as $$
declare
  o uuid;
  r text;
  s text[];
begin
  if not pg_is_in_recovery() then
    select x.org, x.rol, x.secties into o, r, s from app_hidden.beller_bron() x;
  end if;
  if o is null then
    select x.org, x.rol, x.secties into o, r, s from app_hidden.beller_warehouse() x;
  end if;
  if o is null then return false; end if;
  return _sectie = any (coalesce(s, app_hidden.zichtbare_secties(o, r, _sectie)));
end
$$;

-- Policy helper: the caller may read what an operation shows in a section (the section is
-- released and visible to the caller, and the caller's right on the operation is not 'geen').
-- The read policies of 200-230 start with it, as (select app_hidden.mag_lezen(..)).
create function app_hidden.mag_lezen(_sectie text, _operatie text) returns boolean
language plpgsql stable parallel restricted set search_path = '' as $$
begin
  return app_hidden.sectie_zichtbaar(_sectie) and app_hidden.mijn_recht(_operatie) <> 'geen';
end
$$;

-- The caller's organisation and member (and, for a section's fence, the section) for policies
-- and definitions, written as "(select o.org from app_hidden.mijn_org() o)": set-returning SQL
-- functions without SET are inlined into the query, so a policy's check of the caller is one
-- index probe of this backend's row, computed once per query, instead of a function call with a
-- query of its own (a call of `taken` checked the caller about thirty times). Parallel
-- restricted, like those readers: the leader of a parallel query works the caller out once and
-- hands it to the workers. Without a call (a warehouse session, or a hot standby) they ask the
-- security-definer readers, which also know the warehouse session's member.
create function app_hidden.mijn_org() returns table (org uuid)
language sql stable parallel restricted as $$
  select coalesce((select b.org from app_hidden.beller_bron() b), app_hidden.huidige_org())
$$;

create function app_hidden.mijn_gebruiker() returns table (user_id uuid)
language sql stable parallel restricted as $$
  select case when b.org is not null then b.user_id else app_hidden.huidige_gebruiker() end
  from (select) leeg left join app_hidden.beller_bron() b on true
$$;

-- The fence of a table of a section (db/060_policies.sql): the caller's organisation when the
-- caller may see the section, else null, and no row passes; organisation and section from one
-- read of the caller row, so the table's read policies need no look-up of their own. The caller
-- row's sections are worked out by the call (aanroep_begin); otherwise the reader works them
-- out. A session that reads past row-level security (the app acting as itself through a
-- definition, db/950_lezer.sql) gets its organisation whatever the sections, as the read policy
-- of such sessions lets every row of the organisation through.
create function app_hidden.mijn_org_in(_sectie text, _tabel regclass) returns table (org uuid)
language sql stable parallel restricted as $$
  select case when b.org is not null and b.secties is not null
              then case when _sectie = any (b.secties) or not pg_catalog.row_security_active(_tabel) then b.org end
              when not pg_catalog.row_security_active(_tabel) or app_hidden.sectie_zichtbaar(_sectie)
              then coalesce(b.org, app_hidden.huidige_org()) end
  from (select) leeg left join app_hidden.beller_bron() b on true
$$;

-- Credential resolvers, one per door: from what the door received to the member it acts for.
-- They only resolve; the checks (revoked, organisation, door, section, role) are the same for
-- every door and live in app_hidden.aanroep_begin, which runs them with its rights.

-- REST: an API key (its SHA-256 hash) acts for the member who created it, in its organisation.
create function app_hidden.beller_rest(_sleutel bytea, _gevraagde_org uuid)
returns table (org_id uuid, user_id uuid, rol text, sleutel_id uuid, ingetrokken boolean)
language sql stable as $$
  select sl.org_id, sl.user_id, l.rol, sl.id, sl.ingetrokken_op is not null or not l.actief
  from app_private.api_sleutels sl
  join app.lidmaatschappen l on l.org_id = sl.org_id and l.user_id = sl.user_id
  where sl.hash = _sleutel
$$;

-- The tenth of a second of this backend's caller row before the one of the running transaction,
-- so that the call that makes a new row removes the one before it by its whole key: the session
-- setting koers.vorige_beller holds it in microseconds since 1970 (app_hidden.beller_vak_tekst),
-- set whenever a call makes a row (app_hidden.bellers_vorige_weg). A look-up of "the
-- newest earlier row" instead was planned as a scan of all the backend's rows when the table
-- looked small, and that reads every version waiting for vacuum.
-- Null without the setting (the session's first row), or with a setting that is no number (the
-- doors can set it; a forged value only removes one of the session's own earlier rows, or leaves
-- one behind): then every earlier row of the pid goes, also those a backend before it with the
-- same pid left. An expression, inlined where it is used.
create function app_hidden.beller_vorige() returns timestamptz
language sql stable as $$
  select case when current_setting('koers.vorige_beller', true) ~ '^[0-9]{1,18}$'
              then 'epoch'::timestamptz + current_setting('koers.vorige_beller', true)::bigint * interval '1 microsecond' end
$$;

-- The running transaction's tenth of a second as koers.vorige_beller holds it.
create function app_hidden.beller_vak_tekst() returns text
language sql stable as $$ select (date_part('epoch', app_hidden.beller_vak()) * 1000000)::bigint::text $$;

-- Run by the call that made this backend's caller row of a new tenth of a second (aanroep_begin,
-- beller_zetten): the row before it goes, by its whole key, or without one every earlier row of
-- the pid, and the new tenth is remembered for the next.
create function app_hidden.bellers_vorige_weg() returns void
language plpgsql volatile set search_path = '' as $$
begin
  if app_hidden.beller_vorige() is null then
    delete from app_hidden.bellers b where b.pid = pg_backend_pid() and b.vak < app_hidden.beller_vak();
  else
    delete from app_hidden.bellers b
    where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vorige() and b.vak < app_hidden.beller_vak();
  end if;
  perform set_config('koers.vorige_beller', app_hidden.beller_vak_tekst(), false);
end
$$;

-- Makes the caller of this transaction: this backend's row, and koers.aanroep pointing at it.
-- For handelen_namens (aanroep_begin writes the same row in its own statement), which run it with
-- their rights: the door itself cannot read or write the table.
create function app_hidden.beller_zetten(_toegelaten boolean, _org uuid, _user uuid, _rol text, _sleutel uuid,
                                         _door text, _operatie text, _secties text[], _parameters jsonb,
                                         _status integer, _fout_code text, _verzoek_id text)
returns uuid language plpgsql volatile set search_path = '' as $$
declare
  id uuid := app_hidden.tijd_uuid();  -- the call-log row's id, time-ordered (db/020_helpers.sql)
  w text := coalesce(_org::text, '') || '/' || id;
begin
  -- The backend's row of this tenth of a second, made by its first call in it, which removes the
  -- row before it (app_hidden.bellers_vorige_weg); as in aanroep_begin.
  insert into app_hidden.bellers as b (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, org, user_id, rol, sleutel_id,
                                       door, operatie, secties, parameters, status, fout_code, verzoek_id)
  values (pg_backend_pid(), app_hidden.beller_vak(), pg_current_xact_id(), now(), w, _toegelaten, id, _org, _user, _rol,
          _sleutel, _door, _operatie, _secties, _parameters, _status, _fout_code, _verzoek_id)
  on conflict (pid, vak) do update
    set xid = excluded.xid, sinds = excluded.sinds, wijzer = excluded.wijzer, toegelaten = excluded.toegelaten,
        aanroep_id = excluded.aanroep_id, org = excluded.org, user_id = excluded.user_id, rol = excluded.rol,
        sleutel_id = excluded.sleutel_id, door = excluded.door, operatie = excluded.operatie, secties = excluded.secties,
        verborgen = null, parameters = excluded.parameters, status = excluded.status, fout_code = excluded.fout_code,
        verzoek_id = excluded.verzoek_id;
  if app_hidden.beller_vorige() is distinct from app_hidden.beller_vak() then
    perform app_hidden.bellers_vorige_weg();
  end if;
  if _toegelaten then
    perform set_config('koers.aanroep', w, true);
  end if;
  return id;
end
$$;

-- MCP: an access token (the hash of the resource it is for and the token) acts for the person
-- who signed in, in the organisation asked for when they are an active member there. Otherwise
-- it answers with another organisation of the person (one with the AI door on first), so the
-- refusal (verkeerde_organisatie, or for a call without org_id the check of the next condition)
-- is logged in an organisation of the caller, never in someone else's. The credential is the
-- connection (one consent; its access tokens rotate): sleutel_id in the log. An expired or
-- revoked token, or a person active nowhere, counts as revoked.
create function app_hidden.beller_mcp(_sleutel bytea, _gevraagde_org uuid,
  out org_id uuid, out user_id uuid, out rol text, out sleutel_id uuid, out ingetrokken boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  t record;
  actief boolean;
begin
  select v.id, v.user_id,
         v.ingetrokken_op is not null or tk.verloopt_op <= app_hidden.nu() or v.verloopt_op <= app_hidden.nu() as weg
    into t
  from app_private.mcp_tokens tk join app_private.mcp_verbindingen v on v.id = tk.verbinding_id
  where tk.hash = _sleutel and tk.soort = 'toegang';
  if t.id is null then return; end if;
  select l.org_id, l.rol, l.actief into org_id, rol, actief
  from app.lidmaatschappen l
  left join app.koppelingen k on k.org_id = l.org_id and k.door = 'mcp'
  where l.user_id = t.user_id
  order by l.actief desc, l.org_id = _gevraagde_org desc nulls last, coalesce(k.aan, false) desc,
           l.aangemaakt_op, l.org_id
  limit 1;
  user_id := t.user_id;
  sleutel_id := t.id;
  ingetrokken := t.weg or not coalesce(actief, false);
end
$$;

-- Act as a member (or, with _user null, as the app itself) without a credential, exactly as a
-- door call would: a caller row in this transaction that beller() accepts, and its call-log
-- row. For what the app does on someone's behalf (the CLI, workers: door 'app') and for pgTAP.
-- Granted to nobody.
create function app_hidden.handelen_namens(_org uuid, _user uuid, _door text default 'app',
                                           _operatie text default 'test', _parameters jsonb default '{}')
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare
  id uuid;
  lid_rol text;
begin
  if _user is not null then
    select l.rol into lid_rol from app.lidmaatschappen l where l.org_id = _org and l.user_id = _user;
    if lid_rol is null then
      raise exception 'app_hidden.handelen_namens: % is geen lid van %', _user, _org;
    end if;
  elsif not exists (select 1 from app.organisaties o where o.org_id = _org) then
    raise exception 'app_hidden.handelen_namens: organisatie % bestaat niet', _org;
  end if;
  id := app_hidden.beller_zetten(true, _org, _user, lid_rol, null, _door, _operatie,
                                 app_hidden.zichtbare_secties(_org, lid_rol), app_hidden.redigeren(_parameters),
                                 200, null, null);
  insert into app_private.aanroepen (org_id, id, xid, door, operatie, user_id, rol, parameters, status)
  values (_org, id, pg_current_xact_id(), _door, _operatie, _user, lid_rol, app_hidden.redigeren(_parameters), 200);
  return id;
end
$$;
