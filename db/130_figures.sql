-- Every figure of the planning core, written here and only here: elapsed time, task weight,
-- priority progress and stand, KPI line and traffic light. Each is an inlinable SQL expression
-- (language sql, no SET clause, no table read): the definitions (def_taken, def_prioriteiten,
-- def_kpi_scorebord, ...) compute them set-based for every row at once, for the doors and the
-- warehouse alike. The rules are those of docs/decisions.md (Figures). The local "now"
-- (app_hidden.moment) is in 120_projecten.sql, whose definition is the first to need it.

-- Time -------------------------------------------------------------------------------------

-- The quarter a KPI period counts in: a week counts where its Thursday is (ISO).
create function app_hidden.periode_kwartaal(van date, cadans text) returns date
language sql immutable parallel safe as $$
  select date_trunc('quarter', (case when cadans = 'week' then van + 3 else van end)::timestamp)::date
$$;

-- Share of the days van .. laatste_dag (both whole, on the local calendar) elapsed at the local
-- time _moment; in [0, 1]. Counted on the calendar, so every day weighs the same and a change
-- to or from summer time moves no figure. As of the end of a day d: least(moment, d + 1).
create function app_hidden.verstreken(van date, laatste_dag date, _moment timestamp) returns numeric
language sql immutable parallel safe as $$
  select greatest(0, least(1,
    extract(epoch from _moment - van::timestamp) / extract(epoch from (laatste_dag + 1)::timestamp - van::timestamp)))
$$;

-- Tasks ------------------------------------------------------------------------------------

-- Weight of a task in a priority's progress: its estimate when above 0, else the hours of its
-- size (grootte_uren: the meaning of its size in app.keuzes, list grootte), else 2 hours.
create function app_hidden.taak_gewicht(inschatting_uren numeric, grootte_uren numeric) returns numeric
language sql immutable parallel safe as $$
  select case when inschatting_uren > 0 then inschatting_uren else coalesce(grootte_uren, 2) end
$$;

-- A task stand's read-side name (open, bezig, wacht op feedback, klaar, vervallen) and the
-- hours of a size, from app.keuzes (lists taak_stand and grootte) as constant functions: a CASE
-- that is inlined, so a definition needs no join per list and no look-up per row. Made again
-- whenever the reference data changes (db/ is applied again then).
select app_hidden.constanten_maken('app_hidden.stand_naam', '_stand', 'text',
  (select jsonb_object_agg(k.waarde, k.betekenis) from app.keuzes k where k.lijst = 'taak_stand'));
select app_hidden.constanten_maken('app_hidden.grootte_uren', '_grootte', 'numeric',
  (select jsonb_object_agg(k.waarde, k.betekenis) from app.keuzes k where k.lijst = 'grootte'));

-- A task stand as the read side names it: the stand itself when it has no name.
create function app_hidden.stand_lezen(stand text) returns text
language sql immutable parallel safe as $$
  select coalesce(app_hidden.stand_naam(stand), stand)
$$;

-- Priorities -------------------------------------------------------------------------------

-- Progress of one key result: from its start value to its target, in [0, 1].
create function app_hidden.kernresultaat_voortgang(startwaarde numeric, doelwaarde numeric, huidige_waarde numeric)
returns numeric language sql immutable parallel safe as $$
  select greatest(0, least(1, (huidige_waarde - startwaarde) / nullif(doelwaarde - startwaarde, 0)))
$$;

-- Stand of a priority, first rule that holds: completed (op koers), not begun (nog niet
-- gestart), past its deadline short of 100% (loopt achter, also with nothing to measure),
-- nothing to measure (geen taken), then progress against the elapsed share. Progress and
-- elapsed share in [0, 1]; telt: there is something to measure (a task that counts, a key
-- result).
create function app_hidden.prioriteit_stand(afgerond boolean, begonnen boolean, verstreken numeric,
                                            voortgang numeric, telt boolean) returns text
language sql immutable parallel safe as $$
  select case
    when afgerond then 'op koers'
    when not begonnen then 'nog niet gestart'
    when verstreken >= 1 and voortgang < 1 then 'loopt achter'
    when not telt then 'geen taken'
    when voortgang >= verstreken then 'op koers'
    when voortgang >= 0.8 * verstreken then 'aandacht nodig'
    else 'loopt achter' end
$$;

-- KPIs -------------------------------------------------------------------------------------

-- Traffic light of a value against a line: op koers at or beyond the line, attentie from 80%
-- of it, achter below. lager_is_beter mirrors the comparison.
create function app_hidden.stoplicht(waarde numeric, lijn numeric, lager_is_beter boolean) returns text
language sql immutable parallel safe as $$
  select case
    when waarde is null or lijn is null then null
    when not lager_is_beter and waarde >= lijn then 'op koers'
    when not lager_is_beter and waarde >= 0.8 * lijn then 'attentie'
    when not lager_is_beter then 'achter'
    when waarde <= lijn then 'op koers'
    when 0.8 * waarde <= lijn then 'attentie'
    else 'achter' end
$$;

-- A KPI in one quarter. teller: the sum of the quarter's measurements (huidige_stand) against
-- the quarter target pro rata the elapsed share (aandeel) of the quarter, reached when the sum
-- meets the target (lager_is_beter: when the quarter is over and the sum stayed within it).
-- stand: the latest measurement against the target, never "reached".
create function app_hidden.kpi_lijn(meetsoort text, kwartaaldoel numeric, aandeel numeric) returns numeric
language sql immutable parallel safe as $$
  select case when meetsoort = 'teller' then kwartaaldoel * aandeel else kwartaaldoel end
$$;

create function app_hidden.kpi_bereikt(meetsoort text, lager_is_beter boolean, kwartaaldoel numeric,
                                       huidige_stand numeric, aandeel numeric) returns boolean
language sql immutable parallel safe as $$
  select case when meetsoort <> 'teller' or kwartaaldoel is null or huidige_stand is null then false
              when lager_is_beter then aandeel >= 1 and huidige_stand <= kwartaaldoel
              else huidige_stand >= kwartaaldoel end
$$;

create function app_hidden.kpi_stoplicht(meetsoort text, lager_is_beter boolean, kwartaaldoel numeric,
                                         huidige_stand numeric, aandeel numeric) returns text
language sql immutable parallel safe as $$
  select case when app_hidden.kpi_bereikt(meetsoort, lager_is_beter, kwartaaldoel, huidige_stand, aandeel)
              then 'op koers'
              else app_hidden.stoplicht(huidige_stand, app_hidden.kpi_lijn(meetsoort, kwartaaldoel, aandeel),
                                        lager_is_beter) end
$$;
