-- Grants and row-level security. The doors connect as koers_door: not superuser, not owner,
-- no BYPASSRLS, and RLS is forced on every tenant table, so every row a door sees or writes
-- passes a policy below. Policies are named as sentences and target koers_door.
-- koers_definer (BYPASSRLS, no login) owns the few security-definer functions that must see
-- across the caller's limits: resolving keys, writing the call log, history and events.

-- Every tenant table (app_hidden.tenant_tabellen): RLS enabled and forced, and the restrictive
-- organisation fence, before any permissive policy. So no grant, now or added later, can ever
-- open another organisation's rows, and a table without a permissive policy stays closed.
-- The permissive read policies below leave the organisation to the fence and say only what
-- else limits a row (or "true": every row of the organisation): each repeated
-- "org_id = (select o.org from app_hidden.mijn_org() o)" was one more init plan, one more entry of the
-- helper, per table a query reads. sql-tests/010 fails when a policy names a role the fence
-- of its table does not.
--
-- The tables of a section (below) are fenced on the section as well: their rows pass only when
-- the caller may see the section (app_hidden.mijn_org_in, one read of the caller row for both),
-- so their read policies need no look-up of the section, one init plan fewer per table a query
-- reads. What is written to them is fenced on the organisation alone, as before; a write that
-- reads the rows it changes passes the read fence too.
do $$
declare t record;
begin
  for t in
    select coalesce(x.tabel, s.tabel) as tabel, s.sectie, x.tabel is null as geen_tenant
    from app_hidden.tenant_tabellen x
    full join (values ('app.projecten'::regclass, 'prioriteiten'), ('app.prioriteiten', 'prioriteiten'),
                      ('app.kernresultaten', 'prioriteiten'), ('app.taken', 'prioriteiten'), ('app.tags', 'prioriteiten'),
                      ('app.kpis', 'kpis'), ('app.kpi_kwartaaldoelen', 'kpis'), ('app.kpi_metingen', 'kpis'),
                      ('app.weektaken', 'weektaken')) s (tabel, sectie) on s.tabel = x.tabel
  loop
    -- A table of a section whose fence would not be made would keep read policies without the section.
    if t.geen_tenant then
      raise exception '% is named as a table of section % but is no tenant table', t.tabel, t.sectie;
    end if;
    execute format('alter table %s enable row level security', t.tabel);
    execute format('alter table %s force row level security', t.tabel);
    execute format(
      'create policy "rows stay within the caller''s organisation" on %s as restrictive '
      'to koers_door using (org_id = (select o.org from %s o)) '
      'with check (org_id = (select o.org from app_hidden.mijn_org() o))', t.tabel,
      case when t.sectie is null then 'app_hidden.mijn_org()'
           else format('app_hidden.mijn_org_in(%L, %L::regclass)', t.sectie, t.tabel::text) end);
  end loop;
end
$$;

revoke all on all tables in schema app, app_private from koers_door;
grant all on all tables in schema app, app_private to koers_definer;
grant usage on all sequences in schema app, app_private to koers_definer;

-- Reference data the doors read.
grant select on app.operaties, app.rol_rechten, app.foutcodes, app.sqlstate_fouten, app.keuzes,
  app.operatie_parameters to koers_door;

-- Accounts: names only, never e-mail or password hash.
grant select (id, naam) on app.accounts to koers_door;
create policy "members see the accounts of people in their organisation" on app.accounts
  for select to koers_door
  using (exists (select 1 from app.lidmaatschappen l where l.user_id = accounts.id));

grant select on app.organisaties to koers_door;
create policy "members see their organisation" on app.organisaties
  for select to koers_door using (true);

-- Team data is the backbone of every answer (owners, leaders): visible within the organisation.
grant select on app.teams, app.lidmaatschappen, app.processen, app.rollen, app.brand_labels
  to koers_door;
create policy "members see the teams of their organisation" on app.teams
  for select to koers_door using (true);
create policy "members see the members of their organisation" on app.lidmaatschappen
  for select to koers_door using (true);
create policy "members see the processes of their organisation" on app.processen
  for select to koers_door using (true);
create policy "members see the role seats of their organisation" on app.rollen
  for select to koers_door using (true);
