-- DROP ... CASCADE's notice with its DETAIL list (sql/notices.ts), as psql prints PostgreSQL 15's: views over views,
-- foreign keys, columns of an enum and of its array type, sequence defaults, ALTER TABLE DROP COLUMN, DROP VIEW.
-- Run by test/gateway/drop-cascade.test.ts; .out and .err are PostgreSQL 15's.
create table dcx_t (a int primary key, b int);
create view dcx_v1 as select a from dcx_t;
create view dcx_v2 as select a from dcx_v1;
create view dcx_v0 as select b from dcx_t;
create table dcx_c (x int references dcx_t(a));
drop table dcx_t cascade;
drop table dcx_c;
create table dcx_t (a int primary key, b int);
create view dcx_v1 as select a, b from dcx_t;
create view dcx_v2 as select b from dcx_t;
alter table dcx_t drop column b cascade;
drop table dcx_t cascade;
create type dcx_m as enum ('a');
create table dcx_e (x dcx_m, z dcx_m);
create table dcx_f (w dcx_m[]);
drop type dcx_m cascade;
drop table dcx_e; drop table dcx_f;
create sequence dcx_s;
create table dcx_q (a int default nextval('dcx_s'), b int default nextval('dcx_s'));
drop sequence dcx_s cascade;
drop table dcx_q;
create table dcx_t (a int primary key, b int);
create view dcx_v1 as select a, b from dcx_t;
drop view dcx_v1 cascade;
create view dcx_v1 as select a, b from dcx_t;
create view dcx_v2 as select b from dcx_v1;
create view dcx_v3 as select b from dcx_v1;
drop view dcx_v1 cascade;
create table dcx_c (x int references dcx_t(a));
create table dcx_c2 (x int references dcx_t(a));
drop table dcx_t cascade;
drop table dcx_c, dcx_c2;
