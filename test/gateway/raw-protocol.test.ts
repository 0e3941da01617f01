/**
 * The gateway's wire protocol byte by byte, with a raw client: binary results and parameters, Describe,
 * portal suspension, the skip-until-Sync rule, transaction status bytes, TCP fragmentation, COPY,
 * CancelRequest, and connections closed for malformed or oversized messages without harm to others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { serialize } from 'pg-protocol';
import { RawClient, cstring, dataRow, errorFields, last, rowDescription, startTestGateway, statusOf, types } from './gateway-fixture.ts';

void test('sends binary results for every engine type when Bind asks for them', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(serialize.query(`CREATE TABLE b (i2 SMALLINT PRIMARY KEY, i4 INT, i8 BIGINT, f4 REAL, f8 DOUBLE PRECISION, ok BOOLEAN, t TEXT, vc VARCHAR(9), ch CHAR(4), n NUMERIC(12,3), d DATE, ts TIMESTAMP)`));
    await c.untilReady();
    c.send(serialize.query(`INSERT INTO b VALUES (-7, 123456, 9007199254740993, 1.5, -2.25, true, 'héllo', 'vc', 'ab', -12345.678, '2000-01-02', '2000-01-01 00:00:01.5'), (8, NULL, NULL, NULL, NULL, false, '', NULL, NULL, 0, '1999-12-31', '1970-01-01 00:00:00')`));
    await c.untilReady();
    c.send(
      serialize.parse({ text: 'SELECT * FROM b ORDER BY i2' }),
      serialize.bind({ binary: true }),
      serialize.describe({ type: 'P' }),
      serialize.execute(),
      serialize.sync(),
    );
    const ms = await c.untilReady();
    assert.equal(types(ms), '12TDDCZ');
    const desc = rowDescription((ms[2] as { body: Buffer }).body);
    assert.deepEqual(desc.map((f) => f.typeOid), [21, 23, 20, 700, 701, 16, 25, 1043, 1042, 1700, 1082, 1114]);
    assert.ok(desc.every((f) => f.format === 1));
    const r1 = dataRow((ms[3] as { body: Buffer }).body);
    assert.equal(r1[0]?.readInt16BE(0), -7);
    assert.equal(r1[1]?.readInt32BE(0), 123456);
    assert.equal(r1[2]?.readBigInt64BE(0), 9007199254740993n);
    assert.equal(r1[3]?.readFloatBE(0), 1.5);
    assert.equal(r1[4]?.readDoubleBE(0), -2.25);
    assert.deepEqual(r1[5], Buffer.from([1]));
    assert.equal(r1[6]?.toString('utf8'), 'héllo');
    assert.equal(r1[7]?.toString('utf8'), 'vc');
    assert.equal(r1[8]?.toString('utf8'), 'ab  ');
    // numeric_send of -12345.678: ndigits 3, weight 1, sign 0x4000, dscale 3, digits 1 2345 6780.
    assert.deepEqual(r1[9], Buffer.from([0, 3, 0, 1, 0x40, 0, 0, 3, 0, 1, 0x09, 0x29, 0x1a, 0x7c]));
    assert.equal(r1[10]?.readInt32BE(0), 1);
    assert.equal(r1[11]?.readBigInt64BE(0), 1_500_000n);
    const r2 = dataRow((ms[4] as { body: Buffer }).body);
    assert.equal(r2[1], null);
    assert.deepEqual(r2[9], Buffer.from([0, 0, 0, 0, 0, 0, 0, 3]));
    assert.equal(r2[10]?.readInt32BE(0), -1);
    assert.equal(r2[11]?.readBigInt64BE(0), -946_684_800_000_000n);
    assert.equal(cstring((ms[5] as { body: Buffer }).body), 'SELECT 2');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('sends and takes the infinite dates and timestamps in binary as PostgreSQL does: the extremes of the integer', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  const hex = (b: Buffer | null | undefined): string | undefined => b?.toString('hex');
  try {
    c.send(serialize.query(`CREATE TABLE inf (k INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE); INSERT INTO inf VALUES (1, 'infinity', '-infinity', 'infinity'), (2, '-infinity', 'infinity', '-infinity')`));
    await c.untilReady();
    c.send(serialize.parse({ text: 'SELECT ts, tz, d FROM inf ORDER BY k' }), serialize.bind({ binary: true }), serialize.execute(), serialize.sync());
    let ms = await c.untilReady();
    assert.equal(types(ms), '12DDCZ');
    // timestamp_send and date_send of PostgreSQL 15: DT_NOEND/DT_NOBEGIN, DATEVAL_NOEND/NOBEGIN.
    assert.deepEqual(dataRow((ms[2] as { body: Buffer }).body).map(hex), ['7fffffffffffffff', '8000000000000000', '7fffffff']);
    assert.deepEqual(dataRow((ms[3] as { body: Buffer }).body).map(hex), ['8000000000000000', '7fffffffffffffff', '80000000']);
    // Binary parameters: the same integers are the infinities (stored, keyed and read back as text).
    c.send(
      serialize.parse({ text: 'INSERT INTO inf VALUES ($1, $2, $3, $4)', types: [23, 1114, 1184, 1082] }),
      serialize.bind({ values: [Buffer.from('00000003', 'hex'), Buffer.from('8000000000000000', 'hex'), Buffer.from('7fffffffffffffff', 'hex'), Buffer.from('7fffffff', 'hex')], binary: true }),
      serialize.execute(),
      serialize.parse({ text: 'SELECT ts::text, tz::text, d::text, isfinite(ts) FROM inf WHERE k = 3' }),
      serialize.bind({}),
      serialize.execute(),
      serialize.sync(),
    );
    ms = await c.untilReady();
    assert.equal(types(ms), '12C12DCZ');
    assert.deepEqual(dataRow((ms[5] as { body: Buffer }).body).map((v) => v?.toString()), ['-infinity', 'infinity', 'infinity', 'f']);
    // Any other integer past the range is 22008, as timestamp_recv and date_recv say.
    for (const [type, bytes, message] of [[1114, '7ffffffffffffffe', 'timestamp out of range'], [1184, '8000000000000001', 'timestamp out of range'], [1082, '80000001', 'date out of range']] as const) {
      c.send(serialize.parse({ text: 'SELECT $1::text', types: [type] }), serialize.bind({ values: [Buffer.from(bytes, 'hex')], binary: true }), serialize.execute(), serialize.sync());
      ms = await c.untilReady();
      assert.equal(types(ms), '1EZ', bytes);
      const e = errorFields((ms[1] as { body: Buffer }).body);
      assert.deepEqual([e.C, e.M], ['22008', message], bytes);
    }
  } finally {
    c.end();
    await gw.close();
  }
});

void test('sends and takes uuid in binary format as its 16 bytes', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    const bytes = Buffer.from('a0eebc999c0b4ef8bb6d6bb9bd380a11', 'hex');
    c.send(
      serialize.parse({ text: 'SELECT $1::uuid AS u, $1::uuid::text AS t', types: [2950] }),
      serialize.bind({ values: [bytes], binary: true }),
      serialize.execute(),
      serialize.sync(),
    );
    const ms = await c.untilReady();
    assert.equal(types(ms), '12DCZ');
    const row = dataRow((ms[2] as { body: Buffer }).body);
    assert.deepEqual(row[0], bytes);
    assert.equal(row[1]?.toString(), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('accepts binary parameters of declared types and describes statements with their parameter types', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(serialize.query('CREATE TABLE p (id INT PRIMARY KEY, amount NUMERIC(10,2), at TIMESTAMP)'));
    await c.untilReady();
    const id = Buffer.alloc(4);
    id.writeInt32BE(42);
    const amount = Buffer.from([0, 2, 0, 0, 0, 0, 0, 2, 0, 12, 0x13, 0x88]); // 12.50
    c.send(
      serialize.parse({ name: 'ins', text: 'INSERT INTO p VALUES ($1, $2, $3)', types: [23, 1700, 0] }),
      serialize.describe({ type: 'S', name: 'ins' }),
      serialize.bind({ statement: 'ins', values: [id, amount, '2024-05-06 07:08:09'] }),
      serialize.execute(),
      serialize.parse({ name: 'sel', text: 'SELECT amount, at FROM p WHERE id = $1' }),
      serialize.describe({ type: 'S', name: 'sel' }),
      serialize.bind({ statement: 'sel', values: ['42'] }),
      serialize.execute(),
      serialize.sync(),
    );
    const ms = await c.untilReady();
    assert.equal(types(ms), '1tn2C1tT2DCZ');
    const params = (ms[1] as { body: Buffer }).body;
    assert.deepEqual([params.readInt16BE(0), params.readInt32BE(2), params.readInt32BE(6), params.readInt32BE(10)], [3, 23, 1700, 1114]);
    assert.equal(cstring((ms[4] as { body: Buffer }).body), 'INSERT 0 1');
    const selParams = (ms[6] as { body: Buffer }).body;
    assert.deepEqual([selParams.readInt16BE(0), selParams.readInt32BE(2)], [1, 23]);
    const row = dataRow((ms[9] as { body: Buffer }).body);
    assert.deepEqual(row.map((v) => v?.toString()), ['12.50', '2024-05-06 07:08:09']);
  } finally {
    c.end();
    await gw.close();
  }
});

void test('suspends a portal at the row limit and resumes it on the next Execute', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(serialize.query('CREATE TABLE s (id INT PRIMARY KEY); INSERT INTO s VALUES (1), (2), (3), (4), (5)'));
    await c.untilReady();
    c.send(
      serialize.query('BEGIN'),
      serialize.parse({ text: 'SELECT id FROM s ORDER BY id' }),
      serialize.bind({ portal: 'cur' }),
      serialize.execute({ portal: 'cur', rows: 2 }),
      serialize.execute({ portal: 'cur', rows: 2 }),
      serialize.execute({ portal: 'cur', rows: 2 }),
      serialize.sync(),
    );
    const begin = await c.untilReady();
    assert.equal(statusOf(last(begin)), 'T');
    const ms = await c.untilReady();
    assert.equal(types(ms), '12DDsDDsDCZ');
    assert.deepEqual(ms.filter((m) => m.type === 'D').map((m) => dataRow(m.body)[0]?.toString()), ['1', '2', '3', '4', '5']);
    assert.equal(cstring((ms[9] as { body: Buffer }).body), 'SELECT 1');
    assert.equal(statusOf(last(ms)), 'T');
    c.send(serialize.query('COMMIT'));
    const end = await c.untilReady();
    assert.equal(statusOf(last(end)), 'I');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('skips every message after an extended-protocol error until Sync', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(
      serialize.parse({ text: 'SELECT * FROM nowhere' }),
      serialize.bind(),
      serialize.describe({ type: 'P' }),
      serialize.execute(),
      serialize.sync(),
      serialize.parse({ text: 'SELECT 1' }),
      serialize.bind(),
      serialize.execute(),
      serialize.sync(),
    );
    const first = await c.untilReady();
    assert.equal(types(first), 'EZ');
    assert.equal(errorFields((first[0] as { body: Buffer }).body).C, '42P01');
    const second = await c.untilReady();
    assert.equal(types(second), '12DCZ');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('reports transaction status I, T and E in ReadyForQuery', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  const statusAfter = async (sql: string): Promise<string> => {
    c.send(serialize.query(sql));
    const ms = await c.untilReady();
    return statusOf(last(ms));
  };
  try {
    assert.equal(await statusAfter('SELECT 1'), 'I');
    assert.equal(await statusAfter('BEGIN'), 'T');
    assert.equal(await statusAfter('SELECT 1'), 'T');
    assert.equal(await statusAfter('SELECT nope'), 'E');
    assert.equal(await statusAfter('SELECT 1'), 'E');
    assert.equal(await statusAfter('ROLLBACK'), 'I');
    c.send(serialize.query(''));
    assert.equal(types(await c.untilReady()), 'IZ');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('reassembles messages split across TCP segments and answers pipelined ones in order', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    const bytes = Buffer.concat([serialize.query('SELECT 1 AS a'), serialize.query(`SELECT 'two' AS b`)]);
    for (const byte of bytes) {
      c.socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const one = await c.untilReady();
    const two = await c.untilReady();
    assert.equal(dataRow((one[1] as { body: Buffer }).body)[0]?.toString(), '1');
    assert.equal(dataRow((two[1] as { body: Buffer }).body)[0]?.toString(), 'two');
    const many: Buffer[] = [];
    for (let i = 0; i < 300; i++) many.push(serialize.parse({ text: `SELECT ${i}` }), serialize.bind(), serialize.execute(), serialize.sync());
    c.send(...many);
    for (let i = 0; i < 300; i++) {
      const ms = await c.untilReady();
      assert.equal(dataRow((ms[2] as { body: Buffer }).body)[0]?.toString(), String(i));
    }
  } finally {
    c.end();
    await gw.close();
  }
});

void test('closes a connection that sends an oversized or malformed message and no other', async () => {
  const gw = await startTestGateway({ users: 'trust', maxMessageBytes: 1024 });
  const bystander = await RawClient.connect(gw.port);
  try {
    const cases: [string, Buffer, string][] = [
      ['oversized', serialize.query(`SELECT '${'x'.repeat(2000)}'`), '54000'],
      ['unknown type', Buffer.from([0x59, 0, 0, 0, 4]), '08P01'],
      ['negative length', Buffer.from([0x51, 0xff, 0xff, 0xff, 0xf0]), '08P01'],
      ['unterminated string', Buffer.from([0x51, 0, 0, 0, 7, 0x61, 0x62, 0x63]), '08P01'],
      ['truncated bind', Buffer.from([0x42, 0, 0, 0, 8, 0, 0, 0, 5]), '08P01'],
    ];
    for (const [what, bytes, code] of cases) {
      const bad = await RawClient.connect(gw.port);
      bad.send(bytes);
      const ms = await bad.until(() => false);
      await bad.closed;
      const e = ms.find((m) => m.type === 'E');
      assert.ok(e !== undefined, `${what}: an ErrorResponse`);
      assert.deepEqual([errorFields(e.body).S, errorFields(e.body).C], ['FATAL', code], what);
      bystander.send(serialize.query(`SELECT '${what}' AS still_here`));
      const ok = await bystander.untilReady();
      assert.equal(dataRow((ok[1] as { body: Buffer }).body)[0]?.toString(), what);
    }
    const garbage = connect(gw.port, '127.0.0.1');
    garbage.on('error', () => undefined);
    const reply: Buffer[] = [];
    garbage.on('data', (d: Buffer) => reply.push(d));
    garbage.write(Buffer.from([0, 0, 0, 8, 0, 9, 0, 0])); // protocol 9.0
    await new Promise((resolve) => garbage.on('close', resolve));
    assert.equal(errorFields(Buffer.concat(reply).subarray(5)).C, '0A000');
  } finally {
    bystander.end();
    await gw.close();
  }
});

void test('loads rows with COPY FROM STDIN in text and CSV formats', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(serialize.query('CREATE TABLE cp (id INT PRIMARY KEY, name TEXT, note VARCHAR(20))'));
    await c.untilReady();
    c.send(serialize.query('COPY cp FROM STDIN'));
    const start = await c.until((m) => m.type === 'G');
    assert.equal(types(start), 'G');
    c.send(serialize.copyData(Buffer.from('1\tone\t\\N\n2\ttw')), serialize.copyData(Buffer.from('o\ta\\tb\n3\tth\\\\ree\t\n\\.\n')), serialize.copyDone());
    const done = await c.untilReady();
    assert.equal(types(done), 'CZ');
    assert.equal(cstring((done[0] as { body: Buffer }).body), 'COPY 3');
    c.send(serialize.query(`COPY cp (id, name) FROM STDIN WITH (FORMAT csv, HEADER true)`));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.from('id,name\n4,"multi\nline, ""quoted"""\n5,\n')), serialize.copyDone());
    assert.equal(cstring(((await c.untilReady())[0] as { body: Buffer }).body), 'COPY 2');
    c.send(serialize.query('SELECT id, name, note FROM cp ORDER BY id'));
    const rows = (await c.untilReady()).filter((m) => m.type === 'D').map((m) => dataRow(m.body).map((v) => (v === null ? null : v.toString())));
    assert.deepEqual(rows, [['1', 'one', null], ['2', 'two', 'a\tb'], ['3', 'th\\ree', ''], ['4', 'multi\nline, "quoted"', null], ['5', null, null]]);
    c.send(serialize.query('COPY cp FROM STDIN'));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.from('6\tsix\t\\N\n1\tdup\t\\N\n')), serialize.copyDone());
    const dup = await c.untilReady();
    assert.equal(errorFields((dup[0] as { body: Buffer }).body).C, '23505');
    c.send(serialize.query('SELECT count(*) FROM cp'));
    assert.equal(dataRow(((await c.untilReady())[1] as { body: Buffer }).body)[0]?.toString(), '5');
  } finally {
    c.end();
    await gw.close();
  }
});

void test('cancels a running COPY when a CancelRequest names the session', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    c.send(serialize.query('CREATE TABLE cc (id INT PRIMARY KEY)'));
    await c.untilReady();
    c.send(serialize.query('COPY cc FROM STDIN'));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.from('1\n')));
    for (const secret of [c.secretKey ^ 1, c.secretKey]) {
      const cancel = connect(gw.port, '127.0.0.1');
      cancel.on('error', () => undefined);
      cancel.write(serialize.cancel(c.processId, secret));
      cancel.resume();
      await new Promise((resolve) => cancel.on('close', resolve));
    }
    c.send(serialize.copyData(Buffer.from('2\n')), serialize.copyDone());
    const ms = await c.untilReady();
    assert.equal(types(ms), 'EZ');
    assert.equal(errorFields((ms[0] as { body: Buffer }).body).C, '57014');
    c.send(serialize.query('SELECT count(*) FROM cc'));
    assert.equal(dataRow(((await c.untilReady())[1] as { body: Buffer }).body)[0]?.toString(), '0');
  } finally {
    c.end();
    await gw.close();
  }
});

/** A frontend message of `type` with exactly the body bytes given (the pg-protocol serializer only takes strings). */
function rawFrame(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const h = Buffer.alloc(5);
  h.write(type, 0, 'latin1');
  h.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([h, body]);
}

