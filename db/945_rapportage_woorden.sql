-- What each column of the rapportage views means: their COMMENTs, which rapportage.woordenboek
-- lists and tools (Metabase, dbt) show. A column takes, in this order: its line below, the
-- comment its definition gives the column, or the meaning of its name (the same everywhere: keys,
-- persons, timestamps). sql-tests/310-warehouse.sql fails for a column left without one.
create function app_hidden.rapportage_kolommen()
returns table (view text, kolom text, betekenis text)
language sql immutable as $$
  select * from (values
    ('team', 'user_id', 'The member''s account: the id every answer names the member by.'),
    ('team', 'rol', 'Role: eigenaar, admin, mt, lid or coach.'),
    ('team', 'functietitel', 'Job title, or null.'),
    ('team', 'actief', 'False once the member has left.'),
    ('team', 'aangemaakt_op', 'When the membership was made.'),
    ('prioriteiten', 'soort', 'rock or okr.'),
    ('prioriteiten', 'kwartaal_start', 'The quarter''s first day.'),
    ('prioriteiten', 'kwartaal', 'The quarter''s label, Q2-2026.'),
    ('prioriteiten', 'startdatum', 'Its own start date, else the quarter''s first day.'),
    ('prioriteiten', 'deadline', 'Its own deadline, else the quarter''s last day.'),
    ('prioriteiten', 'voortgang', 'Progress in percent, one decimal: a rock''s done weight over the weight of its tasks that are not lapsed (directly under it; 100 when all are done); an OKR''s mean key-result progress; 100 when completed. As the API gives it.'),
    ('prioriteiten', 'verstreken', 'Elapsed share of start .. end of deadline day in percent, one decimal, on the organisation''s calendar.'),
    ('prioriteiten', 'stand', 'op koers, aandacht nodig, loopt achter, nog niet gestart or geen taken, as the API judges it now.'),
    ('prioriteiten', 'afgerond', 'Completed.'),
    ('prioriteiten', 'kernresultaten', 'Its key results as rapportage.kernresultaten shows them (id, titel, startwaarde, doelwaarde, huidige_waarde, voortgang), oldest first.'),
    ('kernresultaten', 'prioriteit_id', 'Its OKR (rapportage.prioriteiten).'),
    ('kernresultaten', 'startwaarde', 'Start value.'),
    ('kernresultaten', 'doelwaarde', 'Target value.'),
    ('kernresultaten', 'huidige_waarde', 'Current value.'),
    ('kernresultaten', 'voortgang', 'From start value to target, in [0, 100], one decimal.'),
    ('kpi_scorebord', 'kwartaal_start', 'The quarter''s first day.'),
    ('kpi_scorebord', 'kwartaal', 'The quarter''s label, Q2-2026.'),
    ('kpi_scorebord', 'eenheid', 'Unit of the values.'),
    ('kpi_scorebord', 'meetsoort', 'teller (measurements add up) or stand (the latest counts).'),
    ('kpi_scorebord', 'cadans', 'How often it is measured: week, month or quarter.'),
    ('kpi_scorebord', 'lager_is_beter', 'A lower value is better.'),
    ('kpi_scorebord', 'actief', 'Only active KPIs are on the scoreboard.'),
    ('kpi_scorebord', 'kwartaaldoel', 'The quarter''s target.'),
    ('kpi_scorebord', 'huidige_stand', 'teller: the sum of the quarter''s measurements; stand: the latest one.'),
    ('kpi_scorebord', 'lijn', 'teller: target x elapsed share of the quarter; stand: the target (two decimals).'),
    ('kpi_scorebord', 'stoplicht', 'op koers, attentie or achter (null without target or measurement).'),
    ('kpi_scorebord', 'bereikt', 'teller only: the sum meets the target.'),
    ('kpi_scorebord', 'laatste_periode', 'The latest period measured in the quarter.'),
    ('kpi_metingen', 'kpi_id', 'The KPI (rapportage.kpi_scorebord.id).'),
    ('kpi_metingen', 'periode', 'The period as the KPI''s cadence names it: 2026-W20, 2026-05 or 2026-Q2.'),
    ('kpi_metingen', 'periode_start', 'The period''s first day.'),
    ('kpi_metingen', 'periode_eind', 'The period''s last day.'),
    ('kpi_metingen', 'kwartaal_start', 'The first day of the quarter it counts in (a week counts where its Thursday is).'),
    ('kpi_metingen', 'waarde', 'The measured value.'),
    ('kpi_metingen', 'ingevoerd_op', 'When it was entered.'),
    ('weektaken', 'status', 'The board''s column: nieuw, bezig or klaar.'),
    ('weektaken', 'klaar', 'Done.'),
    ('weektaken', 'rock_id', 'The priority it serves, or null.'),
    ('taken', 'nummer', 'The task''s number within the organisation (#12).'),
    ('taken', 'hoort_bij_soort', 'What it belongs to: prioriteit, project or los.'),
    ('taken', 'hoort_bij_id', 'The priority or project it belongs to (null when los).'),
    ('taken', 'hoort_bij_titel', 'That priority''s or project''s title.'),
    ('taken', 'prioriteit_id', 'Its priority, or null.'),
    ('taken', 'project_id', 'Its project, or null.'),
    ('taken', 'ouder_id', 'The task it is a subtask of, or null.'),
    ('taken', 'stand', 'As the API shows it: open, bezig, wacht op feedback, klaar or vervallen.'),
    ('taken', 'stand_waarde', 'As it is written: open, in_uitvoering, wacht_op_feedback, voltooid or vervallen.'),
    ('taken', 'urgentie', 'laag, normaal or hoog.'),
    ('taken', 'tags', 'Its tag names, ordered ignoring case.'),
    ('taken', 'brand_label', 'Its own brand label, else that of its priority or project.'),
    ('taken', 'grootte', 'klein, middel or groot.'),
    ('taken', 'inschatting_uren', 'The estimate, or the hours of its size; null when neither is given.'),
    ('taken', 'gewicht', 'Its weight in a priority''s progress: estimate above 0, else the size''s hours, else 2.'),
    ('taken', 'besteed_uren', 'Every member''s hours on it.'),
    ('taken', 'herhalen', 'Repeats every dag, week, maand, kwartaal or jaar; null: once.'),
    ('taken', 'onder_taak_nummer', 'The parent''s number, for a subtask.'),
    ('taken', 'subtaken', 'How many subtasks it has.'),
    ('taak_geschiedenis', 'taak_id', 'The task (rapportage.taken).'),
    ('taak_geschiedenis', 'soort', 'What changed: aangemaakt, stand, eigenaar, deadline, week, titel, toelichting, tags, bijlagen, subtaken or verwijderd.'),
    ('taak_geschiedenis', 'tijdstip', 'When: history is append-only, load it incrementally by this column.'),
    ('taak_geschiedenis', 'oud', 'The value before.'),
    ('taak_geschiedenis', 'nieuw', 'The value after.'),
    ('taak_geschiedenis', 'aanroep_id', 'The call that made the change.'),
    ('projecten', 'startdatum', 'Start (the answer''s looptijd.van).'),
    ('projecten', 'deadline', 'End (the answer''s looptijd.tot).'),
    ('projecten', 'besloten', 'Private: only those who work on it see it.'),
    ('projecten', 'open_taken', 'Its tasks not done, lapsed or deleted.'),
    ('projecten', 'uren', 'Every member''s hours on it or on its tasks.'),
    ('projecten', 'lopend', 'Begun, not past its deadline, not finished (organisation''s calendar).'),
    ('reflecties', 'soort', 'maand, kwartaal or jaar.'),
    ('reflecties', 'periode', 'As stored: <yyyy>-<mm>, <yyyy>-Q<n> or <yyyy>.'),
    ('reflecties', 'periode_label', 'As the interface spells it (a quarter as Q<n>-<yyyy>).'),
    ('reflecties', 'goed', 'What went well.'),
    ('reflecties', 'beter', 'What can be better.'),
    ('reflecties', 'geleerd', 'What was learned.'),
    ('reflecties', 'focus', 'Focus for the next period.'),
    ('reflecties', 'energie', 'Energy, 1 to 10, or null.'),
    ('reflecties', 'ingediend', 'Submitted.'),
    ('reflecties', 'ingediend_op', 'When it was submitted, or null.'),
    ('reflecties', 'team_zichtbaar', 'The round of this period is open: every active member whose role has reflections submitted.'),
    ('uren', 'datum', 'The day.'),
    ('uren', 'uren', 'Hours.'),
    ('uren', 'taak_id', 'The task, or null.'),
    ('uren', 'prioriteit_id', 'The priority the hours count for: the task''s, else the hour''s own; null with project_id null is loose.'),
    ('uren', 'project_id', 'The project the hours count for: the task''s, else the hour''s own.'),
    ('waardering', 'periode', 'A year, month or quarter.'),
    ('waardering', 'periode_eind', 'Last day of that period.'),
    ('waardering', 'omzet', 'Revenue, as measured.'),
    ('waardering', 'genormaliseerde_ebitda', 'Normalised EBITDA, as measured.'),
    ('waardering', 'multiple', 'Multiple, as measured.'),
    ('waardering', 'aandelenwaarde', 'Equity value, as measured.'),
    ('waardering', 'gemeten_op', 'When it was measured.'),
    ('gesprekken', 'soort', 'Kind of conversation: planning, voortgang, functionering, beoordeling or exit.'),
    ('gesprekken', 'afgerond', 'Completed.'),
    ('gesprekken', 'eindclassificatie', 'A to D, or null.'),
    ('sessienotities', 'soort', 'strategie, kwartaal, maand, check_in or overig.'),
    ('sessienotities', 'status', 'concept or vastgesteld.'),
    ('sessienotities', 'samenvatting', 'Summary.'),
    ('sessienotities', 'highlights', 'Highlights, a list of texts.'),
    ('sessienotities', 'besluiten', 'Decisions, a list of texts.'),
    ('sessienotities', 'learnings', 'Learnings, a list of texts.'),
    ('sessienotities', 'aangemaakt_op', 'When it was written.'),
    ('sessienotities', 'vastgesteld_op', 'When it was established, or null.')
  ) v (view, kolom, betekenis)
