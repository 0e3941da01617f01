-- CHECK and FOREIGN KEY constraints in the system catalog (constraints-catalog.test.ts): pg_constraint's
-- rows, conkey/confkey, pg_get_constraintdef pretty and not, information_schema.check_constraints, and
-- the constraint queries TypeORM's and SQLAlchemy's PostgreSQL dialects send.
create table parent (id int primary key, code text unique, a int, b int, unique (a, b));
create table child (id int primary key, pid int references parent on delete cascade, pa int, pb int, qty int check (qty > 0),
  "Label" varchar(10) check (length("Label") > 0), kind text, price numeric check (price >= -1000),
  constraint kind_known check (kind in ('a', 'b') or kind is null), check (qty between 1 and 100 and pid is not null),
  foreign key (pa, pb) references parent (a, b) match full on update set null on delete restrict);
alter table child add constraint later check (qty <> 13) not valid;
select c.conname, c.contype, c.convalidated, c.conkey, c.confkey, c.confupdtype, c.confdeltype, c.confmatchtype, i.relname as index, f.relname as references,
  pg_get_constraintdef(c.oid), pg_get_constraintdef(c.oid, true), pg_get_expr(c.conbin, c.conrelid)
  from pg_constraint c join pg_class t on t.oid = c.conrelid left join pg_class i on i.oid = c.conindid left join pg_class f on f.oid = c.confrelid
  where t.relname in ('parent', 'child') order by t.relname, c.conname;
select constraint_catalog = current_database() as here, constraint_schema, constraint_name, check_clause from information_schema.check_constraints where constraint_schema = 'public' and constraint_name not like '%not_null' order by constraint_name;
-- columns of each constraint through conkey, as ORMs join them
select c.conname, a.attname from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey) where c.conrelid = 'child'::regclass order by 1, 2;
-- TypeORM (PostgresQueryRunner.loadTables): constraints
SELECT "ns"."nspname" AS "table_schema", "t"."relname" AS "table_name", "cnst"."conname" AS "constraint_name", pg_get_constraintdef("cnst"."oid") AS "expression", CASE "cnst"."contype" WHEN 'p' THEN 'PRIMARY' WHEN 'u' THEN 'UNIQUE' WHEN 'c' THEN 'CHECK' WHEN 'x' THEN 'EXCLUDE' END AS "constraint_type", "a"."attname" AS "column_name" FROM "pg_constraint" "cnst" INNER JOIN "pg_class" "t" ON "t"."oid" = "cnst"."conrelid" INNER JOIN "pg_namespace" "ns" ON "ns"."oid" = "cnst"."connamespace" LEFT JOIN "pg_attribute" "a" ON "a"."attrelid" = "cnst"."conrelid" AND "a"."attnum" = ANY ("cnst"."conkey") WHERE "t"."relkind" IN ('r', 'p') AND (("ns"."nspname" = 'public' AND "t"."relname" = 'parent') OR ("ns"."nspname" = 'public' AND "t"."relname" = 'child')) ORDER BY 3, 6;
-- SQLAlchemy (dialects/postgresql/base.py): get_pk_constraint's name, get_foreign_keys, get_unique_constraints, get_check_constraints
SELECT conname FROM pg_catalog.pg_constraint r WHERE r.conrelid = (select oid from pg_class where relname = 'child') AND r.contype = 'p' ORDER BY 1;
SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true) as condef, n.nspname as conschema FROM pg_catalog.pg_constraint r, pg_namespace n, pg_class c WHERE r.conrelid = (select oid from pg_class where relname = 'child') AND r.contype = 'f' AND c.oid = confrelid AND n.oid = c.relnamespace ORDER BY 1;
SELECT cons.conname as name, cons.conkey as key, a.attnum as col_num, a.attname as col_name FROM pg_catalog.pg_constraint cons join pg_attribute a on cons.conrelid = a.attrelid AND a.attnum = ANY(cons.conkey) WHERE cons.conrelid = (select oid from pg_class where relname = 'parent') AND cons.contype = 'u' ORDER BY 1, 3;
SELECT cons.conname as name, pg_get_constraintdef(cons.oid) as src FROM pg_catalog.pg_constraint cons WHERE cons.conrelid = (select oid from pg_class where relname = 'child') AND cons.contype = 'c' ORDER BY 1;
\d child
\d parent
