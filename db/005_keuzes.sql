-- The value lists (app.keuzes, written from src/choices.ts when migrating): check constraints
-- derived from them, and the meaning of a value. No list of values is spelled out in SQL.

-- The values of a list, in their order.
create function app_hidden.keuzes(_lijst text) returns text[]
language sql stable parallel safe as $$
  select array_agg(k.waarde order by k.volgorde) from app.keuzes k where k.lijst = _lijst
$$;

-- What one value stands for (a read-side name, hours, an interval), or null.
create function app_hidden.betekenis(_lijst text, _waarde text) returns text
language sql stable parallel safe as $$
  select k.betekenis from app.keuzes k where k.lijst = _lijst and k.waarde = _waarde
$$;

-- Columns that hold a value of a list. Their constraints (<table>_<column>_keuze) are made anew
-- on every apply from the list as it is now; src/db/reference-data.ts drops them before it
-- rewrites the lists, so a value can be added without a migration.
do $$
declare
  k record;
  lijst text[];
  naam text;
begin
  for k in select * from (values
      ('app.operaties'::regclass, 'sectie', 'sectie'),
      ('app.secties', 'sectie', 'sectie'),
      ('app.koppelingen', 'door', 'door'),
      ('app.rol_rechten', 'rol', 'rol'),
      ('app.org_rechten', 'rol', 'rol'),
      ('app.lidmaatschappen', 'rol', 'rol'),
      ('app.taken', 'stand', 'taak_stand'),
      ('app.taken', 'herhalen', 'herhalen'),
      ('app.taken', 'grootte', 'grootte'),
      ('app.prioriteiten', 'soort', 'prioriteit_soort'),
      ('app.kpis', 'meetsoort', 'meetsoort'),
      ('app.kpis', 'cadans', 'cadans'),
      ('app.reflecties', 'soort', 'reflectie_soort'),
      ('app.sessienotities', 'soort', 'sessienotitie_soort'),
      ('app.sessienotities', 'status', 'sessienotitie_status'),
      ('app.strategie_voorstellen', 'status', 'strategievoorstel_status'),
      ('app.gesprekken', 'soort', 'gesprek_soort'),
      ('app.bijlagen', 'tekst_status', 'bijlage_tekst_status'),
      ('app.rol_rechten', 'recht', 'recht'),
      ('app.org_rechten', 'recht', 'recht'),
      ('app.taken', 'urgentie', 'urgentie'),
      ('app.weektaken', 'kolom', 'weektaak_kolom'),
      ('app.gesprekken', 'eindclassificatie', 'eindclassificatie'),
      ('app.gebeurtenissen', 'soort', 'gebeurtenis_soort'),
      ('app.taak_geschiedenis', 'soort', 'taak_geschiedenis_soort'),
      ('app.audit_log', 'actie', 'audit_actie'),
      ('app.operatie_parameters', 'type', 'parameter_type'),
      ('app_private.webhook_berichten', 'status', 'webhook_bericht_status'),
      ('app_private.mcp_clients', 'soort', 'mcp_client_soort'),
      ('app_private.mcp_verbindingen', 'reden_intrekking', 'mcp_intrekking_reden'),
      ('app_private.mcp_tokens', 'soort', 'mcp_token_soort')) x (tabel, kolom, lijst)
  loop
    lijst := app_hidden.keuzes(k.lijst);
    if lijst is null then
      raise exception 'app.keuzes has no list %: migrate writes it from src/choices.ts', k.lijst;
    end if;
    naam := (select c.relname from pg_class c where c.oid = k.tabel) || '_' || k.kolom || '_keuze';
    execute format('alter table %s drop constraint if exists %I', k.tabel, naam);
    execute format('alter table %s add constraint %I check (%I = any (%L::text[]))', k.tabel, naam, k.kolom, lijst);
  end loop;
end
$$;
