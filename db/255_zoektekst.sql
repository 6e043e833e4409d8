-- The searchable text that search (db/260_zoeken.sql) reads, kept by triggers in the
-- transaction of every change: when a row last changed, a task's tag names, an attachment's text
-- in parts, and the job that reads an attachment's file; the grants and policies of the tables
-- this text lives in.

-- When a row last changed (the filters na and voor, and the order without text) ------------

create function app_hidden.tg__bijgewerkt() returns trigger
language plpgsql volatile set search_path = '' as $$
begin
  new.bijgewerkt_op := app_hidden.nu();
  return new;
end
$$;
do $$
declare t text;
begin
  foreach t in array array['app.prioriteiten', 'app.projecten', 'app.kpis', 'app.lidmaatschappen'] loop
    execute format('create trigger _100_bijgewerkt before insert or update on %s '
                   'for each row execute function app_hidden.tg__bijgewerkt()', t);
  end loop;
end
$$;

-- A task's tag names in app.taken.tag_tekst, so they are in its search vector, in lower
-- case in tag_sleutels for the tags filter, and as answers list them in tag_namen (for
-- app_hidden.def_taken) ----------------------------------------------------------------------

create function app_hidden.tag_tekst_bijwerken(_org uuid, _taken uuid[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app.taken t set tag_tekst = x.namen, tag_sleutels = x.sleutels, tag_namen = x.lijst
  from (select i as id, g.namen, g.sleutels, coalesce(g.lijst, '[]') as lijst
        from unnest(_taken) i,
        lateral (select string_agg(n.naam, ' ' order by lower(n.naam)) as namen,
                        array_agg(lower(n.naam) order by lower(n.naam)) as sleutels,
                        jsonb_agg(n.naam order by lower(n.naam)) as lijst
                 from app.taak_tags tt join app.tags n on n.org_id = tt.org_id and n.id = tt.tag_id
                 where tt.org_id = _org and tt.taak_id = i) g) x
  where t.org_id = _org and t.id = x.id and (t.tag_tekst, t.tag_namen) is distinct from (x.namen, x.lijst);
end
$$;

create function app_hidden.tg_taak_tags__tag_tekst() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
declare r record;
begin
  if tg_op = 'INSERT' then
    for r in select n.org_id, array_agg(distinct n.taak_id) as taken from nieuw n group by n.org_id loop
      perform app_hidden.tag_tekst_bijwerken(r.org_id, r.taken);
    end loop;
  else
    for r in select o.org_id, array_agg(distinct o.taak_id) as taken from oud o group by o.org_id loop
      perform app_hidden.tag_tekst_bijwerken(r.org_id, r.taken);
    end loop;
  end if;
  return null;
end
$$;
create trigger _800_tag_tekst_nieuw after insert on app.taak_tags referencing new table as nieuw
  for each statement execute function app_hidden.tg_taak_tags__tag_tekst();
create trigger _800_tag_tekst_weg after delete on app.taak_tags referencing old table as oud
  for each statement execute function app_hidden.tg_taak_tags__tag_tekst();

create function app_hidden.tg_tags__tag_tekst() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform app_hidden.tag_tekst_bijwerken(new.org_id,
    array(select tt.taak_id from app.taak_tags tt where tt.org_id = new.org_id and tt.tag_id = new.id));
  return null;
end
$$;
create trigger _800_tag_tekst after update of naam on app.tags
  for each row execute function app_hidden.tg_tags__tag_tekst();

-- An attachment's text in searchable parts -----------------------------------------------

-- Parts of at most about _max characters: the text's own parts (pages, sheets: separated by
-- form feeds), each cut between words when longer, with its place from _plekken.
create function app_hidden.tekst_delen(_tekst text, _plekken text[], _max integer default 3000)
returns table (nr integer, plek text, tekst text)
language sql immutable parallel safe as $$
  with delen as (
    select d.i, regexp_replace(d.deel, '\s+', ' ', 'g') as deel
    from unnest(string_to_array(_tekst, E'\f')) with ordinality d (deel, i)
  ), woorden as (
    select d.i, w.j, w.woord, sum(length(w.woord) + 1) over (partition by d.i order by w.j) as tot
    from delen d, unnest(string_to_array(trim(d.deel), ' ')) with ordinality w (woord, j)
    where trim(d.deel) <> ''
  ), stukken as (
    select i, (tot - 1) / _max as stuk, string_agg(woord, ' ' order by j) as tekst
    from woorden group by i, (tot - 1) / _max
  )
  select (row_number() over (order by i, stuk))::integer, _plekken[i], s.tekst from stukken s
$$;

create function app_hidden.tg_bijlagen__delen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  delete from app.bijlage_delen d where d.org_id = new.org_id and d.bijlage_id = new.id;
  insert into app.bijlage_delen (org_id, bijlage_id, nr, taak_id, geupload_op, plek, tekst)
  select new.org_id, new.id, x.nr, new.taak_id, new.geupload_op, x.plek, x.tekst
  from app_hidden.tekst_delen(coalesce(new.tekst, ''), new.tekst_plekken) x;
  return null;
end
$$;
create trigger _800_delen after insert or update of tekst, tekst_plekken on app.bijlagen
  for each row execute function app_hidden.tg_bijlagen__delen();

-- Reading a file's text: a job in the transaction that stores the file -------------------------

-- One job per attachment (its job key): storing it again replaces a job still waiting. The job
-- (src/tasks/extract_attachment_text.ts) may run more than once; it writes the same result.
create function app_hidden.tg_bijlage_bestanden__tekst_lezen() returns trigger
language plpgsql volatile security definer set search_path = '' as $$
begin
  update app.bijlagen b set tekst_status = 'wacht', tekst_fout = null
  where b.org_id = new.org_id and b.id = new.bijlage_id;
  perform graphile_worker.add_job('extract_attachment_text',
    json_build_object('org_id', new.org_id, 'bijlage_id', new.bijlage_id),
    job_key => 'extract_attachment_text:' || new.org_id || ':' || new.bijlage_id);
  return null;
end
$$;
create trigger _900_tekst_lezen after insert or update of inhoud on app_private.bijlage_bestanden
  for each row execute function app_hidden.tg_bijlage_bestanden__tekst_lezen();

-- Grants and policies for the new tables ---------------------------------------------------

grant select on app.bijlage_delen to koers_door;
create policy "members see the text of attachments of tasks they see" on app.bijlage_delen
  for select to koers_door
  using (org_id = (select o.org from app_hidden.mijn_org() o)
         and exists (select 1 from app.taken t where t.org_id = bijlage_delen.org_id and t.id = bijlage_delen.taak_id offset 0));
-- app_private.bijlage_bestanden: nothing for the doors (only the fence of 060_policies.sql).
