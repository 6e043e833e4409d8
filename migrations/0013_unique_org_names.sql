-- Up Migration
-- Organisation names are unique per installation, ignoring letter case, so `--org "Acme BV"`
-- always names one organisation. A name that is already taken more than once keeps it for the
-- oldest organisation; the others get a number ("Acme BV (2)"), which `koers org rename` changes.
do $$
declare
  o record;
  n integer;
begin
  for o in
    select x.org_id, x.naam from (
      select org_id, naam, row_number() over (partition by lower(naam) order by aangemaakt_op, org_id) as rang
      from app.organisaties) x
    where x.rang > 1
    order by x.naam, x.rang
  loop
    n := 2;
    while exists (select 1 from app.organisaties where lower(naam) = lower(o.naam || ' (' || n || ')')) loop
      n := n + 1;
    end loop;
    update app.organisaties set naam = o.naam || ' (' || n || ')' where org_id = o.org_id;
  end loop;
end
$$;

create unique index organisaties_naam_uniek on app.organisaties (lower(naam));
