/**
 * COPY ... TO STDOUT through the gateway with psql's `\\copy ... to stdout` (client/gateway/copy-out.ts):
 * a table and a parenthesised query, text and CSV formats, HEADER, DELIMITER and NULL options, values
 * that need escaping or quoting (tabs, newlines, backslashes, quotes, delimiters, the empty string,
 * NULL). The expected output is what psql prints against PostgreSQL 15 for the same script (datestyle
 * ISO, extra_float_digits 1), byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

const BIN = '/usr/lib/postgresql/15/bin';

const SCRIPT = String.raw`CREATE TABLE cp (id int primary key, s text, n numeric(6,2), b boolean, d date, ts timestamp, f float8);
INSERT INTO cp VALUES (1, 'plain', 1.5, true, '2024-01-02', '2024-01-02 03:04:05', 0.1), (2, E'tab\there, nl\nand \\ back', NULL, false, NULL, NULL, -1e10), (3, '', -2, NULL, '1999-12-31', '2000-01-01 00:00:00.5', NULL), (4, 'quote " and, comma', 3, true, NULL, NULL, 1.25);
\copy cp to stdout
\copy cp to stdout with (format csv)
\copy cp (id, s) to stdout with (format csv, header)
\copy (select id, s from cp where id > 2 order by id desc) to stdout csv header
\copy cp to stdout with (format text, header, delimiter '|', null 'NULL')
`;

const EXPECTED = String.raw`1	plain	1.50	t	2024-01-02	2024-01-02 03:04:05	0.1
2	tab\there, nl\nand \\ back	\N	f	\N	\N	-10000000000
3		-2.00	\N	1999-12-31	2000-01-01 00:00:00.5	\N
4	quote " and, comma	3.00	t	\N	\N	1.25
1,plain,1.50,t,2024-01-02,2024-01-02 03:04:05,0.1
2,"tab	here, nl
and \ back",,f,,,-10000000000
3,"",-2.00,,1999-12-31,2000-01-01 00:00:00.5,
4,"quote "" and, comma",3.00,t,,,1.25
id,s
1,plain
2,"tab	here, nl
and \ back"
3,""
4,"quote "" and, comma"
id,s
4,"quote "" and, comma"
3,""
id|s|n|b|d|ts|f
1|plain|1.50|t|2024-01-02|2024-01-02 03:04:05|0.1
2|tab\there, nl\nand \\ back|NULL|f|NULL|NULL|-10000000000
3||-2.00|NULL|1999-12-31|2000-01-01 00:00:00.5|NULL
4|quote " and, comma|3.00|t|NULL|NULL|1.25
`;

function psql(port: number, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(BIN, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE, ...args], {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: 60_000,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

void test('psql \\copy ... to stdout prints what it prints against PostgreSQL 15 (text and CSV, table and query)', async () => {
  const gw = await startTestGateway();
  const dir = mkdtempSync(join(tmpdir(), 'pesto-copy-out-'));
  try {
    const path = join(dir, 'copy.sql');
    writeFileSync(path, SCRIPT);
    const r = await psql(gw.port, '-f', path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, EXPECTED);
    // COPY TO a file is the server's file system: refused, and nothing else breaks.
    const file = await psql(gw.port, '-c', "COPY cp TO '/tmp/x'");
    assert.equal(file.code, 1);
    assert.match(file.stderr, /COPY TO a file or program is not supported/);
    // A table qualified with a schema the database lacks is not public's table of that name
    // (sql/qualified-names.ts): 3F000 both ways, and nothing copied into cp.
    const out = await psql(gw.port, '-v', 'VERBOSITY=verbose', '-c', '\\copy nosuch.cp to stdout');
    assert.equal(out.code, 1);
    assert.match(out.stderr, /3F000: schema "nosuch" does not exist/);
    const into = await psql(gw.port, '-v', 'VERBOSITY=verbose', '-c', 'COPY nosuch.cp (id) FROM STDIN');
    assert.equal(into.code, 1);
    assert.match(into.stderr, /3F000: schema "nosuch" does not exist/);
    const count = await psql(gw.port, '-A', '-t', '-c', 'SELECT count(*) FROM cp');
    assert.equal(count.stdout.trim(), '4');
  } finally {
    await gw.close();
  }
});
