-- CREATE TABLE AS and SELECT INTO: the new table's columns (names, types, modifiers), its rows, WITH NO
-- DATA, IF NOT EXISTS, column name lists and their errors, a rolled-back transaction, TEMP.
CREATE TABLE ctas_a (id int PRIMARY KEY, v varchar(10), n numeric(6,2), c char(3), at timestamp(0), ok boolean);
INSERT INTO ctas_a VALUES (1, 'x', 1.5, 'ab', '2024-01-02 03:04:05', true), (2, 'y', 2.25, 'cd', NULL, false), (3, 'z', NULL, NULL, '2024-05-06 07:08:09', NULL);
CREATE TABLE ctas_b AS SELECT * FROM ctas_a;
\d ctas_b
SELECT * FROM ctas_b ORDER BY id;
CREATE TABLE ctas_c (k, label) AS SELECT id * 10, v || '!' FROM ctas_a WHERE id > 1;
\d ctas_c
SELECT * FROM ctas_c ORDER BY k;
CREATE TABLE IF NOT EXISTS ctas_c AS SELECT 1;
CREATE TABLE ctas_d AS SELECT * FROM ctas_a WITH NO DATA;
SELECT count(*) FROM ctas_d;
CREATE TABLE "Ctas Sums" AS SELECT ok, count(*) AS n, sum(n) AS total, max(at) AS latest FROM ctas_a GROUP BY ok;
\d "Ctas Sums"
SELECT * FROM "Ctas Sums" ORDER BY ok NULLS LAST;
SELECT id, v INTO ctas_e FROM ctas_a WHERE id = 1;
SELECT * FROM ctas_e;
SELECT 'lit' AS t, 1.5 AS num, 2 AS i INTO TABLE ctas_f;
\d ctas_f
CREATE TABLE ctas_g (x, y, z, w, q, r, s) AS SELECT * FROM ctas_a;
CREATE TABLE ctas_h AS SELECT id, id FROM ctas_a;
CREATE TABLE ctas_i AS SELECT * FROM nosuch;
CREATE TABLE ctas_a AS SELECT 1;
BEGIN;
CREATE TABLE ctas_j AS SELECT * FROM ctas_a;
SELECT count(*) FROM ctas_j;
ROLLBACK;
SELECT * FROM ctas_j;
INSERT INTO ctas_b VALUES (1, 'again', 0, 'zz', NULL, NULL);
SELECT count(*) FROM ctas_b WHERE id = 1;
