-- Run against the restored database and against PostgreSQL 15 (pg-dump.test.ts): the same output.
select id, email, name, created_at, vip, balance from customers order by id;
select id, sku, price, attrs, tags, image, added from products order by id;
select id, customer_id, placed, note, token from orders order by id;
select * from order_lines order by order_id, product_id;
select * from audit order by n;
\d customers
\d products
\d orders
\d order_lines
\d audit
\ds
\d customers_id_seq
\d invoice_no
\d products_id_seq
\d audit_n_seq
\dv
\d order_totals
select * from customer_orders order by order_id;
select * from order_totals order by order_id;
\dm
\d product_sales
select * from product_sales order by sku;
select sequence_name, data_type, start_value, increment from information_schema.sequences order by sequence_name;
select pg_get_serial_sequence('customers', 'id'), pg_get_serial_sequence('products', 'id'), pg_get_serial_sequence('audit', 'n');
insert into customers (email, name, created_at) values ('d@x', 'Dee', '2024-05-01 00:00:00+00') returning id, vip, balance;
insert into products (sku, price) values ('S3', 1) returning id;
insert into orders (customer_id, placed) values (3, '2024-05-02 00:00:00') returning id;
insert into audit (what) values ('checked') returning n;
insert into audit (n, what) values (99, 'forced');
select nextval('invoice_no'), currval('invoice_no');
insert into customers (email, name, created_at) values ('a@x', 'dup', '2024-05-03 00:00:00+00');
insert into order_lines values (9, 100, 1);
insert into customers (email, name, created_at, balance) values ('e@x', 'Eve', '2024-05-03 00:00:00+00', -5000);
delete from customers where id = 1;
select count(*) from orders;
select count(*) from order_lines;
select * from order_totals order by order_id;
update products set tags = array_append(tags, 'new') where id = 110 returning tags;
\d shapes
select * from shapes order by id;
insert into shapes (id, w, h) values (3, 5, 5) returning area, label;
update shapes set h = 10, name = 'bar' where id = 2 returning area, label;
insert into shapes (id, area) values (4, 1);
select column_name, column_default, is_generated, generation_expression from information_schema.columns where table_name = 'shapes' order by ordinal_position;
select attname, atthasdef, attgenerated from pg_attribute where attrelid = 'shapes'::regclass and attnum > 0 order by attnum;
refresh materialized view concurrently product_sales;
select * from product_sales order by sku;
