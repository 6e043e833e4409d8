-- The weekly board per person per ISO week, and the day's three priorities.

-- The weekly-board definition: every task on a weekly board the caller may see (their own
-- board; every board for a role whose right on weektaken is 'alles', by the policy), all weeks.
create view app_hidden.def_weektaken with (security_invoker = true) as
  select w.org_id, w.id, w.user_id as persoon_user_id, p.naam as persoon_naam, w.week, w.titel,
    w.kolom as status, w.klaar, w.prioriteit_id as rock_id, w.aangemaakt_door as aangemaakt_door_user_id,
    w.aangemaakt_op
  from app.weektaken w
  left join app_hidden.def_personen p on p.org_id = w.org_id and p.user_id = w.user_id;

grant select on app_hidden.def_weektaken to koers_door, koers_definer;

-- The day-priorities definition: the caller's own day priorities (the policy shows nobody
-- else's), every day, with the three slots as the answer's list.
create view app_hidden.def_dagprioriteiten with (security_invoker = true) as
  select d.org_id, d.user_id as persoon_user_id, p.naam as persoon_naam, d.datum,
    d.prioriteit_1, d.prioriteit_2, d.prioriteit_3,
    jsonb_build_array(d.prioriteit_1, d.prioriteit_2, d.prioriteit_3) as prioriteiten, d.bijgewerkt_op
  from app.dagprioriteiten d
  left join app_hidden.def_personen p on p.org_id = d.org_id and p.user_id = d.user_id;

grant select on app_hidden.def_dagprioriteiten to koers_door, koers_definer;

-- A weekly-board task as answers show it (inlined: one expression, no table).
create function app_hidden.weektaak_weergave(id uuid, titel text, status text, klaar boolean, rock_id uuid, week text)
returns jsonb language sql stable as $$
  select jsonb_build_object('id', id, 'titel', titel, 'status', status, 'klaar', klaar, 'rock_id', rock_id, 'week', week)
$$;

-- The caller's board, and for a role that sees every board, each active member's board that has
-- tasks in the week.
create function api.weektaken(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  ik uuid := app_hidden.huidige_gebruiker();
  gekozen text := coalesce(app_hidden.param_week(p, 'week', org, false), app_hidden.iso_week(app_hidden.vandaag(org)));
begin
  -- Whether the caller sees every board is worked out inside the statement (once), so its plan
  -- is the same for every role.
  return jsonb_build_object('week', gekozen, 'borden', coalesce((
    select jsonb_agg(jsonb_build_object('persoon', pe.persoon, 'taken', coalesce(b.taken, '[]')) order by pe.naam, pe.user_id)
    from app.lidmaatschappen l
    join app_hidden.def_personen pe on pe.org_id = l.org_id and pe.user_id = l.user_id
    left join (
      select w.persoon_user_id,
             jsonb_agg(app_hidden.weektaak_weergave(w.id, w.titel, w.status, w.klaar, w.rock_id, w.week)
                       order by w.aangemaakt_op, w.id) as taken
      from app_hidden.def_weektaken w
      where w.org_id = org and w.week = gekozen
      group by w.persoon_user_id) b on b.persoon_user_id = l.user_id
    where l.org_id = org and l.actief
      and (l.user_id = ik or ((select app_hidden.mijn_recht('weektaken')) = 'alles' and b.persoon_user_id is not null))), '[]'));
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
      'voor', app_hidden.veld(null, (select x.persoon from app_hidden.def_personen x
                                      where x.org_id = org and x.user_id = voor)),
      'prioriteit', app_hidden.veld(null, case when prioriteit.id is null then null
                                              else jsonb_build_object('id', prioriteit.id, 'titel', prioriteit.titel) end)),
    'resultaat', jsonb_build_object('weektaak',
      app_hidden.weektaak_weergave(w.id, w.titel, w.kolom, w.klaar, w.prioriteit_id, w.week)));
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
    -- Only the slots given; each with "nu" null when the slot was empty (jsonb_strip_nulls
    -- would drop that null too, deep inside the field).
    'voorstel', jsonb_build_object('datum', app_hidden.veld(to_jsonb(dag), to_jsonb(dag)))
      || case when p ? 'prioriteit_1' then jsonb_build_object('prioriteit_1',
           app_hidden.veld(to_jsonb(oud.prioriteit_1), to_jsonb(nieuw.prioriteit_1))) else '{}' end
      || case when p ? 'prioriteit_2' then jsonb_build_object('prioriteit_2',
           app_hidden.veld(to_jsonb(oud.prioriteit_2), to_jsonb(nieuw.prioriteit_2))) else '{}' end
      || case when p ? 'prioriteit_3' then jsonb_build_object('prioriteit_3',
           app_hidden.veld(to_jsonb(oud.prioriteit_3), to_jsonb(nieuw.prioriteit_3))) else '{}' end,
    'resultaat', jsonb_build_object('dagprioriteiten', (
      select jsonb_build_object('datum', d.datum, 'prioriteiten', d.prioriteiten)
      from app_hidden.def_dagprioriteiten d where d.org_id = org and d.persoon_user_id = ik and d.datum = dag)));
end
$$;