/** Bind of the unnamed statement to the unnamed portal with `values` in one parameter format. */
function rawBind(values: Buffer[], format: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeInt16BE(1, 2); // after two empty names: one format code
  head.writeInt16BE(format, 4);
  head.writeInt16BE(values.length, 6);
  const parts = values.map((v) => {
    const len = Buffer.alloc(4);
    len.writeInt32BE(v.length);
    return Buffer.concat([len, v]);
  });
  return rawFrame('B', head, ...parts, Buffer.from([0, 0]));
}

void test('refuses text that is not UTF-8 with 22021, as PostgreSQL does, and keeps the connection', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  try {
    const nul = Buffer.from([0]);
    const query = Buffer.concat([Buffer.from("SELECT 'caf"), Buffer.from([0xe9]), Buffer.from("'")]);
    const refused = (ms: readonly { type: string; body: Buffer }[]): string => {
      const e = ms.find((m) => m.type === 'E');
      assert.ok(e !== undefined, types(ms));
      const f = errorFields(e.body);
      assert.equal(f['C'], '22021');
      return f['M'] ?? '';
    };
    // Simple query: the message PostgreSQL 15 writes (the bytes of the cut-off sequence), then Ready.
    c.send(rawFrame('Q', query, nul));
    let ms = await c.untilReady();
    assert.equal(types(ms), 'EZ');
    assert.equal(refused(ms), 'invalid byte sequence for encoding "UTF8": 0xe9 0x27');
    // Parse: the rest is skipped until Sync.
    c.send(rawFrame('P', nul, query, nul, Buffer.from([0, 0])), serialize.bind({}), serialize.execute(), serialize.sync());
    ms = await c.untilReady();
    assert.equal(types(ms), 'EZ');
    refused(ms);
    // A text parameter, in text and in binary format.
    for (const binary of [false, true]) {
      c.send(
        serialize.parse({ text: 'SELECT $1::text' }),
        binary ? rawBind([Buffer.from([0x61, 0xff, 0x62])], 1) : serialize.bind({ values: [Buffer.from([0x61, 0xff, 0x62])] }),
        serialize.execute(),
        serialize.sync(),
      );
      ms = await c.untilReady();
      assert.equal(types(ms), '1EZ');
      assert.equal(refused(ms), 'invalid byte sequence for encoding "UTF8": 0xff');
    }
    // A NUL byte is well-formed UTF-8 but no text PostgreSQL stores.
    c.send(serialize.parse({ text: 'SELECT $1::text' }), serialize.bind({ values: [Buffer.from([0x61, 0x00, 0x62])] }), serialize.execute(), serialize.sync());
    ms = await c.untilReady();
    assert.equal(refused(ms), 'invalid byte sequence for encoding "UTF8": 0x00');
    // Inside a transaction the error fails it, as any other.
    c.send(serialize.query('BEGIN'));
    await c.untilReady();
    c.send(rawFrame('Q', query, nul));
    ms = await c.untilReady();
    assert.equal(statusOf(last(ms)), 'E');
    c.send(serialize.query('ROLLBACK'));
    await c.untilReady();
    // COPY data: a character split across CopyData messages loads; bytes that are not UTF-8 fail the COPY.
    c.send(serialize.query('CREATE TABLE u8 (id INT PRIMARY KEY, t TEXT)'));
    await c.untilReady();
    const euro = Buffer.from('€');
    c.send(serialize.query('COPY u8 FROM STDIN'));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.concat([Buffer.from('1\t'), euro.subarray(0, 1)])), serialize.copyData(Buffer.concat([euro.subarray(1), Buffer.from('\n')])), serialize.copyDone());
    assert.equal(cstring(((await c.untilReady())[0] as { body: Buffer }).body), 'COPY 1');
    c.send(serialize.query('COPY u8 FROM STDIN'));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.from([0x32, 0x09, 0x61, 0xc0, 0xaf, 0x0a])), serialize.copyDone());
    ms = await c.untilReady();
    assert.equal(refused(ms), 'invalid byte sequence for encoding "UTF8": 0xc0 0xaf');
    c.send(serialize.query('COPY u8 FROM STDIN'));
    await c.until((m) => m.type === 'G');
    c.send(serialize.copyData(Buffer.concat([Buffer.from('3\ta'), euro.subarray(0, 2)])), serialize.copyDone());
    ms = await c.untilReady();
    refused(ms);
    c.send(serialize.query('SELECT id, t, length(t) FROM u8 ORDER BY id'));
    ms = await c.untilReady();
    assert.equal(types(ms), 'TDCZ');
    assert.deepEqual(dataRow((ms[1] as { body: Buffer }).body).map((v) => v?.toString('utf8')), ['1', '€', '1']);
  } finally {
    c.end();
    await gw.close();
  }
});

