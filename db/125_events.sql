-- One change: the rows a single door call (or, without a call, a single transaction) writes.
-- A second trigger within the same change (tags after a new deadline, say) updates its
-- history entry or event rather than adding one. The call is read from the caller row as a
-- subquery (an init plan: once per statement, when a row gets that far), not as beller(): a
-- stable function call in a filter is also run by the planner when the table has statistics
-- (to estimate the filter), so how often the caller row was read depended on whether
-- autovacuum had analysed the events yet. Only writes use this, and they run where the caller
-- row is (never on a standby or in a warehouse session, where beller() has no call id either).
create function app_hidden.zelfde_wijziging(_xid xid8, _aanroep uuid) returns boolean
language sql stable as $$
  select _xid = pg_current_xact_id() and _aanroep is not distinct from (select b.aanroep_id from app_hidden.beller_bron() b)
$$;

-- Domain events, recorded by triggers in the transaction of the change: one per subject and
-- kind per change. _bestaat: whether this change already has that event (null: look; a caller
-- that has just looked says so, and is spared the second look).
create function app_hidden.gebeurtenis(_org uuid, _soort text, _onderwerp uuid, _gegevens jsonb,
                                       _besloten boolean default false, _bestaat boolean default null)
returns void language plpgsql volatile security definer set search_path = '' as $$
begin
  if _bestaat is distinct from false then
    update app.gebeurtenissen g set gegevens = _gegevens, tijdstip = app_hidden.nu(), besloten = _besloten
    where g.org_id = _org and app_hidden.zelfde_wijziging(g.xid, g.aanroep_id) and g.soort = _soort
      and g.onderwerp_id = _onderwerp;
    if found then return; end if;
  end if;
  insert into app.gebeurtenissen (org_id, soort, tijdstip, gegevens, besloten, onderwerp_id, aanroep_id)
  values (_org, _soort, app_hidden.nu(), _gegevens, _besloten, _onderwerp, (app_hidden.beller()).aanroep_id);
end
$$;
