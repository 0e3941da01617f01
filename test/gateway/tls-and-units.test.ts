/**
 * TLS through SSLRequest (a throwaway self-signed certificate made with openssl), the 'N' answer without
 * TLS, and table-driven checks of the pieces with many cases: numeric binary encoding, the COPY text and
 * CSV row parser, and statement splitting and classification.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Numeric } from '../../sql/types.ts';
import { decodeNumeric, encodeNumeric } from '../../client/gateway/value-format.ts';
import { CopyRowParser, type CopySpec } from '../../client/gateway/copy-in.ts';
import { classify, splitStatements } from '../../client/gateway/gateway-command.ts';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

void test('serves TLS after SSLRequest when configured and answers N otherwise', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    '-subj', '/CN=localhost', '-days', '1'], { stdio: 'ignore' });
  const gw = await startTestGateway({ tls: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) } });
  const plain = await startTestGateway();
  try {
    const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE, ssl: { rejectUnauthorized: false } });
    await c.connect();
    const r = await c.query('SELECT 1 AS one');
    assert.deepEqual(r.rows, [{ one: 1 }]);
    await c.end();
    const refused = new pg.Client({ host: '127.0.0.1', port: plain.port, user: USER, password: PASSWORD, database: DATABASE, ssl: { rejectUnauthorized: false } });
    await assert.rejects(refused.connect(), /does not support SSL/);
  } finally {
    await gw.close();
    await plain.close();
  }
});

void test('encodes numerics as PostgreSQL numeric_send does and decodes them back', () => {
  const cases: [string, number[]][] = [
    ['0', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['0.00', [0, 0, 0, 0, 0, 0, 0, 2]],
    ['1', [0, 1, 0, 0, 0, 0, 0, 0, 0, 1]],
    ['10000', [0, 1, 0, 1, 0, 0, 0, 0, 0, 1]],
    ['12.50', [0, 2, 0, 0, 0, 0, 0, 2, 0, 12, 0x13, 0x88]],
    ['-0.001', [0, 1, 0xff, 0xff, 0x40, 0, 0, 3, 0, 10]],
    ['123456789.123', [0, 4, 0, 2, 0, 0, 0, 3, 0, 1, 0x09, 0x29, 0x1a, 0x85, 0x04, 0xce]],
  ];
  for (const [text, bytes] of cases) {
    const n = Numeric.parse(text);
    assert.ok(n !== null);
    assert.deepEqual([...encodeNumeric(n)], bytes, text);
    assert.equal(decodeNumeric(Buffer.from(bytes)).toString(), text);
  }
});

const spec = (over: Partial<CopySpec>): CopySpec => ({
  table: 't', columns: null, format: 'text', delimiter: '\t', nullString: '\\N', header: false, quote: '"', escape: '"', ...over,
});

void test('parses COPY text and CSV rows across arbitrary chunk boundaries', () => {
  const cases: [CopySpec, string, (string | null)[][]][] = [
    [spec({}), 'a\tb\n\\N\t\\t\\101\\x41\n\\.\nignored\n', [['a', 'b'], [null, '\tAA']]],
    [spec({}), 'crlf\tx\r\nlast\tline', [['crlf', 'x'], ['last', 'line']]],
    [spec({ delimiter: '|' }), 'a\\|b|c\n', [['a|b', 'c']]],
    [spec({ format: 'csv', delimiter: ',', nullString: '', header: true }), 'h1,h2\n"a,b",\n"",x\n"line\nbreak","q""q"\n', [['a,b', null], ['', 'x'], ['line\nbreak', 'q"q']]],
    [spec({ format: 'csv', delimiter: ',', nullString: 'NULL' }), 'NULL,"NULL",é\n', [[null, 'NULL', 'é']]],
  ];
  for (const [s, input, expected] of cases) {
    const bytes = Buffer.from(input);
    for (const step of [1, 3, bytes.length]) {
      const p = new CopyRowParser(s);
      const rows: (string | null)[][] = [];
      for (let i = 0; i < bytes.length; i += step) rows.push(...p.push(bytes.subarray(i, i + step)));
      rows.push(...p.end());
      assert.deepEqual(rows, expected, `${JSON.stringify(input)} in chunks of ${step}`);
    }
  }
});

void test('splits multi-statement strings and recognises the statements the gateway answers itself', () => {
  assert.deepEqual(splitStatements('  ;; '), []);
  assert.deepEqual(splitStatements('SELECT 1;'), [{ text: 'SELECT 1', offset: 0 }]);
  assert.deepEqual(splitStatements(`SELECT 'é;b'; SELECT 'é'  ;`), [{ text: `SELECT 'é;b'`, offset: 0 }, { text: `SELECT 'é'`, offset: 14 }]);
  assert.deepEqual(splitStatements('SELECT 1;\n  SELECT 2'), [{ text: 'SELECT 1', offset: 0 }, { text: 'SELECT 2', offset: 12 }]);
  const kinds: [string, string][] = [
    ['BEGIN', 'begin'], ['begin work', 'begin'], ['START TRANSACTION ISOLATION LEVEL READ COMMITTED', 'begin'],
    ['BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY', 'begin'], ['END', 'commit'], ['commit;', 'commit'],
    ['ABORT', 'rollback'], ['ROLLBACK WORK', 'rollback'], ['SET x.y = 1', 'set'], [`SET TIME ZONE 'UTC'`, 'set'],
    ['RESET ALL', 'resetAll'], ['SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'setIgnored'],
    ['SHOW search_path', 'show'], ['COPY t FROM STDIN', 'copyFrom'], ['COPY t TO STDOUT', 'copyTo'], ['COPY (SELECT 1) TO STDOUT', 'copyTo'], ["COPY t TO '/tmp/f'", 'unsupported'],
    [`SELECT current_setting('search_path')`, 'catalog'], ['SELECT 1', 'backend'], ['BEGINNING', 'backend'],
    ['ROLLBACK TO SAVEPOINT a', 'savepoint'], ['rollback work to a', 'savepoint'], ['SAVEPOINT a', 'savepoint'], ['RELEASE a', 'savepoint'],
    ['DISCARD ALL', 'discard'], ['DEALLOCATE PREPARE s', 'deallocate'], ['CLOSE ALL', 'closeCursor'], ['UNLISTEN *', 'unlisten'],
  ];
  for (const [sql, k] of kinds) assert.equal(classify(sql).k, k, sql);
  // Savepoint statements with their names as PostgreSQL folds them (the session's settings follow them).
  assert.deepEqual(classify('ROLLBACK WORK TO SAVEPOINT "A"'), { k: 'savepoint', op: 'rollback-to', name: 'A' });
  assert.deepEqual(classify('release savepoint B'), { k: 'savepoint', op: 'release', name: 'b' });
  assert.deepEqual(classify('SAVEPOINT c;'), { k: 'savepoint', op: 'savepoint', name: 'c' });
  assert.deepEqual(classify('ROLLBACK TO 1'), { k: 'savepoint', op: 'rollback-to', name: null }); // the backend's 42601
});
