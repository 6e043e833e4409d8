-- The dispatcher of api.aanroep (db/050_call.sql) and the operations' facts, made once every file before this one has made
-- the operations' functions: a balanced tree of comparisons over the registered operations
-- (app.operaties, written before db/ is applied) whose function exists, so a call reaches its
-- operation after about five comparisons, each a plain expression, and calls it with a cached
-- plan. (A CASE over every operation sets every branch up anew in each transaction, with a
-- permission check of each function it names.)
do $do$
declare
  namen text[];
  boom text;
begin
  select array_agg(o.naam order by o.naam) into namen
  from app.operaties o where to_regproc('api.' || quote_ident(o.naam)) is not null;
  boom := app_hidden.uitvoeren_boom(coalesce(namen, '{}'), 1, coalesce(cardinality(namen), 0), '      ');
  execute format($f$
    create or replace function app_hidden.uitvoeren(_operatie text, p jsonb) returns jsonb
    language plpgsql volatile set search_path = '' as $b$
    begin
%s
      return app_hidden.onbekende_operatie(_operatie);
    end
    $b$
  $f$, boom);
end
$do$;
drop function app_hidden.uitvoeren_boom(text[], integer, integer, text);

-- The operations a call may ask for: those whose function exists (db/030_caller.sql).
select app_hidden.operaties_maken(true);