create policy "members see the brand labels of their organisation" on app.brand_labels
  for select to koers_door using (true);

-- Projects: section prioriteiten; a private (besloten) project only for those who work on it.
-- The private projects of the caller's organisation the caller does not work on. Read from the
-- call's caller row when the call worked them out (and has not written since what they depend
-- on, below): within one call they stay as its start found them, as the sections do. Otherwise
-- one statement.
create function app_hidden.verborgen_projecten() returns uuid[]
language plpgsql stable parallel restricted security definer set search_path = '' as $$
declare
  org uuid;
  ik uuid;
  verborgen uuid[];
begin
  -- The caller's organisation and member read once, as huidige_org() and huidige_gebruiker()
  -- read them (a call's caller row, else a warehouse session's login): one statement instead of
  -- two function entries, for a helper every query that reads tasks or projects runs.
  if not pg_is_in_recovery() then
    select b.org, b.user_id, b.verborgen into org, ik, verborgen from app_hidden.beller_bron() b;
    if verborgen is not null then return verborgen; end if;
  end if;
  if org is null then
    select b.org, b.user_id into org, ik from app_hidden.beller_warehouse() b;
  end if;
  return app_hidden.verborgen_projecten_van(org, ik);
end
$$;

-- The same for policies and definitions, written as "(select v.ids from app_hidden.mijn_verborgen() v)":
-- inlined like mijn_org (db/030_caller.sql), so a query whose call worked them out reads them
-- with its probe of the caller row, computed once per query (an init plan), and enters no
-- function for them.
create function app_hidden.mijn_verborgen() returns table (ids uuid[])
language sql stable parallel restricted as $$
  select coalesce((select b.verborgen from app_hidden.beller_bron() b), app_hidden.verborgen_projecten())
$$;

-- A call that writes what the hidden projects depend on (a project, who works on one, the
-- project or owner of a task in one) forgets them in its caller row, so its next statement works
-- them out anew. In the transaction of the write: a rolled-back trial run forgets nothing.
create function app_hidden.tg__verborgen_vergeten() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app_hidden.bellers b set verborgen = null
  where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak() and b.sinds = now() and b.verborgen is not null;
  return null;
end
$$;

create trigger _800_verborgen_vergeten after insert or update or delete on app.projecten
  for each statement execute function app_hidden.tg__verborgen_vergeten();
create trigger _800_verborgen_vergeten after insert or update or delete on app.project_leden
  for each statement execute function app_hidden.tg__verborgen_vergeten();
-- New and deleted tasks once per statement (an import adds thousands in one); a changed task
-- only when its project or, in a project, its owner changes.
create trigger _800_verborgen_vergeten after insert or delete on app.taken
  for each statement execute function app_hidden.tg__verborgen_vergeten();
create trigger _800_verborgen_vergeten_gewijzigd after update of project_id, eigenaar_user_id on app.taken
  for each row when ((old.project_id is not null or new.project_id is not null)
                     and (old.project_id is distinct from new.project_id
                          or old.eigenaar_user_id is distinct from new.eigenaar_user_id))
  execute function app_hidden.tg__verborgen_vergeten();

grant select on app.projecten, app.project_leden to koers_door;
grant insert (org_id, titel, omschrijving, eigenaar_user_id, startdatum, deadline, aangemaakt_door)
  on app.projecten to koers_door;
grant insert (org_id, project_id, user_id) on app.project_leden to koers_door;
create policy "members see the open projects of their organisation and private ones they work on"
  on app.projecten for select to koers_door
  using (not besloten or not id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[]));
create policy "members who may create projects add them to their organisation"
  on app.projecten for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o)
              and (select app_hidden.mijn_recht('project_aanmaken')) <> 'geen'
              and aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "members see who works on the projects they see" on app.project_leden
  for select to koers_door
  using (exists (select 1 from app.projecten p where p.org_id = project_leden.org_id
                 and p.id = project_leden.project_id));
create policy "project creators add the first people who work on it" on app.project_leden
  for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o)
              and exists (select 1 from app.projecten p where p.org_id = project_leden.org_id
                          and p.id = project_leden.project_id
                          and p.aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g)));

