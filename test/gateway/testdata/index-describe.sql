-- psql's \d and \d+ of indexes (client/gateway/psql-describe-index.ts): primary keys, UNIQUE
-- constraints and indexes, expression and partial indexes, names PostgreSQL gives expression columns
-- (a function's name, expr, numbers for names taken), enum and typmod'd columns, a materialized view's
-- index, quoted names. Run by test/gateway/index-describe.test.ts; .out and .err are PostgreSQL 15's.
CREATE TYPE ixd_mood AS ENUM ('sad', 'ok');
CREATE TABLE ixd_t (a int PRIMARY KEY, b text NOT NULL, c numeric(5,2), d text, m ixd_mood, v varchar(10), UNIQUE (v, a));
CREATE UNIQUE INDEX ixd_bc ON ixd_t (b, c);
CREATE INDEX ixd_lower ON ixd_t (lower(d)) WHERE c > 0;
CREATE INDEX ixd_exprs ON ixd_t ((a + 1), lower(b), lower(d), (c * 2), m);
CREATE TABLE "Mixed Case" (k int, j int, PRIMARY KEY (k, j));
CREATE INDEX "Mixed Ix" ON "Mixed Case" (j);
CREATE MATERIALIZED VIEW ixd_mv AS SELECT a, b FROM ixd_t;
CREATE INDEX ixd_mv_b ON ixd_mv (b);
\d ixd_bc
\d ixd_lower
\d ixd_t_pkey
\d ixd_exprs
\d ixd_t_v_a_key
\d+ ixd_bc
\d+ ixd_exprs
\d "Mixed Case_pkey"
\d "Mixed Ix"
\d ixd_mv_b
\d ixd_nosuch
\d ixd_*
\di ixd*
DROP MATERIALIZED VIEW ixd_mv;
DROP TABLE ixd_t;
DROP TABLE "Mixed Case";
DROP TYPE ixd_mood;
