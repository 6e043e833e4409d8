// The bare route's queries: the same data as the door's operations answer, written as one plain
// query each with the organisation as a parameter, for a superuser connection (no RLS), without
// key check, conditions, input check or call log. The harness checks that each answers what the
// door answers before it measures, so the comparison is between equal work.
//
// Parameters: $1 org_id, then per query as noted.

const person = (org: string, user: string) => `(select jsonb_build_object('user_id', a.id, 'naam', a.naam)
  from app.accounts a join app.lidmaatschappen l on l.user_id = a.id and l.org_id = ${org} where a.id = ${user})`;

const teamField = (org: string, team: string) => `case when exists (select 1 from app.teams t where t.org_id = ${org})
  then jsonb_build_object('team', (select jsonb_build_object('id', t.id, 'naam', t.naam) from app.teams t
                                   where t.org_id = ${org} and t.id = ${team})) else '{}' end`;

/** $2 user_id, $3 key id. */
export const wieBenIk = `
  select jsonb_build_object('organisatie', jsonb_build_object('org_id', o.org_id, 'naam', o.naam),
    'gebruiker', jsonb_build_object('user_id', a.id, 'naam', a.naam, 'rol', l.rol),
    'sleutel_id', $3::uuid, 'door', 'rest')::text as body
  from app.organisaties o join app.lidmaatschappen l on l.org_id = o.org_id and l.user_id = $2::uuid
  join app.accounts a on a.id = l.user_id
  where o.org_id = $1::uuid`;

export const team = `
  with org as (
    select $1::uuid as id, exists (select 1 from app.teams t where t.org_id = $1::uuid) as heeft_teams
  ),
  leden as (
    select l.user_id, a.naam, l.rol, l.functietitel, t.id as team_id, t.naam as team_naam
    from org join app.lidmaatschappen l on l.org_id = org.id and l.actief
    join app.accounts a on a.id = l.user_id
    left join app.teams t on t.org_id = l.org_id and t.id = l.team_id
  ),
  rollen as (
    select r.proces_id, r.id, r.naam, r.user_id, pr.naam as proces_naam
    from org join app.rollen r on r.org_id = org.id
    join app.processen pr on pr.org_id = r.org_id and pr.id = r.proces_id
  )
  select (jsonb_build_object(
    'leden', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', l.user_id, 'naam', l.naam, 'rol', l.rol, 'functietitel', l.functietitel)
                       || case when org.heeft_teams then jsonb_build_object('team',
                            case when l.team_id is null then null else jsonb_build_object('id', l.team_id, 'naam', l.team_naam) end)
                          else '{}' end
                       order by l.naam, l.user_id)
      from leden l), '[]'),
    'processen', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', pr.id, 'naam', pr.naam,
        'eindverantwoordelijke', ${person("org.id", "pr.eindverantwoordelijke_user_id")},
        'rollen', coalesce((select jsonb_agg(jsonb_build_object('id', r.id, 'naam', r.naam, 'wie', ${person("org.id", "r.user_id")})
                            order by r.naam, r.id)
                            from rollen r where r.proces_id = pr.id), '[]'))
        order by pr.volgorde, pr.naam, pr.id)
      from app.processen pr where pr.org_id = org.id), '[]'),
    'open_rollen', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'naam', r.naam, 'proces', r.proces_naam) order by r.proces_naam, r.naam, r.id)
      from rollen r where r.user_id is null), '[]'),
    'zonder_rol', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', l.user_id, 'naam', l.naam) order by l.naam, l.user_id)
      from leden l
      where not exists (select 1 from rollen r where r.user_id = l.user_id)
        and not exists (select 1 from app.processen pr where pr.org_id = org.id and pr.eindverantwoordelijke_user_id = l.user_id)), '[]'))
    || case when org.heeft_teams then jsonb_build_object('teams', (
         select jsonb_agg(jsonb_build_object('id', t.id, 'naam', t.naam, 'leider', ${person("t.org_id", "t.leider_user_id")})
                          order by t.naam, t.id)
         from app.teams t where t.org_id = org.id))
       else '{}' end)::text as body
  from org`;