-- The planning core: priorities, KPIs, tasks, the weekly board ----------------------------

-- Whether a project of the caller's organisation is one the caller may see (and so its tasks).
create function app_hidden.project_zichtbaar(_org uuid, _project uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return app_hidden.eigen_org(_org)
     and exists (select 1 from app.projecten p where p.org_id = _org and p.id = _project)
     and not _project = any (app_hidden.verborgen_projecten());
end
$$;

-- Owner, admin and MT measure every KPI; a member ('eigen') only the KPIs they own.
create function app_hidden.mag_kpi_meten(_org uuid, _kpi uuid) returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return case app_hidden.mijn_recht('kpi_meting_invoeren')
    when 'alles' then true
    when 'eigen' then exists (select 1 from app.kpis k where k.org_id = _org and k.id = _kpi
                              and k.eigenaar_user_id = app_hidden.huidige_gebruiker())
    else false end;
end
$$;

grant select on app.prioriteiten, app.kernresultaten, app.kpis, app.kpi_kwartaaldoelen, app.kpi_metingen,
  app.taken, app.tags, app.taak_tags, app.taak_geschiedenis, app.bijlagen, app.opmerkingen,
  app.weektaken, app.dagprioriteiten to koers_door;
grant insert (org_id, soort, titel, omschrijving, eigenaar_user_id, kwartaal_start, deadline, aangemaakt_door)
  on app.prioriteiten to koers_door;
grant insert (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans, lager_is_beter, aangemaakt_door)
  on app.kpis to koers_door;
grant insert (org_id, kpi_id, periode, periode_start, periode_eind, waarde, toelichting, ingevoerd_door, ingevoerd_op),
  update (waarde, toelichting, ingevoerd_door, ingevoerd_op) on app.kpi_metingen to koers_door;
grant insert (org_id, omschrijving, prioriteit_id, project_id, ouder_id, eigenaar_user_id, aangemaakt_door, deadline,
              week, brand_label_id, grootte, inschatting_uren, herhalen),
  update (stand, eigenaar_user_id, deadline, herhalen, omschrijving, week, brand_label_id, grootte, inschatting_uren)
  on app.taken to koers_door;
grant insert (org_id, naam) on app.tags to koers_door;
grant insert, delete on app.taak_tags to koers_door;
grant insert (org_id, user_id, week, titel, prioriteit_id, aangemaakt_door) on app.weektaken to koers_door;
grant insert (org_id, user_id, datum, prioriteit_1, prioriteit_2, prioriteit_3, bijgewerkt_op),
  update (prioriteit_1, prioriteit_2, prioriteit_3, bijgewerkt_op) on app.dagprioriteiten to koers_door;

-- Priorities and key results
create policy "members see the priorities of their organisation" on app.prioriteiten for select to koers_door
  using (true);
create policy "members who may add priorities add them" on app.prioriteiten for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o)
              and (select app_hidden.mijn_recht('prioriteit_aanmaken')) <> 'geen'
              and aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "members see the key results of their organisation" on app.kernresultaten for select to koers_door
  using (true);

-- KPIs
create policy "members see the KPIs of their organisation" on app.kpis for select to koers_door
  using (true);
create policy "members who may add KPIs add them" on app.kpis for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('kpi_aanmaken')) <> 'geen'
              and aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "members see the quarter targets of their organisation" on app.kpi_kwartaaldoelen for select to koers_door
  using (true);
create policy "members see the measurements of their organisation" on app.kpi_metingen for select to koers_door
  using (true);
create policy "members measure the KPIs they may measure" on app.kpi_metingen for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and ingevoerd_door = (select g.user_id from app_hidden.mijn_gebruiker() g)
              and app_hidden.mag_kpi_meten(org_id, kpi_id));
create policy "members overwrite measurements of the KPIs they may measure" on app.kpi_metingen for update to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o))
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and ingevoerd_door = (select g.user_id from app_hidden.mijn_gebruiker() g)
              and app_hidden.mag_kpi_meten(org_id, kpi_id));

-- Tasks: tasks of a private project only for those who work on it. The policies of rows that
-- belong to a task look the task up with "offset 0": without it the planner may hash the whole
-- task table (every row through the task policy) to check a handful of comments.
create policy "members see the tasks they can see in the app" on app.taken for select to koers_door
  using (project_id is null or not project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[]));
