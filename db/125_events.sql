-- One change: the rows a single door call (or, without a call, a single transaction) writes.
-- A second trigger within the same change (tags after a new deadline, say) updates its
-- history entry or event rather than adding one. _deze: the running call's id, which the caller
-- reads once ((app_hidden.beller()).aanroep_id into a variable) and passes in. Not read here: a
-- stable function in the filter is run by the planner too, to estimate it, once the table has
-- statistics (so how often the caller row was read depended on whether autovacuum had analysed
-- the table yet), and a subquery here would keep this function from being inlined (the filter
-- would then run per row, and xid would not reach the index).
create function app_hidden.zelfde_wijziging(_xid xid8, _aanroep uuid, _deze uuid) returns boolean
language sql stable as $$
  select _xid = pg_current_xact_id() and _aanroep is not distinct from _deze
$$;

-- Domain events, recorded by triggers in the transaction of the change: one per subject and
-- kind per change. _bestaat: whether this change already has that event (null: look; a caller
-- that has just looked says so, and is spared the second look).
create function app_hidden.gebeurtenis(_org uuid, _soort text, _onderwerp uuid, _gegevens jsonb,
                                       _besloten boolean default false, _bestaat boolean default null)
returns void language plpgsql volatile security definer set search_path = '' as $$
declare
  aanroep uuid := (app_hidden.beller()).aanroep_id;
begin
  if _bestaat is distinct from false then
    update app.gebeurtenissen g set gegevens = _gegevens, tijdstip = app_hidden.nu(), besloten = _besloten
    where g.org_id = _org and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id, aanroep) and g.soort = _soort
      and g.onderwerp_id = _onderwerp;
    if found then return; end if;
  end if;
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, besloten, onderwerp_id, aanroep_id)
  values (_org, _soort, app_hidden.nu(), _gegevens, _besloten, _onderwerp, aanroep);
end
$$;
