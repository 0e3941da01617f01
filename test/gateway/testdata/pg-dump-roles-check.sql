SELECT c.relname, c.relkind, pg_catalog.pg_get_userbyid(c.relowner) AS owner, c.relacl FROM pg_catalog.pg_class c WHERE c.relkind IN ('r', 'v', 'S') AND c.relnamespace = 2200 ORDER BY 1;
SELECT tablename, tableowner FROM pg_catalog.pg_tables WHERE schemaname = 'public' ORDER BY 1;
SELECT viewname, viewowner FROM pg_catalog.pg_views WHERE schemaname = 'public' ORDER BY 1;
\dt
\dv
\ds
\dp
\z acc*
\du app*
