create type ps_mood as enum ('sad', 'ok', 'happy');
create table ps_person (id int primary key, name text, m ps_mood not null default 'ok');
insert into ps_person values (1, 'a', 'happy'), (2, 'b', 'sad');
alter type ps_mood add value 'meh' before 'ok';
\dT ps_*
\dT+ ps_mood
\d ps_person
select enumsortorder, enumlabel from pg_enum where enumtypid = 'ps_mood'::regtype order by enumsortorder;
select t.typname, t.typtype, t.typcategory, t.typlen, a.typname as array_type, a.typelem = t.oid as elem_ok from pg_type t join pg_type a on a.oid = t.typarray where t.typname = 'ps_mood';
select format_type('ps_mood'::regtype, null) as t1, format_type('_ps_mood'::regtype, -1) as t2, 'ps_mood'::regtype::text as t3;
select a.attname, format_type(a.atttypid, a.atttypmod) from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relname = 'ps_person' and a.attnum > 0 order by a.attnum;
select column_name, data_type, udt_schema, udt_name from information_schema.columns where table_name = 'ps_person' order by ordinal_position;
select * from ps_person order by m;
alter type ps_mood rename to ps_feeling;
\d ps_person
drop type ps_feeling;
drop table ps_person;
drop type ps_feeling;
\dT ps_*
