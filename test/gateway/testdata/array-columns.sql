CREATE TABLE ac_gw (id int primary key, tags text[], v varchar(3)[] NOT NULL DEFAULT '{}', m numeric(5,2)[], c char(2)[], d int[] DEFAULT '{1,2}'::int[], ts timestamp(3)[], b bool[]);
\d ac_gw
SELECT column_name, data_type, udt_name, character_maximum_length, character_octet_length, numeric_precision, column_default, is_nullable FROM information_schema.columns WHERE table_name = 'ac_gw' ORDER BY ordinal_position;
SELECT attname, atttypid, atttypmod, attndims, attcollation FROM pg_attribute WHERE attrelid = 'ac_gw'::regclass AND attnum > 0 ORDER BY attnum;
SELECT format_type(1009, -1), format_type(1015, 7), format_type(1231, 327686), format_type(1014, 6), format_type(1115, 3), format_type(1007, NULL);
COPY ac_gw (id, tags, v, m) FROM stdin;
1	{a,b}	{x}	{1.005,NULL}
2	\N	{}	\N
3	{"a b","c\\"d",NULL,""}	{"y z"}	{}
\.
COPY ac_gw (id, tags, c, b, ts) FROM stdin WITH (FORMAT csv);
4,"{""a b"",c}",{q},"{t,f,NULL}","{""2024-01-02 03:04:05.12345""}"
5,{},,,
\.
SELECT id, tags, v, m, c, d, b, ts FROM ac_gw ORDER BY id;
\copy ac_gw (id, tags, v, m, c, b) to stdout
\copy ac_gw (id, tags, m, ts) to stdout with (format csv, header)
\copy (SELECT id, tags || 'z'::text FROM ac_gw WHERE tags @> '{c}') to stdout
\copy ac_gw to 'ac.bin' with (format binary)
CREATE TABLE ac_gw2 (id int primary key, tags text[], v varchar(3)[] NOT NULL DEFAULT '{}', m numeric(5,2)[], c char(2)[], d int[], ts timestamp(3)[], b bool[]);
\copy ac_gw2 from 'ac.bin' with (format binary)
SELECT id, tags, v, m, c, d, b, ts FROM ac_gw2 ORDER BY id;
\copy ac_gw2 (tags, v) to 'ac2.bin' with (format binary)
CREATE TABLE ac_gw3 (tags int[], v text[]);
\copy ac_gw3 from 'ac2.bin' with (format binary)
COPY ac_gw (id, tags) FROM stdin;
9	{a
\.
COPY ac_gw (id, v) FROM stdin WITH (FORMAT csv);
9,"{""a b""}"
\.
SELECT count(*) FROM ac_gw;
CREATE TABLE ac_dflt (a text[] DEFAULT ARRAY['a','b'], b numeric(5,2)[] DEFAULT ARRAY[1.5], c int[] DEFAULT ARRAY[1,NULL], d varchar(3)[] DEFAULT ARRAY['x'], e int[] DEFAULT ARRAY[]::int[], f bool[] DEFAULT ARRAY[true], g int[] DEFAULT '{1,2}'::int[], h text[] DEFAULT '{}');
\d ac_dflt
SELECT column_name, column_default FROM information_schema.columns WHERE table_name = 'ac_dflt' ORDER BY ordinal_position;