create policy "members who may add tasks add them" on app.taken for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('taak_toevoegen')) <> 'geen'
              and aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g)
              and (project_id is null or app_hidden.project_zichtbaar(org_id, project_id)));
-- The project condition as the read policy has it, once per statement: for a task that exists,
-- its project exists (the foreign key) and is of the caller's organisation (the first condition),
-- so of project_zichtbaar only "not hidden from the caller" is left to check.
create policy "members who may update tasks update the tasks they see" on app.taken for update to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('taak_bijwerken')) <> 'geen'
         and (project_id is null or not project_id = any ((select v.ids from app_hidden.mijn_verborgen() v)::uuid[])))
  with check (org_id = (select o.org from app_hidden.mijn_org() o));
create policy "members see the tags of their organisation" on app.tags for select to koers_door
  using (true);
create policy "members who may change tasks add tags" on app.tags for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o)
              and ((select app_hidden.mijn_recht('taak_toevoegen')) <> 'geen' or (select app_hidden.mijn_recht('taak_bijwerken')) <> 'geen'));
create policy "members see the tags of tasks they see" on app.taak_tags for select to koers_door
  using (exists (select 1 from app.taken t where t.org_id = taak_tags.org_id and t.id = taak_tags.taak_id offset 0));
create policy "members who may change tasks tag them" on app.taak_tags for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o)
              and ((select app_hidden.mijn_recht('taak_toevoegen')) <> 'geen' or (select app_hidden.mijn_recht('taak_bijwerken')) <> 'geen')
              and exists (select 1 from app.taken t where t.org_id = taak_tags.org_id and t.id = taak_tags.taak_id));
create policy "members who may change tasks untag them" on app.taak_tags for delete to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mijn_recht('taak_bijwerken')) <> 'geen'
         and exists (select 1 from app.taken t where t.org_id = taak_tags.org_id and t.id = taak_tags.taak_id));
create policy "members see the history of tasks they see" on app.taak_geschiedenis for select to koers_door
  using (exists (select 1 from app.taken t where t.org_id = taak_geschiedenis.org_id and t.id = taak_geschiedenis.taak_id));
create policy "members see the attachments of tasks they see" on app.bijlagen for select to koers_door
  using (exists (select 1 from app.taken t where t.org_id = bijlagen.org_id and t.id = bijlagen.taak_id offset 0));
create policy "members see the comments on tasks they see" on app.opmerkingen for select to koers_door
  using (exists (select 1 from app.taken t where t.org_id = opmerkingen.org_id and t.id = opmerkingen.taak_id offset 0));

-- Weekly board and day priorities: a member sees their own board; owner, admin and MT all.
create policy "members see their own weekly board, leaders every board" on app.weektaken for select to koers_door
  using (user_id = (select g.user_id from app_hidden.mijn_gebruiker() g) or (select app_hidden.mijn_recht('weektaken')) = 'alles');
create policy "members add to their own board, leaders to a colleague's" on app.weektaken for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and aangemaakt_door = (select g.user_id from app_hidden.mijn_gebruiker() g)
              and (select app_hidden.mijn_recht('weektaak_toevoegen')) <> 'geen'
              and (user_id = (select g.user_id from app_hidden.mijn_gebruiker() g) or (select app_hidden.mijn_recht('weektaak_toevoegen')) = 'alles'));
create policy "members see their own day priorities" on app.dagprioriteiten for select to koers_door
  using (user_id = (select g.user_id from app_hidden.mijn_gebruiker() g));
create policy "members set only their own day priorities" on app.dagprioriteiten for insert to koers_door
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and user_id = (select g.user_id from app_hidden.mijn_gebruiker() g)
              and (select app_hidden.mijn_recht('dagprioriteiten_zetten')) <> 'geen');
create policy "members change only their own day priorities" on app.dagprioriteiten for update to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and user_id = (select g.user_id from app_hidden.mijn_gebruiker() g))
  with check (org_id = (select o.org from app_hidden.mijn_org() o) and user_id = (select g.user_id from app_hidden.mijn_gebruiker() g));