/** A task as taak_weergave shows it, for the task row `t`. */
const task = `jsonb_build_object(
  'id', t.id, 'nummer', t.nummer, 'omschrijving', t.omschrijving, 'toelichting', t.toelichting,
  'hoort_bij', case
    when t.prioriteit_id is not null then (select jsonb_build_object('soort', 'prioriteit', 'id', p.id, 'titel', p.titel)
                                          from app.prioriteiten p where p.org_id = t.org_id and p.id = t.prioriteit_id)
    when t.project_id is not null then (select jsonb_build_object('soort', 'project', 'id', p.id, 'titel', p.titel)
                                        from app.projecten p where p.org_id = t.org_id and p.id = t.project_id)
    else jsonb_build_object('soort', 'los') end,
  'eigenaar', ${person("t.org_id", "t.eigenaar_user_id")},
  'aangemaakt_door', ${person("t.org_id", "t.aangemaakt_door")},
  'stand', coalesce((select k.betekenis from app.keuzes k where k.lijst = 'taak_stand' and k.waarde = t.stand), t.stand),
  'deadline', t.deadline, 'week', t.week, 'urgentie', t.urgentie,
  'tags', coalesce((select jsonb_agg(g.naam order by lower(g.naam)) from app.taak_tags tt
                    join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
                    where tt.org_id = t.org_id and tt.taak_id = t.id), '[]'),
  'brand_label', (select b.naam from app.brand_labels b where b.org_id = t.org_id and b.id = coalesce(t.brand_label_id,
                    (select p.brand_label_id from app.prioriteiten p where p.org_id = t.org_id and p.id = t.prioriteit_id),
                    (select p.brand_label_id from app.projecten p where p.org_id = t.org_id and p.id = t.project_id))),
  'grootte', t.grootte,
  'inschatting_uren', case when t.inschatting_uren is not null or t.grootte is not null then
    case when t.inschatting_uren > 0 then t.inschatting_uren
         else coalesce((select k.betekenis::numeric from app.keuzes k where k.lijst = 'grootte' and k.waarde = t.grootte), 2) end end,
  'besteed_uren', (select coalesce(sum(u.uren), 0) from app.uren u where u.org_id = t.org_id and u.taak_id = t.id),
  'herhalen', t.herhalen,
  'onder_taak_nummer', (select o.nummer from app.taken o where o.org_id = t.org_id and o.id = t.ouder_id),
  'subtaken', (select count(*) from app.taken s where s.org_id = t.org_id and s.ouder_id = t.id))`;

/** $2 task number. */
export const takenNummer = `
  select jsonb_build_object('taken', jsonb_build_array(${task}), 'afgekapt', false)::text as body
  from app.taken t where t.org_id = $1::uuid and t.nummer = $2::int and t.verwijderd_op is null`;

/** $2 owner: the open tasks of one owner, at most 200. */
export const takenEigenaar = `
  with x as (
    select t.* from app.taken t
    where t.org_id = $1::uuid and t.verwijderd_op is null and t.stand not in ('voltooid', 'vervallen')
      and t.eigenaar_user_id = $2::uuid
    order by t.deadline nulls last, t.nummer limit 201)
  select jsonb_build_object(
    'taken', coalesce((select jsonb_agg(${task} order by t.deadline nulls last, t.nummer)
                       from (select * from x order by deadline nulls last, nummer limit 200) t), '[]'),
    'afgekapt', (select count(*) from x) > 200)::text as body`;