$$;

-- The meaning of a column by its name alone, the same in every view.
create function app_hidden.rapportage_kolom_betekenis(_kolom text, _kolommen text[]) returns text
language sql immutable as $$
  select case
    when _kolom = 'org_id' then 'The organisation.'
    when _kolom = 'id' then 'Stable key of the row within its organisation.'
    when _kolom like '%\_user\_id' then format('%s: the member''s user id (null: nobody).', initcap(replace(left(_kolom, -8), '_', ' ')))
    when _kolom like '%\_naam' and left(_kolom, -5) || '_user_id' = any (_kolommen)
      then format('%s: the member''s name.', initcap(replace(left(_kolom, -5), '_', ' ')))
    when _kolom = any (app_hidden.keuzes('strategie_veld')) then format('The strategy canvas field %s.', _kolom)
    else (select b from (values
      ('naam', 'Name.'), ('titel', 'Title.'), ('omschrijving', 'Description.'), ('toelichting', 'Explanation.'),
      ('deadline', 'Deadline.'), ('team_id', 'Its team, or null.'), ('team_naam', 'Its team''s name, or null.'), ('datum', 'Date.'), ('week', 'ISO week, YYYY-Wnn.'), ('brand_label_id', 'Its brand label, or null.'),
      ('aangemaakt_op', 'When it was made.'), ('afgerond_op', 'When it was completed, or null.'),
      ('verwijderd_op', 'When it was deleted, or null.'),
      ('bijgewerkt_op', 'When it last changed (the start of that transaction): load incrementally by it, with a look-back window.')
    ) x (k, b) where x.k = _kolom)
  end
$$;

do $$
declare k record;
begin
  for k in
    select c.oid::regclass as view, a.attname::text as kolom,
           coalesce(e.betekenis, app_hidden.rapportage_kolom_betekenis(a.attname, array(
             select b.attname::text from pg_attribute b where b.attrelid = c.oid and b.attnum > 0))) as betekenis
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join app_hidden.rapportage_kolommen() e on e.view = c.relname and e.kolom = a.attname
    where c.relnamespace = 'rapportage'::regnamespace and c.relkind = 'v'
      and pg_catalog.col_description(c.oid, a.attnum) is null
  loop
    execute format('comment on column %s.%I is %L', k.view, k.kolom, k.betekenis);
  end loop;
end
$$;
