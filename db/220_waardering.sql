-- Company valuation as measured: the history as stored at the time of measuring (the live screen
-- in the app may show another amount). A measurement without figures is an open invitation to
-- the bookkeeper and is left out.

-- A measurement that holds at least one figure.
create function app_hidden.waardering_heeft_cijfers(omzet numeric, genormaliseerde_ebitda numeric,
                                                   multiple numeric, aandelenwaarde numeric) returns boolean
language sql immutable parallel safe as $$
  select num_nonnulls(omzet, genormaliseerde_ebitda, multiple, aandelenwaarde) > 0
$$;

-- Definition (docs/definitions.md): the measured valuations the caller may see (the policy
-- below), those with figures, with the end of their period.
create view app_hidden.def_waarderingen with (security_invoker = true) as
  select w.org_id, w.id, w.periode, app_hidden.periode_eind(w.periode) as periode_eind, w.omzet,
         w.genormaliseerde_ebitda, w.multiple, w.aandelenwaarde, w.gemeten_op
  from app.waarderingen w
  where app_hidden.waardering_heeft_cijfers(w.omzet, w.genormaliseerde_ebitda, w.multiple, w.aandelenwaarde);
grant select on app_hidden.def_waarderingen to koers_door;

create function api.waardering(p jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return jsonb_build_object('waarderingen', coalesce((
    select jsonb_agg(jsonb_build_object('periode', w.periode, 'omzet', w.omzet,
                                        'genormaliseerde_ebitda', w.genormaliseerde_ebitda, 'multiple', w.multiple,
                                        'aandelenwaarde', w.aandelenwaarde, 'gemeten_op', w.gemeten_op)
                     order by w.periode_eind desc nulls last, w.gemeten_op desc, w.id)
    -- Newest first: the latest end of period, then the latest measurement.
    from (select * from app_hidden.def_waarderingen x
          order by x.periode_eind desc nulls last, x.gemeten_op desc, x.id
          limit coalesce((p ->> 'aantal')::integer, 8)) w), '[]'));
end
$$;

-- Policies ------------------------------------------------------------------------------------
grant select (org_id, id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op)
  on app.waarderingen to koers_door;
create policy "members who may see finance see the measured valuations" on app.waarderingen
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o) and (select app_hidden.mag_lezen('financien', 'waardering'))
         and app_hidden.waardering_heeft_cijfers(omzet, genormaliseerde_ebitda, multiple, aandelenwaarde));
