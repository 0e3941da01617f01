-- Materialized views as psql shows them (definitions aside: pg_get_viewdef prints the SELECT as written).
CREATE TABLE mvx_sales (id int PRIMARY KEY, region text, amount numeric(10,2));
INSERT INTO mvx_sales VALUES (1, 'north', 10.50), (2, 'south', 20.00), (3, 'north', 5.25);
CREATE MATERIALIZED VIEW mvx_totals AS SELECT region, sum(amount) AS total, count(*) AS n FROM mvx_sales GROUP BY region;
CREATE MATERIALIZED VIEW mvx_later (who) AS SELECT region FROM mvx_sales WITH NO DATA;
CREATE MATERIALIZED VIEW IF NOT EXISTS mvx_totals AS SELECT 1;
CREATE UNIQUE INDEX mvx_totals_region ON mvx_totals (region);
SELECT * FROM mvx_totals ORDER BY region;
SELECT * FROM mvx_later;
\d mvx_totals
\d mvx_later
\dm mvx*
\dtm mvx*
SELECT matviewname, hasindexes, ispopulated FROM pg_matviews ORDER BY 1;
SELECT relname, relkind, relhasindex FROM pg_class WHERE relname LIKE 'mvx%' ORDER BY 1;
SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'mvx%' ORDER BY 1;
SELECT count(*) FROM information_schema.columns WHERE table_name = 'mvx_totals';
SELECT count(*) FROM pg_attribute WHERE attrelid = 'mvx_totals'::regclass AND attnum > 0;
INSERT INTO mvx_sales VALUES (4, 'east', 1.00);
REFRESH MATERIALIZED VIEW CONCURRENTLY mvx_totals;
REFRESH MATERIALIZED VIEW mvx_later;
SELECT * FROM mvx_totals ORDER BY region;
SELECT * FROM mvx_later ORDER BY who;
INSERT INTO mvx_totals VALUES ('west', 1, 1);
COPY mvx_totals TO STDOUT;
COPY (SELECT * FROM mvx_totals ORDER BY region) TO STDOUT;
BEGIN;
DELETE FROM mvx_sales WHERE region = 'north';
REFRESH MATERIALIZED VIEW mvx_totals;
SELECT * FROM mvx_totals ORDER BY region;
ROLLBACK;
SELECT * FROM mvx_totals ORDER BY region;
REFRESH MATERIALIZED VIEW mvx_later WITH NO DATA;
SELECT ispopulated FROM pg_matviews WHERE matviewname = 'mvx_later';
COPY mvx_totals FROM STDIN;
\.
DROP TABLE mvx_sales;
DROP MATERIALIZED VIEW mvx_later;
DROP TABLE mvx_sales CASCADE;
\dm mvx*
