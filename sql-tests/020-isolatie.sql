-- A member of one organisation can neither read nor change another organisation's rows, in
-- any tenant table, as any role. Both organisations have a row in every tenant table.
begin;
select plan(2 + 5 * 4 * (select count(*)::int from app_hidden.tenant_tabellen) + 5);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset

select isnt(:'alfa'::uuid, :'beta'::uuid, 'two organisations');
-- Every tenant table has rows of Beta, so a leak would show.
create temp table leeg as select 1 as x where false;
do $$
declare t record; n bigint;
begin
  for t in select * from app_hidden.tenant_tabellen loop
    execute format('select count(*) from %s where org_id = $1', t.tabel) into n
      using (select org_id from app.organisaties where naam = 'Beta BV');
    if n = 0 then insert into leeg values (1); raise notice 'no fixture row in %', t.tabel; end if;
  end loop;
end
$$;
select is_empty('select * from leeg', 'every tenant table has a fixture row of the other organisation');

-- For each tenant table, a copy of one of Alfa's rows moved to Beta: what an insert into the
-- other organisation would look like.
create temp table kopie as
  select t.tabel::text as tabel, null::jsonb as rij from app_hidden.tenant_tabellen t where false;
do $$
declare t record; r jsonb;
begin
  for t in select * from app_hidden.tenant_tabellen loop
    execute format('select to_jsonb(x) from %s x where org_id = $1 limit 1', t.tabel) into r
      using (select org_id from app.organisaties where naam = 'Alfa BV');
    insert into kopie values (t.tabel::text, r || jsonb_build_object('org_id', (select org_id from app.organisaties where naam = 'Beta BV')));
  end loop;
end
$$;
grant select on kopie to koers_door;

create function pg_temp.probeer(_sql text, _org uuid) returns text language plpgsql as $$
declare n bigint;
begin
  execute _sql using _org;
  get diagnostics n = row_count;
  return 'rows:' || n;
exception when insufficient_privilege then
  return 'refused';
end
$$;

create temp table uitkomst (rol text, tabel text, soort text, uitkomst text);
grant insert on uitkomst to koers_door;

create function pg_temp.als_rol(_org uuid, _rol text, _ander uuid) returns void language plpgsql as $$
declare t record; n bigint; u text; kolommen text;
begin
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol));
  set local role koers_door;
  for t in select * from app_hidden.tenant_tabellen loop
    begin
      execute format('select count(*) from %s where org_id = $1', t.tabel) into n using _ander;
      u := 'rows:' || n;
    exception when insufficient_privilege then u := 'refused';
    end;
    insert into uitkomst values (_rol, t.tabel::text, 'select', u);
    insert into uitkomst values (_rol, t.tabel::text, 'update',
      pg_temp.probeer(format('update %s set org_id = org_id where org_id = $1', t.tabel), _ander));
    insert into uitkomst values (_rol, t.tabel::text, 'delete',
      pg_temp.probeer(format('delete from %s where org_id = $1', t.tabel), _ander));
    -- Generated columns (search vectors) are computed, never given.
    kolommen := (select string_agg(quote_ident(a.attname), ', ' order by a.attnum) from pg_attribute a
                 where a.attrelid = t.tabel and a.attnum > 0 and not a.attisdropped and a.attgenerated = '');
    begin
      execute format('insert into %s (%s) overriding system value select %s from jsonb_populate_record(null::%s, (select rij from kopie where tabel = %L))',
                     t.tabel, kolommen, kolommen, t.tabel, t.tabel::text);
      u := 'inserted';
    exception when insufficient_privilege then u := 'refused';
              when others then u := 'error ' || sqlstate || ': ' || sqlerrm;
    end;
    insert into uitkomst values (_rol, t.tabel::text, 'insert', u);
  end loop;
  reset role;
end
$$;

select pg_temp.als_rol(:'alfa', r, :'beta') from unnest(app_hidden.keuzes('rol')) r;

select ok(uitkomst in ('rows:0', 'refused'), format('%s cannot %s rows of another organisation in %s (%s)', rol, soort, tabel, uitkomst))
from uitkomst where soort <> 'insert' order by rol, tabel, soort;
select is(uitkomst, 'refused', format('%s cannot insert a row for another organisation into %s', rol, tabel))
from uitkomst where soort = 'insert' order by rol, tabel;

-- The fence is not vacuous: the same members do see their own organisation.
create temp table eigen (rol text, leden bigint);
grant insert on eigen to koers_door;
create function pg_temp.eigen(_org uuid, _rol text) returns void language plpgsql as $$
begin
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol));
  set local role koers_door;
  insert into eigen select _rol, count(*) from app.lidmaatschappen;
  reset role;
end
$$;
select pg_temp.eigen(:'alfa', r) from unnest(app_hidden.keuzes('rol')) r;
select is(leden, 5::bigint, rol || ' sees the five members of their own organisation') from eigen order by rol;

select * from finish();
rollback;
