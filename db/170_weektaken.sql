-- The weekly board per person per ISO week, and the day's three priorities.

create function app_hidden.weektaak_weergave(w app.weektaken) returns jsonb
language sql stable as $$
  select jsonb_build_object('id', w.id, 'titel', w.titel, 'status', w.kolom, 'klaar', w.klaar,
                            'rock_id', w.prioriteit_id, 'week', w.week)
$$;

create function api.weektaken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  gekozen text := coalesce(app_hidden.param_week(p, 'week', org, false), app_hidden.iso_week(app_hidden.vandaag(org)));
  alles boolean := app_hidden.mijn_recht('weektaken') = 'alles';
begin
  return jsonb_build_object('week', gekozen, 'borden', coalesce((
    select jsonb_agg(jsonb_build_object('persoon', app_hidden.persoon(org, u.user_id),
      'taken', coalesce((select jsonb_agg(app_hidden.weektaak_weergave(w) order by w.aangemaakt_op, w.id)
                         from app.weektaken w where w.org_id = org and w.user_id = u.user_id and w.week = gekozen), '[]'))
      order by u.naam, u.user_id)
    from (select l.user_id, a.naam from app.lidmaatschappen l join app.accounts a on a.id = l.user_id
          where l.org_id = org and l.actief
            and (l.user_id = ik or (alles and exists (
              select 1 from app.weektaken w where w.org_id = org and w.user_id = l.user_id and w.week = gekozen)))) u), '[]'));
end
$$;

create function api.weektaak_toevoegen(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  nieuwe_titel text := (p ->> 'titel');
  gekozen text := coalesce(app_hidden.param_week(p, 'week', org), app_hidden.iso_week(app_hidden.vandaag(org)));
  voor uuid := coalesce(app_hidden.param_verwijzing(p, 'voor_user_id', 'lid'), ik);
  prioriteit app.prioriteiten;
  w app.weektaken;
begin
  select * into prioriteit from app.prioriteiten x
  where x.org_id = org and x.id = app_hidden.param_verwijzing(p, 'prioriteit_id', 'prioriteit');
  if voor <> ik and app_hidden.mijn_recht('weektaak_toevoegen') <> 'alles' then
    perform app_hidden.fout('rol_mag_niet',
      'Alleen een eigenaar, admin of MT-lid zet een taak op het weekbord van een collega.', 'voor_user_id');
  end if;
  insert into app.weektaken (org_id, user_id, week, titel, prioriteit_id, aangemaakt_door)
  values (org, voor, gekozen, nieuwe_titel, prioriteit.id, ik)
  returning * into w;
  return jsonb_build_object(
    'voorstel', jsonb_build_object(
      'titel', app_hidden.veld(null, to_jsonb(nieuwe_titel)),
      'week', app_hidden.veld(null, to_jsonb(gekozen)),
      'voor', app_hidden.veld(null, app_hidden.persoon(org, voor)),
      'prioriteit', app_hidden.veld(null, case when prioriteit.id is null then null
                                              else jsonb_build_object('id', prioriteit.id, 'titel', prioriteit.titel) end)),
    'resultaat', jsonb_build_object('weektaak', app_hidden.weektaak_weergave(w)));
end
$$;

-- The day's priorities, only for the caller; a priority not given stays as it is. Writers of
-- one day are serialised, so two confirmations at once each keep the slot they set, and what
-- stands now is read after the other committed. The proposal shows only the slots given: one
-- that another confirmation filled meanwhile does not make this one's proposal stale.
create function api.dagprioriteiten_zetten(p jsonb) returns jsonb
language plpgsql volatile set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  dag date := coalesce(app_hidden.param_datum(p, 'datum'), app_hidden.vandaag(org));
  oud app.dagprioriteiten;
  nieuw app.dagprioriteiten;
begin
  if not (p ?| array['prioriteit_1', 'prioriteit_2', 'prioriteit_3']) then
    perform app_hidden.ongeldig('prioriteit_1', 'Geef minstens één prioriteit (prioriteit_1, prioriteit_2 of prioriteit_3).');
  end if;
  perform app_hidden.vergrendel('dagprioriteiten', org::text, ik::text, dag::text);
  select * into oud from app.dagprioriteiten d where d.org_id = org and d.user_id = ik and d.datum = dag;
  insert into app.dagprioriteiten as d (org_id, user_id, datum, prioriteit_1, prioriteit_2, prioriteit_3, bijgewerkt_op)
  values (org, ik, dag,
          case when p ? 'prioriteit_1' then (p ->> 'prioriteit_1') else oud.prioriteit_1 end,
          case when p ? 'prioriteit_2' then (p ->> 'prioriteit_2') else oud.prioriteit_2 end,
          case when p ? 'prioriteit_3' then (p ->> 'prioriteit_3') else oud.prioriteit_3 end,
          app_hidden.nu())
  on conflict (org_id, user_id, datum) do update
    set prioriteit_1 = excluded.prioriteit_1, prioriteit_2 = excluded.prioriteit_2,
        prioriteit_3 = excluded.prioriteit_3, bijgewerkt_op = excluded.bijgewerkt_op
  returning * into nieuw;
  return jsonb_build_object(
    'voorstel', jsonb_build_object('datum', app_hidden.veld(to_jsonb(dag), to_jsonb(dag)))
      || jsonb_strip_nulls(jsonb_build_object(
        'prioriteit_1', case when p ? 'prioriteit_1' then app_hidden.veld(to_jsonb(oud.prioriteit_1), to_jsonb(nieuw.prioriteit_1)) end,
        'prioriteit_2', case when p ? 'prioriteit_2' then app_hidden.veld(to_jsonb(oud.prioriteit_2), to_jsonb(nieuw.prioriteit_2)) end,
        'prioriteit_3', case when p ? 'prioriteit_3' then app_hidden.veld(to_jsonb(oud.prioriteit_3), to_jsonb(nieuw.prioriteit_3)) end)),
    'resultaat', jsonb_build_object('dagprioriteiten', jsonb_build_object('datum', dag,
      'prioriteiten', jsonb_build_array(nieuw.prioriteit_1, nieuw.prioriteit_2, nieuw.prioriteit_3))));
end
$$;
