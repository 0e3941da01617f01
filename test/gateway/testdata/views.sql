-- Views through psql: \dv, \d, \d view, \d+ view (its definition), the catalog tables that list views, COPY.
CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, city varchar(20));
CREATE TABLE orders (id int PRIMARY KEY, customer_id int, amount numeric(10,2));
-- As pg_dump writes it, so pg_get_viewdef reads back PostgreSQL's own text.
CREATE VIEW big_orders AS
 SELECT o.id,
    c.name,
    o.amount
   FROM (orders o
     JOIN customers c ON ((c.id = o.customer_id)))
  WHERE (o.amount > (100)::numeric);
CREATE VIEW cities (city, n) AS
 SELECT customers.city,
    count(*) AS n
   FROM customers
  GROUP BY customers.city;
CREATE VIEW named AS
 SELECT customers.id,
    upper(customers.name) AS shout,
    customers.name
   FROM customers
  WHERE (customers.city IS NOT NULL);
INSERT INTO customers VALUES (1, 'ann', 'oslo'), (2, 'bob', 'rome');
INSERT INTO orders VALUES (10, 1, 50), (11, 1, 250), (12, 2, 120.5);
SELECT * FROM big_orders ORDER BY id;
SELECT * FROM cities ORDER BY city;
\dv
\dv big*
\d big_orders
\d+ cities
\d cities
select table_name, table_type, is_insertable_into from information_schema.tables where table_schema = 'public' and table_name in ('big_orders', 'cities', 'customers', 'named', 'orders') order by table_name;
select table_name, view_definition, check_option, is_updatable, is_insertable_into from information_schema.views where table_schema = 'public' order by table_name;
select table_name, column_name, ordinal_position, data_type, is_nullable, character_maximum_length, numeric_precision, numeric_scale from information_schema.columns where table_name in ('big_orders', 'cities', 'named') order by table_name, ordinal_position;
select column_name, is_updatable from information_schema.columns where table_name = 'named' order by ordinal_position;
UPDATE named SET name = 'anna' WHERE id = 1 RETURNING *;
select schemaname, viewname, viewowner, definition from pg_views where schemaname = 'public' order by viewname;
select relname, relkind, relnatts from pg_class where relname in ('big_orders', 'cities', 'orders') order by relname;
select a.attname, a.attnum, a.attnotnull, t.typname from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_type t on t.oid = a.atttypid where c.relname = 'big_orders' and a.attnum > 0 order by a.attnum;
select pg_get_viewdef('cities'::regclass);
select pg_get_viewdef('cities'::regclass, true) = pg_get_viewdef('cities'::regclass);
COPY big_orders TO STDOUT;
COPY (SELECT * FROM big_orders ORDER BY id) TO STDOUT;
ALTER VIEW cities RENAME TO towns;
\dv
DROP TABLE customers;
DROP TABLE towns;
DROP VIEW big_orders, towns, named;
DROP TABLE customers, orders;
\dv
