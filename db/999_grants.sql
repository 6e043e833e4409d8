-- Last: who owns and who may execute what. Functions are executable by PUBLIC by default;
-- here that is taken back and granted by name.
do $$
declare f record;
begin
  for f in
    select p.oid::regprocedure as fn, p.prosecdef, n.nspname
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('api', 'app_hidden', 'beheer')
  loop
    execute format('revoke all on function %s from public', f.fn);
    if f.prosecdef then
      execute format('alter function %s owner to koers_definer', f.fn);
    end if;
    if f.nspname in ('api', 'app_hidden') then
      execute format('grant execute on function %s to koers_door, koers_definer', f.fn);
    end if;
  end loop;
end
$$;

-- History, events and a task's tag text are written by triggers only (trigger functions need
-- no EXECUTE of the caller), and impersonation is for the superuser only.
do $$
declare f record;
begin
  for f in
    select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'app_hidden'
      and (p.prorettype = 'trigger'::regtype
           or p.proname in ('gebeurtenis', 'geschiedenis', 'taak_gebeurtenissen', 'taak_gebeurtenis_samenvoegen',
                            'tag_tekst_bijwerken', 'taak_sommen_bijwerken', 'taak_sommen_opnieuw',
                            'prioriteit_sommen_bijwerken', 'project_sommen_bijwerken', 'sommen_opnieuw',
                            'sommen_van_taken', 'sommen_van_uren'))
  loop
    execute format('revoke execute on function %s from koers_door', f.fn);
  end loop;
end
$$;

revoke execute on function app_hidden.handelen_namens(uuid, uuid, text, text, jsonb) from koers_door, koers_definer;

-- Ending an AI connection by its id is for the sign-in's own functions (a reused code or refresh
-- token) and the app; a door ends one only with a token of it (app_hidden.mcp_intrekken).
revoke execute on function app_hidden.mcp_verbinding_beeindigen(uuid, text) from koers_door;

-- The hidden projects of any member of any organisation are for the caller's readers and the
-- start of a call (security definer both); a door or a warehouse login asks
-- app_hidden.verborgen_projecten(), which answers about its own caller only.
revoke execute on function app_hidden.verborgen_projecten_van(uuid, uuid) from koers_door, koers_lezer, koers_warehouse;

-- An organisation's row of switches is worked out by the triggers of its tables, not by a door.
revoke execute on function app_hidden.org_toestand_bijwerken(uuid) from koers_door;

-- Making the constant functions is for applying db/ only.
revoke execute on function app_hidden.constanten_maken(text, text, text, jsonb, text) from koers_door, koers_definer;
revoke execute on function app_hidden.operaties_maken(boolean) from koers_door, koers_definer;

-- What tables of db/ keep from the tenant tables, filled last, once their functions belong to
-- koers_definer: they read past row-level security whoever applies db/, where the applying role
-- (when it is no superuser) would see no row of a table whose RLS is forced. Every
-- organisation's row of switches (app_hidden.org_toestand, db/030_caller.sql), and every
-- priority's task sums (app_hidden.prioriteit_sommen, db/135_prioriteit_sommen.sql), and every
-- project's open tasks and hours (app_hidden.project_sommen, db/115_project_sommen.sql).
select app_hidden.org_toestand_bijwerken(x.org_id) from (
  select org_id from app.koppelingen union select org_id from app.secties
  union select org_id from app.modules union select org_id from app.org_rechten) x;
select app_hidden.sommen_opnieuw(o.org_id) from app.organisaties o;

-- The owners of db/'s objects created nothing themselves; their CREATE on the schemas was for
-- applying db/ by a role that is no superuser (db/000_schemas.sql).
revoke create on schema api, app_hidden, beheer from koers_definer, koers_lezer;
revoke create on schema rapportage from koers_lezer;
