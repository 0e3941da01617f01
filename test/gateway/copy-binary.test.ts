/**
 * Binary COPY (client/gateway/copy-binary.ts). The reader takes data cut anywhere across CopyData
 * messages; psql loads PostgreSQL 15's own binary COPY of a row of every type (testdata/copy-binary.bin)
 * through the gateway over the engine (the cluster runs it in test/gateway/cluster.test.ts), copies the
 * rows out again in binary, byte for byte PostgreSQL's file, and meets malformed files and options with
 * PostgreSQL's errors and CONTEXT lines (testdata/copy-binary.out and .err are PostgreSQL 15's).
 */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryCopyParser, CopyFormatError } from '../../client/gateway/copy-binary.ts';
import { serialize } from 'pg-protocol';
import { binaryCopySession, scriptOutput } from './client-scripts.ts';
import { PASSWORD, RawClient, USER, cstring, engineGatewayForSuite, startTestGateway, types } from './gateway-fixture.ts';

const GOLDEN = readFileSync(join(import.meta.dirname, 'testdata', 'copy-binary.bin'));
const COLUMNS = 15;

function parseInPieces(data: Buffer, cut: number): (Buffer | null)[][] {
  const p = new BinaryCopyParser(COLUMNS);
  const rows: (Buffer | null)[][] = [];
  for (let at = 0; at < data.length; at += cut) rows.push(...p.push(data.subarray(at, at + cut)));
  rows.push(...p.end());
  return rows;
}

void test('binary COPY data cut at any byte reads as the same rows', () => {
  const whole = parseInPieces(GOLDEN, GOLDEN.length);
  assert.equal(whole.length, 3);
  assert.deepEqual(whole[0]![0], Buffer.from([0, 0, 0, 1]));
  assert.equal(whole[1]!.filter((f) => f === null).length, COLUMNS - 1);
  for (const cut of [1, 2, 3, 7, 19, 64]) assert.deepEqual(parseInPieces(GOLDEN, cut), whole, `pieces of ${cut} bytes`);
});

void test('binary COPY errors name the row and column PostgreSQL names', () => {
  const fails = (data: Buffer, message: string, line?: number, column?: number): void => {
    assert.throws(() => parseInPieces(data, 5), (e: unknown) => {
      assert.ok(e instanceof CopyFormatError);
      assert.deepEqual([e.message, e.line, e.column, e.code], [message, line, column, '22P04']);
      return true;
    });
  };
  const header = GOLDEN.subarray(0, 19);
  fails(Buffer.from('PGCOPY\nX'), 'COPY file signature not recognized');
  fails(GOLDEN.subarray(0, 15), 'COPY file signature not recognized');
  // Cut inside the third row's last column (the interval's 16 bytes), the marker gone too.
  fails(GOLDEN.subarray(0, GOLDEN.length - 2 - 3), 'unexpected EOF in COPY data', 3, 14);
  fails(Buffer.concat([GOLDEN, Buffer.from([0])]), 'received copy data after EOF marker', 4);
  fails(Buffer.concat([header, Buffer.from([0, 2])]), 'row field count is 2, expected 15', 1);
  fails(Buffer.concat([header, Buffer.from([0, 15, 0xff, 0xff, 0xff, 0xfe])]), 'invalid field size', 1, 0);
  // Rows ending without the marker are accepted, at a row boundary.
  assert.equal(parseInPieces(GOLDEN.subarray(0, GOLDEN.length - 2), 3).length, 3);
});

