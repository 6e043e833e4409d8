-- The dispatcher of api.aanroep (db/050_call.sql) with a branch per registered operation
-- (app.operaties, written before db/ is applied) whose function exists, now that every file
-- before this one has made them.
do $do$
declare takken text;
begin
  select string_agg(format('when %L then api.%I(p)', o.naam, o.naam), ' ' order by o.naam)
    into takken from app.operaties o where to_regproc('api.' || quote_ident(o.naam)) is not null;
  execute format($f$
    create or replace function app_hidden.uitvoeren(_operatie text, p jsonb) returns jsonb
    language sql volatile as
    $b$ select case _operatie %s else app_hidden.onbekende_operatie(_operatie) end $b$
  $f$, coalesce(takken, 'when null then null'));
end
$do$;
