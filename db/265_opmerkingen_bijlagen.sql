-- What the app does: comments and attachments --------------------------------------------------
-- Called by the CLI (koers opmerking plaatsen, koers bijlage toevoegen) and the worker, over
-- the administrative connection; nothing here is granted to the doors. Each establishes the
-- caller with app_hidden.handelen_namens, so the call log and the task's history name the
-- person (or, for the worker, the app itself).

create function beheer.opmerking_plaatsen(_org uuid, _nummer integer, _user uuid, _tekst text) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  t app.taken;
  o app.opmerkingen;
  tekst text := trim(_tekst);
begin
  perform app_hidden.handelen_namens(_org, _user, 'app', 'opmerking_plaatsen',
    jsonb_build_object('taak', _nummer, 'tekst', left(tekst, 200)));
  select * into t from app.taken x where x.org_id = _org and x.nummer = _nummer and x.verwijderd_op is null;
  if t.id is null then perform app_hidden.ongeldig('taak', format('Taak #%s bestaat niet.', _nummer)); end if;
  if coalesce(tekst, '') = '' then perform app_hidden.ongeldig('tekst', 'De opmerking is leeg.'); end if;
  if length(tekst) > 10000 then
    perform app_hidden.ongeldig('tekst', 'De opmerking is te lang (hoogstens 10000 tekens).');
  end if;
  insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id, geplaatst_op)
  values (_org, t.id, tekst, _user, app_hidden.nu()) returning * into o;
  return jsonb_build_object('id', o.id, 'taak', jsonb_build_object('nummer', t.nummer, 'titel', t.omschrijving),
    'tekst', o.tekst, 'door', app_hidden.persoon(_org, _user), 'geplaatst_op', o.geplaatst_op);
end
$$;

-- The largest file an attachment may hold (also the check on app_private.bijlage_bestanden).
create function app_hidden.bijlage_max_bytes() returns integer
language sql immutable parallel safe as $$ select 10485760 $$;

-- Stores a file on a task: the attachment (its history names the person) and the file, whose
-- text a worker job then reads (queued by the trigger on app_private.bijlage_bestanden).
create function beheer.bijlage_toevoegen(_org uuid, _nummer integer, _user uuid, _naam text, _mimetype text,
                                         _inhoud bytea) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  t app.taken;
  b app.bijlagen;
  naam text := trim(regexp_replace(coalesce(_naam, ''), '^.*[/\\]', ''));
begin
  perform app_hidden.handelen_namens(_org, _user, 'app', 'bijlage_toevoegen',
    jsonb_build_object('taak', _nummer, 'naam', left(naam, 255), 'bytes', octet_length(_inhoud)));
  select * into t from app.taken x where x.org_id = _org and x.nummer = _nummer and x.verwijderd_op is null;
  if t.id is null then perform app_hidden.ongeldig('taak', format('Taak #%s bestaat niet.', _nummer)); end if;
  if naam = '' or length(naam) > 255 then
    perform app_hidden.ongeldig('bestand', 'De bestandsnaam moet 1 tot 255 tekens hebben.');
  end if;
  if octet_length(_inhoud) > app_hidden.bijlage_max_bytes() then
    perform app_hidden.ongeldig('bestand', format('Het bestand is te groot; een bijlage mag hoogstens %s MiB zijn.',
      app_hidden.bijlage_max_bytes() / 1048576));
  end if;
  insert into app.bijlagen (org_id, taak_id, naam, mimetype, bytes, geupload_door, geupload_op)
  values (_org, t.id, naam, nullif(trim(_mimetype), ''), octet_length(_inhoud), _user, app_hidden.nu())
  returning * into b;
  insert into app_private.bijlage_bestanden (org_id, bijlage_id, inhoud) values (_org, b.id, _inhoud);
  return jsonb_build_object('id', b.id, 'naam', b.naam, 'mimetype', b.mimetype, 'bytes', b.bytes,
    'tekst_status', 'wacht', 'taak', jsonb_build_object('nummer', t.nummer, 'titel', t.omschrijving),
    'door', app_hidden.persoon(_org, _user), 'geupload_op', b.geupload_op);
end
$$;

-- For the worker: the file of an attachment (no row when it is gone).
create function beheer.bijlage_bestand(_org uuid, _bijlage uuid,
                                       out naam text, out mimetype text, out inhoud bytea)
returns setof record language sql stable set search_path = '' as $$
  select b.naam, b.mimetype, f.inhoud from app.bijlagen b
  join app_private.bijlage_bestanden f on f.org_id = b.org_id and f.bijlage_id = b.id
  where b.org_id = _org and b.id = _bijlage
$$;

-- The worker's result: the text in parts [{plek, tekst}] (plek: page or sheet, or null) and the
-- status, or the reason the file could not be read. Writing it again gives the same rows.
create function beheer.bijlage_tekst_opslaan(_org uuid, _bijlage uuid, _delen jsonb, _status text, _fout text)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare b app.bijlagen;
begin
  perform app_hidden.handelen_namens(_org, null, 'app', 'bijlage_tekst_lezen',
    jsonb_build_object('bijlage_id', _bijlage, 'tekst_status', _status));
  update app.bijlagen x set
    tekst = (select string_agg(replace(d ->> 'tekst', E'\f', ' '), E'\f' order by i)
             from jsonb_array_elements(coalesce(_delen, '[]')) with ordinality e (d, i)),
    tekst_plekken = (select array_agg(d ->> 'plek' order by i)
                     from jsonb_array_elements(coalesce(_delen, '[]')) with ordinality e (d, i)),
    tekst_status = _status,
    tekst_fout = left(_fout, 500)
  where x.org_id = _org and x.id = _bijlage
  returning * into b;
  return jsonb_build_object('id', b.id, 'tekst_status', b.tekst_status,
    'delen', (select count(*) from app.bijlage_delen d where d.org_id = _org and d.bijlage_id = _bijlage));
end
$$;