void describe('binary COPY through the gateway over the engine', () => {
  const port = engineGatewayForSuite();

  void it('loads PostgreSQL 15 binary COPY data and copies it out byte for byte; malformed data fails as in PostgreSQL', async () => {
    const r = await binaryCopySession(port(), USER, PASSWORD);
    assert.deepEqual({ stdout: r.stdout, stderr: r.stderr }, scriptOutput('copy-binary'));
    assert.ok(r.out.equals(GOLDEN), 'COPY TO (FORMAT binary) is PostgreSQL 15 byte for byte');
  });

  void it('copies the infinite dates and timestamps out and in, binary and text, as PostgreSQL 15', async () => {
    const gw = await startTestGateway({ users: 'trust' });
    const c = await RawClient.connect(gw.port);
    // PostgreSQL 15's COPY (SELECT 'infinity'::timestamp, '-infinity'::timestamptz, 'infinity'::date, '-infinity'::date) TO STDOUT (FORMAT binary).
    const pg = Buffer.from('5047434f50590aff0d0a0000000000000000000004000000087fffffffffffffff000000088000000000000000000000047fffffff0000000480000000ffff', 'hex');
    try {
      const copyOut = async (sql: string): Promise<Buffer> => {
        c.send(serialize.query(sql));
        const ms = await c.untilReady();
        return Buffer.concat(ms.filter((m) => m.type === 'd').map((m) => m.body));
      };
      const copyIn = async (sql: string, data: Buffer): Promise<string> => {
        c.send(serialize.query(sql));
        const started = await c.until((m) => m.type === 'G');
        assert.equal(types(started), 'G');
        c.send(serialize.copyData(data), serialize.copyDone());
        const ms = await c.untilReady();
        assert.equal(types(ms), 'CZ');
        return cstring((ms[0] as { body: Buffer }).body);
      };
      const all = `SELECT 'infinity'::timestamp, '-infinity'::timestamptz, 'infinity'::date, '-infinity'::date`;
      assert.ok((await copyOut(`COPY (${all}) TO STDOUT (FORMAT binary)`)).equals(pg));
      assert.equal((await copyOut(`COPY (${all}) TO STDOUT`)).toString(), 'infinity\t-infinity\tinfinity\t-infinity\n');
      c.send(serialize.query('CREATE TABLE ci (ts timestamp PRIMARY KEY, tz timestamptz, d date, d2 date)'));
      await c.untilReady();
      assert.equal(await copyIn('COPY ci FROM STDIN (FORMAT binary)', pg), 'COPY 1');
      assert.equal(await copyIn('COPY ci FROM STDIN (FORMAT csv)', Buffer.from('-Infinity,INFINITY,-infinity,infinity\n')), 'COPY 1');
      assert.equal((await copyOut('COPY (SELECT * FROM ci ORDER BY ts) TO STDOUT (FORMAT csv)')).toString(), '-infinity,infinity,-infinity,infinity\ninfinity,-infinity,infinity,-infinity\n');
    } finally {
      c.end();
      await gw.close();
    }
  });

  void it('sends the header with the first row and the end marker alone, as PostgreSQL does (psycopg reads them so)', async () => {
    const gw = await startTestGateway({ users: 'trust' });
    const c = await RawClient.connect(gw.port);
    try {
      const copyOut = async (sql: string): Promise<Buffer[]> => {
        c.send(serialize.query(sql));
        const ms = await c.untilReady();
        assert.equal(types(ms).replace(/d+/, 'd'), 'HdcCZ');
        assert.equal(ms[0]!.body[0], 1, 'binary overall format');
        return ms.filter((m) => m.type === 'd').map((m) => m.body);
      };
      const rows = await copyOut('COPY (SELECT 7 AS a UNION ALL SELECT 8) TO STDOUT (FORMAT binary)');
      assert.deepEqual(rows.map((b) => b.length), [19 + 2 + 8, 2 + 8, 2]);
      assert.ok(rows[0]!.subarray(0, 19).equals(GOLDEN.subarray(0, 19)));
      const none = await copyOut('COPY (SELECT 1 AS a WHERE false) TO STDOUT (FORMAT binary)');
      assert.deepEqual(none.map((b) => b.length), [19 + 2]);
    } finally {
      c.end();
      await gw.close();
    }
  });
});