void test('DISCARD ALL and DEALLOCATE drop prepared statements and settings, as poolers and drivers that reuse connections expect', async () => {
  const gw = await startTestGateway({ users: 'trust' });
  const c = await RawClient.connect(gw.port);
  const tags = (ms: readonly { type: string; body: Buffer }[]): string => ms.filter((m) => m.type === 'C').map((m) => cstring(m.body)).join('|');
  const codes = (ms: readonly { type: string; body: Buffer }[]): string => ms.filter((m) => m.type === 'E').map((m) => errorFields(m.body)['C']).join(',');
  try {
    // A pooled connection handed to a new client: the old client's statement names are free again.
    for (const reset of ['DISCARD ALL', 'DEALLOCATE ALL', 'DEALLOCATE s1', 'DEALLOCATE PREPARE s1']) {
      c.send(serialize.parse({ name: 's1', text: 'SELECT 1' }), serialize.sync());
      assert.equal(types(await c.untilReady()), '1Z');
      c.send(serialize.query(reset));
      assert.equal(tags(await c.untilReady()), reset.startsWith('DEALLOCATE ALL') ? 'DEALLOCATE ALL' : reset.startsWith('DEALLOCATE') ? 'DEALLOCATE' : 'DISCARD ALL');
      c.send(serialize.parse({ name: 's1', text: 'SELECT 2' }), serialize.sync());
      assert.equal(types(await c.untilReady()), '1Z', `after ${reset}`);
      c.send(serialize.close({ type: 'S', name: 's1' }), serialize.sync());
      await c.untilReady();
    }
    c.send(serialize.query('DEALLOCATE nope'));
    assert.equal(codes(await c.untilReady()), '26000');
    // DISCARD ALL resets settings (reported again) and refuses to run inside a transaction block.
    c.send(serialize.query(`SET application_name = 'old-client'`));
    await c.untilReady();
    c.send(serialize.query('DISCARD ALL'));
    const reset = await c.untilReady();
    assert.equal(types(reset), 'CSZ');
    c.send(serialize.query('SHOW application_name'));
    assert.equal(dataRow(((await c.untilReady())[1] as { body: Buffer }).body)[0]?.toString(), '');
    c.send(serialize.query('BEGIN'), serialize.query('DISCARD ALL'), serialize.query('ROLLBACK'));
    await c.untilReady();
    assert.equal(codes(await c.untilReady()), '25001');
    await c.untilReady();
    // The rest of a pooler's reset list: accepted, as PostgreSQL does.
    for (const [sql, tag] of [['CLOSE ALL', 'CLOSE CURSOR ALL'], ['UNLISTEN *', 'UNLISTEN'], ['DISCARD PLANS', 'DISCARD PLANS'], ['DISCARD TEMP', 'DISCARD TEMP'], ['DISCARD SEQUENCES', 'DISCARD SEQUENCES']]) {
      c.send(serialize.query(sql!));
      assert.equal(tags(await c.untilReady()), tag);
    }
    c.send(serialize.query('CLOSE some_cursor'));
    assert.equal(codes(await c.untilReady()), '34000');
  } finally {
    c.end();
    await gw.close();
  }
});
