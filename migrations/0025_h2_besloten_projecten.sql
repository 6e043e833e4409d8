-- Up Migration
-- Which private projects are hidden from the caller (app_hidden.verborgen_projecten) is asked
-- once in every query that reads tasks or projects under the doors' policies, several times per
-- read. It read every project of the organisation to find the private ones; with this index it
-- reads only those (a handful), and then probes each as before.
create index projecten_besloten on app.projecten (org_id) include (eigenaar_user_id) where besloten;

-- Down Migration
drop index app.projecten_besloten;
