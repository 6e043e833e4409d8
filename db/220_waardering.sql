-- Company valuation as measured: the history as stored at the time of measuring (the live screen
-- in the app may show another amount). A measurement without figures is an open invitation to
-- the bookkeeper and is left out.

-- A measurement that holds at least one figure.
create function app_hidden.waardering_heeft_cijfers(omzet numeric, genormaliseerde_ebitda numeric,
                                                   multiple numeric, aandelenwaarde numeric) returns boolean
language sql immutable parallel safe as $$
  select num_nonnulls(omzet, genormaliseerde_ebitda, multiple, aandelenwaarde) > 0
$$;

create function api.waardering(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  org uuid := app_hidden.huidige_org();
  aantal integer := coalesce((p ->> 'aantal')::integer, 8);
begin
  return jsonb_build_object('waarderingen', coalesce((
    select jsonb_agg(jsonb_build_object('periode', w.periode, 'omzet', w.omzet,
                                        'genormaliseerde_ebitda', w.genormaliseerde_ebitda, 'multiple', w.multiple,
                                        'aandelenwaarde', w.aandelenwaarde, 'gemeten_op', w.gemeten_op)
                     order by w.rang)
    -- Newest first: the latest end of period, then the latest measurement.
    from (select x.periode, x.omzet, x.genormaliseerde_ebitda, x.multiple, x.aandelenwaarde, x.gemeten_op,
                 row_number() over (order by (app_hidden.periode_grenzen(x.periode)).tot desc nulls last,
                                             x.gemeten_op desc, x.id) as rang
          from app.waarderingen x
          where x.org_id = org
            and app_hidden.waardering_heeft_cijfers(x.omzet, x.genormaliseerde_ebitda, x.multiple, x.aandelenwaarde)) w
    where w.rang <= aantal), '[]'));
end
$$;

-- Policies ------------------------------------------------------------------------------------
grant select (org_id, id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op)
  on app.waarderingen to koers_door;
create policy "members who may see finance see the measured valuations" on app.waarderingen
  for select to koers_door
  using (org_id = (select app_hidden.huidige_org()) and (select app_hidden.sectie_zichtbaar('financien'))
         and (select app_hidden.mijn_recht('waardering')) <> 'geen'
         and app_hidden.waardering_heeft_cijfers(omzet, genormaliseerde_ebitda, multiple, aandelenwaarde));
