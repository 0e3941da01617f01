CREATE TABLE bc (id int PRIMARY KEY, t text, n numeric, d date, b bool, f float8, ts timestamptz, u uuid, y bytea, i8 int8, i2 int2, r float4, v varchar(5), ti timestamp, iv interval);
\copy bc from 'copy-binary.bin' (format binary)
SELECT * FROM bc ORDER BY id;
\copy (SELECT * FROM bc ORDER BY id) to 'out.bin' (format binary)
\copy bc (id, t) to 'two-columns.bin' (format binary)
CREATE TABLE bc2 (id int PRIMARY KEY, t text);
\copy bc2 from 'two-columns.bin' (format binary)
SELECT * FROM bc2 ORDER BY id;
\copy bc from 'bad-sig.bin' (format binary)
\copy bc from 'bad-count.bin' (format binary)
\copy bc from 'truncated.bin' (format binary)
\copy bc from 'after-eof.bin' (format binary)
\copy bc from 'oids.bin' (format binary)
\copy bc from 'crit.bin' (format binary)
\copy bc from 'ext.bin' (format binary)
\copy bc from 'nomarker.bin' (format binary)
\copy bc from 'short.bin' (format binary)
\copy bc from 'badsize.bin' (format binary)
COPY bc FROM STDIN (FORMAT binary, DELIMITER ',');
COPY bc FROM STDIN (FORMAT binary, NULL 'x');
COPY bc FROM STDIN (FORMAT binary, HEADER);
COPY bc FROM STDIN (QUOTE '"');
COPY bc FROM STDIN (ESCAPE '"');
COPY bc TO STDOUT (FORMAT binary, HEADER);
SELECT id FROM bc ORDER BY id;
DROP TABLE bc;
DROP TABLE bc2;