/** The open tasks of the organisation, at most 200 (a list with afgekapt). */
export const takenLijst = `
  with x as (
    select t.* from app.taken t
    where t.org_id = $1::uuid and t.verwijderd_op is null and t.stand not in ('voltooid', 'vervallen')
    order by t.deadline nulls last, t.nummer limit 201)
  select jsonb_build_object(
    'taken', coalesce((select jsonb_agg(${task} order by t.deadline nulls last, t.nummer)
                       from (select * from x order by deadline nulls last, nummer limit 200) t), '[]'),
    'afgekapt', (select count(*) from x) > 200)::text as body`;

/** Elapsed share of start .. end (whole days in time zone tz) as of now, as app_hidden.verstreken counts it. */
const elapsed = (start: string, end: string, tz: string) => `greatest(0, least(1,
  extract(epoch from (now() at time zone ${tz}) - ${start}::timestamp) / extract(epoch from (${end} + 1)::timestamp - ${start}::timestamp)))`;

/** $2 first day of the quarter. */
export const prioriteiten = `
  with o as (select x.tijdzone as tz from app.organisaties x where x.org_id = $1::uuid),
  p as (
    select x.*, coalesce(x.startdatum, x.kwartaal_start) as begin_dag,
           coalesce(x.deadline, (x.kwartaal_start + interval '3 months' - interval '1 day')::date) as eind_dag
    from app.prioriteiten x where x.org_id = $1::uuid and x.kwartaal_start = $2::date
  ),
  c as (
    select p.*, ${elapsed("p.begin_dag", "p.eind_dag", "o.tz")} as verstreken, o.tz,
           case when p.soort = 'rock' then r.telt else k.telt end as telt,
           case when p.afgerond_op is not null then 1
                when p.soort = 'rock' then case when r.alles_klaar then 1 else coalesce(r.voortgang, 0) end
                else coalesce(k.voortgang, 0) end as voortgang
    from p cross join o
    left join lateral (
      select count(*) > 0 as telt, bool_and(t.stand = 'voltooid') as alles_klaar,
             sum(w.g) filter (where t.stand = 'voltooid') / nullif(sum(w.g), 0) as voortgang
      from app.taken t, lateral (select case when t.inschatting_uren > 0 then t.inschatting_uren
             else coalesce((select kz.betekenis::numeric from app.keuzes kz where kz.lijst = 'grootte' and kz.waarde = t.grootte), 2) end as g) w
      where t.org_id = p.org_id and t.prioriteit_id = p.id and t.ouder_id is null and t.stand <> 'vervallen' and t.verwijderd_op is null
    ) r on p.soort = 'rock'
    left join lateral (
      select count(*) > 0 as telt, avg(greatest(0, least(1, (k.huidige_waarde - k.startwaarde) / (k.doelwaarde - k.startwaarde)))) as voortgang
      from app.kernresultaten k where k.org_id = p.org_id and k.prioriteit_id = p.id
    ) k on p.soort = 'okr'
  ),
  w as (
    select jsonb_build_object(
      'id', c.id, 'titel', c.titel, 'soort', c.soort, 'omschrijving', c.omschrijving,
      'eigenaar', ${person("c.org_id", "c.eigenaar_user_id")},
      'kwartaal', format('Q%s-%s', extract(quarter from c.kwartaal_start), extract(year from c.kwartaal_start)),
      'startdatum', c.begin_dag, 'deadline', c.eind_dag,
      'voortgang', round(c.voortgang * 100, 1), 'verstreken', round(c.verstreken * 100, 1),
      'stand', case when c.afgerond_op is not null then 'op koers'
                    when (now() at time zone c.tz) < c.begin_dag::timestamp then 'nog niet gestart'
                    when c.verstreken >= 1 and c.voortgang < 1 then 'loopt achter'
                    when not c.telt then 'geen taken'
                    when c.voortgang >= c.verstreken then 'op koers'
                    when c.voortgang >= 0.8 * c.verstreken then 'aandacht nodig'
                    else 'loopt achter' end,
      'afgerond', c.afgerond_op is not null) || ${teamField("c.org_id", "c.team_id")} as w
    from c
  )
  select jsonb_build_object('kwartaal', format('Q%s-%s', extract(quarter from $2::date), extract(year from $2::date)),
    'prioriteiten', coalesce((select jsonb_agg(w.w order by w.w ->> 'deadline', w.w #>> '{eigenaar,naam}', w.w ->> 'titel') from w), '[]'))::text as body`;

