-- koers import, the entry point: unpack (db/910_import_lezen.sql), check
-- (db/911_import_controleren.sql), write (db/912_import_schrijven.sql, 913_import_schrijven_werk.sql).

-- Checks the file (see above) and, when nothing is wrong and _schrijven, writes it. Returns
-- {"fouten": [{"pad", "bericht"}]} (nothing written) or {"aantallen": {kind: {nieuw, bijgewerkt,
-- ongewijzigd}}}. The CLI passes _schrijven false when the file's shape already failed, so the
-- reference faults are reported with the shape faults. Imports of one organisation take turns.
create function beheer.importeren(_org uuid, _bestand jsonb, _schrijven boolean default true) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  totaal integer;
  fouten jsonb;
  aantallen jsonb;
begin
  if not exists (select 1 from app.organisaties o where o.org_id = _org) then
    perform app_hidden.ongeldig('org', format('Organisatie %s bestaat niet.', _org));
  end if;
  perform app_hidden.vergrendel('import', _org::text);
  totaal := beheer.imp_uitpakken(_bestand);
  if totaal >= 1000 then raise notice 'import: checking % items', totaal; end if;
  perform beheer.imp_controleren(_org);
  select coalesce(jsonb_agg(jsonb_build_object('pad', f.pad, 'bericht', f.bericht)), '[]') into fouten
  from (select distinct on (f.pad, f.bericht) f.* from pg_temp.imp_fouten f) f;
  if fouten <> '[]' or not _schrijven then
    return jsonb_build_object('fouten', fouten);
  end if;
  perform beheer.namens(_org, null, 'importeren', jsonb_build_object('items', totaal));
  perform set_config('koers.import_totaal', totaal::text, true);
  perform set_config('koers.import_klaar', '0', true);
  aantallen := beheer.imp_schrijven(_org);
  return jsonb_build_object('aantallen', aantallen);
end
$$;
