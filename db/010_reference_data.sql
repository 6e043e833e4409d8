-- The error mapping's SQL half: which built-in SQLSTATEs answer with which fout code. The codes
-- themselves and their HTTP status (app.foutcodes), the operations, their parameters and the
-- rights of each role are written from the TypeScript registry when migrating
-- (src/db/reference-data.ts), so each is defined once.

insert into app.sqlstate_fouten (sqlstate, code) values
  ('42501', 'rol_mag_niet'),          -- insufficient_privilege, also a policy's WITH CHECK
  ('23503', 'ongeldige_parameters'),  -- foreign_key_violation
  ('23514', 'ongeldige_parameters'),  -- check_violation
  ('23502', 'ongeldige_parameters'),  -- not_null_violation
  ('22P02', 'ongeldige_parameters'),  -- invalid_text_representation
  ('22007', 'ongeldige_parameters'),  -- invalid_datetime_format
  ('22008', 'ongeldige_parameters'),  -- datetime_field_overflow
  ('22003', 'ongeldige_parameters'),  -- numeric_value_out_of_range
  ('25006', 'alleen_lezen'),          -- read_only_sql_transaction
  ('22P05', 'ongeldige_parameters'),  -- untranslatable_character (a NUL in text)
  ('22021', 'ongeldige_parameters')   -- character_not_in_repertoire
on conflict (sqlstate) do update set code = excluded.code;