/** $2 first day of the quarter. */
export const kpiScorebord = `
  with o as (select x.tijdzone as tz from app.organisaties x where x.org_id = $1::uuid),
  k as (
    select k.*, d.doel as kwartaaldoel,
           ${elapsed("$2::date", "($2::date + interval '3 months' - interval '1 day')::date", "o.tz")} as aandeel
    from app.kpis k cross join o
    left join app.kpi_kwartaaldoelen d on d.org_id = k.org_id and d.kpi_id = k.id and d.kwartaal_start = $2::date
    where k.org_id = $1::uuid and k.actief
  ),
  m as (
    select k.*, s.som, s.laatste, l.waarde as laatste_waarde, l.periode as laatste_periode_stand
    from k
    left join lateral (
      select sum(m.waarde) as som, max(m.periode) as laatste from app.kpi_metingen m
      where m.org_id = k.org_id and m.kpi_id = k.id
        and date_trunc('quarter', case when k.cadans = 'week' then m.periode_start + 3 else m.periode_start end)::date = $2::date
    ) s on k.meetsoort = 'teller'
    left join lateral (
      select m.waarde, m.periode from app.kpi_metingen m
      where m.org_id = k.org_id and m.kpi_id = k.id
        and date_trunc('quarter', case when k.cadans = 'week' then m.periode_start + 3 else m.periode_start end)::date = $2::date
      order by m.periode_start desc limit 1
    ) l on k.meetsoort = 'stand'
  ),
  c as (
    select m.*,
           case when m.meetsoort = 'teller' then m.som else m.laatste_waarde end as huidige_stand,
           case when m.meetsoort = 'teller' then m.kwartaaldoel * m.aandeel else m.kwartaaldoel end as lijn,
           case when m.meetsoort = 'teller' then m.laatste else m.laatste_periode_stand end as laatste_periode,
           case when m.meetsoort <> 'teller' or m.kwartaaldoel is null or m.som is null then false
                when m.lager_is_beter then m.aandeel >= 1 and m.som <= m.kwartaaldoel
                else m.som >= m.kwartaaldoel end as bereikt
    from m
  )
  select jsonb_build_object('kwartaal', format('Q%s-%s', extract(quarter from $2::date), extract(year from $2::date)),
    'kpis', coalesce((select jsonb_agg(jsonb_build_object(
      'id', c.id, 'naam', c.naam, 'eenheid', c.eenheid,
      'eigenaar', ${person("c.org_id", "c.eigenaar_user_id")},
      'meetsoort', c.meetsoort, 'cadans', c.cadans, 'lager_is_beter', c.lager_is_beter,
      'kwartaaldoel', c.kwartaaldoel, 'huidige_stand', c.huidige_stand, 'lijn', round(c.lijn, 2),
      'stoplicht', case when c.bereikt then 'op koers'
        when c.huidige_stand is null or c.lijn is null then null
        when not c.lager_is_beter and c.huidige_stand >= c.lijn then 'op koers'
        when not c.lager_is_beter and c.huidige_stand >= 0.8 * c.lijn then 'attentie'
        when not c.lager_is_beter then 'achter'
        when c.huidige_stand <= c.lijn then 'op koers'
        when 0.8 * c.huidige_stand <= c.lijn then 'attentie'
        else 'achter' end,
      'bereikt', c.bereikt, 'laatste_periode', c.laatste_periode) || ${teamField("c.org_id", "c.team_id")}
      order by c.naam, c.id) from c), '[]'))::text as body`;
