-- Stored generated columns through psql: \d, \d+, information_schema.columns, pg_attribute, pg_attrdef,
-- COPY FROM and TO (generated columns left out; 42P10 when listed), 428C9 errors with their details.
create table shapes (id int primary key, w int, h numeric(6,1), area numeric generated always as (w * h) stored, label text generated always as (upper(coalesce(name, 'none'))) stored not null, name varchar(10), ok boolean generated always as (w > 0 and h is not null) stored);
create index shapes_area on shapes (area);
\d shapes
\d+ shapes
insert into shapes (id, w, h, name) values (1, 2, 3, 'box'), (2, 4, null, null);
select * from shapes order by id;
insert into shapes (id, w, area) values (3, 1, 1);
update shapes set label = 'x';
update shapes set label = default, w = w + 1 returning id, area, label, ok;
select column_name, column_default, is_nullable, is_generated, generation_expression from information_schema.columns where table_name = 'shapes' order by ordinal_position;
select attname, atthasdef, attgenerated, attnotnull from pg_attribute where attrelid = 'shapes'::regclass and attnum > 0 order by attnum;
select adnum, pg_get_expr(adbin, adrelid) from pg_attrdef where adrelid = 'shapes'::regclass order by adnum;
copy shapes from stdin;
5	6	7.5	five
\.
copy shapes (id, w, name) from stdin;
6	1	six
\.
copy shapes (id, area) from stdin;
\copy (select * from shapes where id >= 5 order by id) to stdout
\copy shapes (id, area) to stdout
alter table shapes alter column area drop expression;
alter table shapes add column twice int generated always as (w * 2) stored;
\d shapes
select id, area, twice from shapes order by id;
alter table shapes drop column w;
alter table shapes alter column ok drop expression;
alter table shapes drop column w cascade;
\d shapes
