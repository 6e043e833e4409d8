-- Grants and row-level security. The doors connect as koers_door: not superuser, not owner,
-- no BYPASSRLS, and RLS is forced on every tenant table, so every row a door sees or writes
-- passes a policy below. Policies are named as sentences and target koers_door.
-- koers_definer (BYPASSRLS, no login) owns the few security-definer functions that must see
-- across the caller's limits: resolving keys, writing the call log, history and events.

revoke all on all tables in schema app, app_private from koers_door;
grant all on all tables in schema app, app_private to koers_definer;
grant usage on all sequences in schema app, app_private to koers_definer;

-- Reference data the doors read.
grant select on app.operaties, app.rol_rechten, app.foutcodes, app.sqlstate_fouten to koers_door;

-- Accounts: names only, never e-mail or password hash.
grant select (id, naam) on app.accounts to koers_door;
create policy "members see the accounts of people in their organisation" on app.accounts
  for select to koers_door
  using (exists (select 1 from app.lidmaatschappen l where l.user_id = accounts.id));

grant select on app.organisaties to koers_door;
create policy "members see their organisation" on app.organisaties
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));

-- Team data is the backbone of every answer (owners, leaders): visible within the organisation.
grant select on app.teams, app.lidmaatschappen, app.processen, app.rollen, app.brand_labels
  to koers_door;
create policy "members see the teams of their organisation" on app.teams
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));
create policy "members see the members of their organisation" on app.lidmaatschappen
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));
create policy "members see the processes of their organisation" on app.processen
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));
create policy "members see the role seats of their organisation" on app.rollen
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));
create policy "members see the brand labels of their organisation" on app.brand_labels
  for select to koers_door using (org_id = (select app_hidden.huidige_org()));

-- Projects: section prioriteiten; a private (besloten) project only for those who work on it.
create function app_hidden.werkt_aan_project(_org uuid, _project uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (select 1 from app.projecten p
                 where p.org_id = _org and p.id = _project
                   and p.eigenaar_user_id = app_hidden.huidige_gebruiker())
      or exists (select 1 from app.project_leden l
                 where l.org_id = _org and l.project_id = _project
                   and l.user_id = app_hidden.huidige_gebruiker())
      or exists (select 1 from app.taken t
                 where t.org_id = _org and t.project_id = _project
                   and t.eigenaar_user_id = app_hidden.huidige_gebruiker());
end
$$;

grant select on app.projecten, app.project_leden to koers_door;
grant insert (org_id, titel, omschrijving, eigenaar_user_id, startdatum, deadline, aangemaakt_door)
  on app.projecten to koers_door;
grant insert (org_id, project_id, user_id) on app.project_leden to koers_door;
create policy "members see the open projects of their organisation and private ones they work on"
  on app.projecten for select to koers_door
  using (org_id = (select app_hidden.huidige_org())
         and (select app_hidden.sectie_zichtbaar('prioriteiten'))
         and (not besloten or app_hidden.werkt_aan_project(org_id, id)));
create policy "members who may create projects add them to their organisation"
  on app.projecten for insert to koers_door
  with check (org_id = (select app_hidden.huidige_org())
              and (select app_hidden.mijn_recht('project_aanmaken')) <> 'geen'
              and aangemaakt_door = (select app_hidden.huidige_gebruiker()));
create policy "members see who works on the projects they see" on app.project_leden
  for select to koers_door
  using (org_id = (select app_hidden.huidige_org())
         and exists (select 1 from app.projecten p where p.org_id = project_leden.org_id
                     and p.id = project_leden.project_id));
create policy "project creators add the first people who work on it" on app.project_leden
  for insert to koers_door
  with check (org_id = (select app_hidden.huidige_org())
              and exists (select 1 from app.projecten p where p.org_id = project_leden.org_id
                          and p.id = project_leden.project_id
                          and p.aangemaakt_door = (select app_hidden.huidige_gebruiker())));

-- Every other tenant table gets at least the organisation fence, so a grant added later can
-- never open another organisation's rows. Tables the doors have no grant on stay closed.
do $$
declare t record;
begin
  for t in
    select c.oid::regclass as tabel
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('app', 'app_private') and c.relkind = 'r'
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'org_id')
      and not exists (select 1 from pg_policy p where p.polrelid = c.oid)
  loop
    execute format(
      'create policy "rows stay within the caller''s organisation" on %s as restrictive '
      'to koers_door using (org_id = (select app_hidden.huidige_org())) '
      'with check (org_id = (select app_hidden.huidige_org()))', t.tabel);
  end loop;
end
$$;
