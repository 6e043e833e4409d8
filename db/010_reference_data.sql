-- Reference data: operations, default rights per role (decisions.md), error mapping.
-- Upserted on every apply, so a change here ships with the code.

insert into app.operaties (naam, schrijft, sectie, module, vereist_org, alleen_mcp) values
  ('wie_ben_ik',              false, null,           'koppeling',    false, false),
  ('organisaties',            false, null,           'koppeling',    false, true),
  ('team',                    false, 'team',         'team',         true,  false),
  ('prioriteiten',            false, 'prioriteiten', 'prioriteiten', true,  false),
  ('kpi_scorebord',           false, 'kpis',         'kpis',         true,  false),
  ('weektaken',               false, 'weektaken',    'weektaken',    true,  false),
  ('waardering',              false, 'financien',    'financien',    true,  false),
  ('gesprekken',              false, 'reviews',      'reviews',      true,  false),
  ('sessienotities',          false, null,           'sessies',      true,  false),
  ('taken',                   false, 'prioriteiten', 'prioriteiten', true,  false),
  ('projecten',               false, 'prioriteiten', 'projecten',    true,  false),
  ('reflecties',              false, 'reviews',      'reviews',      true,  false),
  ('uren',                    false, 'prioriteiten', 'uren',         true,  false),
  ('zoeken',                  false, null,           'zoeken',       true,  false),
  ('taak_geschiedenis',       false, 'prioriteiten', 'prioriteiten', true,  false),
  ('prioriteit_aanmaken',     true,  'prioriteiten', 'prioriteiten', true,  false),
  ('kpi_meting_invoeren',     true,  'kpis',         'kpis',         true,  false),
  ('taak_toevoegen',          true,  'prioriteiten', 'prioriteiten', true,  false),
  ('kpi_aanmaken',            true,  'kpis',         'kpis',         true,  false),
  ('strategie_bijwerken',     true,  null,           'strategie',    true,  false),
  ('weektaak_toevoegen',      true,  'weektaken',    'weektaken',    true,  false),
  ('dagprioriteiten_zetten',  true,  'weektaken',    'weektaken',    true,  false),
  ('sessienotitie_schrijven', true,  null,           'sessies',      true,  false),
  ('taak_bijwerken',          true,  'prioriteiten', 'prioriteiten', true,  false),
  ('project_aanmaken',        true,  'prioriteiten', 'projecten',    true,  false)
on conflict (naam) do update set
  schrijft = excluded.schrijft, sectie = excluded.sectie, module = excluded.module,
  vereist_org = excluded.vereist_org, alleen_mcp = excluded.alleen_mcp;

-- Rights of lid and coach per operation; eigenaar, admin and mt may do everything.
with lid_coach (operatie, lid, coach) as (values
  ('wie_ben_ik',              'alles', 'alles'),
  ('organisaties',            'alles', 'alles'),
  ('team',                    'alles', 'alles'),
  ('prioriteiten',            'alles', 'alles'),
  ('taken',                   'alles', 'alles'),
  ('taak_geschiedenis',       'alles', 'alles'),
  ('projecten',               'alles', 'alles'),
  ('uren',                    'eigen', 'alles'),
  ('prioriteit_aanmaken',     'alles', 'geen'),
  ('taak_toevoegen',          'alles', 'geen'),
  ('taak_bijwerken',          'alles', 'geen'),
  ('project_aanmaken',        'alles', 'geen'),
  ('kpi_scorebord',           'alles', 'alles'),
  ('kpi_aanmaken',            'geen',  'geen'),
  ('kpi_meting_invoeren',     'eigen', 'geen'),
  ('weektaken',               'eigen', 'geen'),
  ('weektaak_toevoegen',      'eigen', 'geen'),
  ('dagprioriteiten_zetten',  'eigen', 'geen'),
  ('gesprekken',              'eigen', 'geen'),
  ('reflecties',              'eigen', 'geen'),
  ('waardering',              'geen',  'geen'),
  ('sessienotities',          'eigen', 'alles'),
  ('sessienotitie_schrijven', 'geen',  'alles'),
  ('strategie_bijwerken',     'geen',  'geen'),
  ('zoeken',                  'alles', 'alles')
)
insert into app.rol_rechten (operatie, rol, recht)
select operatie, rol, recht from lid_coach,
  lateral (values ('eigenaar', 'alles'), ('admin', 'alles'), ('mt', 'alles'),
                  ('lid', lid), ('coach', coach)) r (rol, recht)
on conflict (operatie, rol) do update set recht = excluded.recht;

insert into app.foutcodes (code, status) values
  ('geen_sleutel', 401), ('sleutel_ingetrokken', 401), ('verkeerde_organisatie', 403),
  ('koppeling_uit', 403), ('onderdeel_uit', 403), ('rol_mag_niet', 403), ('alleen_lezen', 403),
  ('ongeldige_parameters', 400), ('onbekend_endpoint', 404), ('te_groot', 413),
  ('te_veel_verzoeken', 429), ('interne_fout', 500),
  -- The HTTP door's own refusals (docs/decisions.md).
  ('ongeldig_verzoek', 400), ('methode_niet_toegestaan', 405), ('niet_ondersteund', 415),
  ('headers_te_groot', 431)
on conflict (code) do update set status = excluded.status;

insert into app.sqlstate_fouten (sqlstate, code) values
  ('42501', 'rol_mag_niet'),          -- insufficient_privilege, also a policy's WITH CHECK
  ('23503', 'ongeldige_parameters'),  -- foreign_key_violation
  ('23514', 'ongeldige_parameters'),  -- check_violation
  ('23502', 'ongeldige_parameters'),  -- not_null_violation
  ('22P02', 'ongeldige_parameters'),  -- invalid_text_representation
  ('22007', 'ongeldige_parameters'),  -- invalid_datetime_format
  ('22008', 'ongeldige_parameters'),  -- datetime_field_overflow
  ('22003', 'ongeldige_parameters'),  -- numeric_value_out_of_range
  ('25006', 'alleen_lezen')           -- read_only_sql_transaction
on conflict (sqlstate) do update set code = excluded.code;
