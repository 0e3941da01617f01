CREATE TABLE users (id serial PRIMARY KEY, email varchar(100) NOT NULL UNIQUE, score numeric(8,2) DEFAULT 0 CHECK (score >= 0), created timestamptz DEFAULT now(), note text, born date, flag boolean NOT NULL DEFAULT false, ratio float8, big bigint, code char(3));
-- knex: hasTable, hasColumn
select * from information_schema.tables where table_name = 'users' and table_schema = current_schema();
select * from information_schema.tables where table_name = 'nosuch' and table_schema = current_schema();
select column_name, ordinal_position, column_default, is_nullable, data_type, character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, udt_catalog, udt_schema, udt_name, is_identity, is_generated, is_updatable from information_schema.columns where table_name = 'users' and table_schema = current_schema() order by ordinal_position;
select tablename, schemaname, tableowner, hasrules, hastriggers, rowsecurity from pg_tables where schemaname = 'public' and tablename like 'users%' order by tablename;
select c.relname, c.relkind, c.relnatts, a.attname, a.attnum, a.attnotnull, a.atthasdef, a.atttypmod, t.typname from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid join pg_type t on t.oid = a.atttypid where n.nspname = 'public' and c.relname = 'users' and a.attnum > 0 and not a.attisdropped order by a.attnum;
select relname, relkind from pg_class where relnamespace = (select oid from pg_namespace where nspname = 'public') and relname like 'users%' order by relname;
-- postgres.js on connect: the array types
select b.oid, b.typarray from pg_catalog.pg_type a left join pg_catalog.pg_type b on b.oid = a.typelem where a.typcategory = 'A' and b.typname in ('int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'text', 'varchar', 'bpchar', 'bool', 'date', 'timestamp', 'timestamptz', 'uuid') group by b.oid, b.typarray order by b.oid;
select oid, typname, typlen, typbyval, typtype, typcategory, typdelim, typelem, typarray, typinput, typoutput, typreceive, typsend, typalign, typcollation from pg_type where typname in ('int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'text', 'varchar', 'bpchar', 'bool', 'date', 'timestamp', 'timestamptz', 'uuid', '_int4', '_text') order by oid;
select nspname from pg_namespace where nspname in ('public', 'pg_catalog', 'information_schema') order by nspname;
with t as (select typname from pg_catalog.pg_type where typcategory = 'B') select typname from t;
select * from pg_catalog.pg_enum;
-- constraints (Sequelize's sync, schema tools); PostgreSQL's NOT NULL pseudo-constraints are left out
select constraint_catalog, constraint_schema, constraint_name, table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct from information_schema.table_constraints where table_name = 'users' and constraint_name not like '%not_null' order by constraint_name;
select constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint from information_schema.key_column_usage where table_name = 'users' order by 1, 4;
select tc.constraint_name, tc.constraint_type, ccu.column_name from information_schema.table_constraints tc join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name where tc.table_name = 'users' and tc.constraint_type in ('PRIMARY KEY', 'UNIQUE') order by 1, 3;
select distinct tc.constraint_name from information_schema.table_constraints as tc join information_schema.key_column_usage as kcu on tc.constraint_name = kcu.constraint_name join information_schema.constraint_column_usage as ccu on ccu.constraint_name = tc.constraint_name where constraint_type = 'FOREIGN KEY' and tc.table_name = 'users';
-- does the database exist (tools check before CREATE DATABASE)
select datname, encoding, datlocprovider, datistemplate, datallowconn, datconnlimit, datcollate, datctype from pg_database where datname = current_database();
select 1 from pg_database where datname = 'nosuch';
DROP TABLE users;
