/**
 * Session time zones through the gateway over the single-node engine, where an slt file cannot look: a
 * TimeZone in the startup packet (as pgjdbc sends the JVM's zone) and in `options` (node `pg`), one
 * PostgreSQL refuses there ending the connection (FATAL 22023), the
 * ParameterStatus PostgreSQL sends when TimeZone changes (SET, a ROLLBACK undoing one, SET LOCAL's block
 * ending), current_setting and set_config, parameters without an offset read in the session's zone,
 * and COPY TO in it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import type { Gateway } from '../../client/gateway/gateway-server.ts';
import { dataRow, DATABASE, errorFields, PASSWORD, RawClient, startTestGateway, USER, type BackendMessage } from './gateway-fixture.ts';

/** The ParameterStatus messages of a batch, as [name, value]. */
function parameterStatus(ms: readonly BackendMessage[]): [string, string][] {
  return ms.filter((m) => m.type === 'S').map((m) => {
    const [name = '', value = ''] = m.body.toString('utf8').split('\0');
    return [name, value];
  });
}

async function query(c: RawClient, sql: string): Promise<BackendMessage[]> {
  c.send(serialize.query(sql));
  return c.untilReady();
}

/** The named fields of an ErrorResponse (S severity, C code, M message, D detail). */
const pick = (fields: Record<string, string>, names: string): Record<string, string | undefined> => Object.fromEntries([...names].map((n) => [n, fields[n]]));

const cells = (ms: readonly BackendMessage[]): string[] => ms.filter((m) => m.type === 'D').map((m) => String(dataRow(m.body)[0] ?? 'NULL'));

void describe('session time zones through the gateway', () => {
  // Users 'trust': the raw client does not authenticate.
  let gw: Gateway | undefined;
  before(async () => {
    gw = await startTestGateway({ users: 'trust' });
  });
  after(async () => {
    await gw?.close();
  });
  const port = (): number => gw!.port;

  void it('takes TimeZone from the startup packet, and RESET goes back to it', async () => {
    const c = await RawClient.connect(port(), { user: USER, database: DATABASE, TimeZone: 'europe/berlin' });
    try {
      assert.deepEqual(cells(await query(c, 'SHOW TimeZone')), ['Europe/Berlin']);
      assert.deepEqual(cells(await query(c, `SELECT timestamptz '2020-07-01 12:00+00'`)), ['2020-07-01 14:00:00+02']);
      const set = await query(c, `SET TIME ZONE 'Asia/Kolkata'`);
      assert.deepEqual(parameterStatus(set), [['TimeZone', 'Asia/Kolkata']]);
      const reset = await query(c, 'RESET TimeZone');
      assert.deepEqual(parameterStatus(reset), [['TimeZone', 'Europe/Berlin']]);
      // Setting the value it has reports nothing.
      assert.deepEqual(parameterStatus(await query(c, `SET TIME ZONE 'Europe/Berlin'`)), []);
    } finally {
      c.end();
    }
  });

  void it('reports TimeZone when a ROLLBACK undoes a SET and when a SET LOCAL block ends', async () => {
    const c = await RawClient.connect(port());
    try {
      await query(c, 'BEGIN');
      assert.deepEqual(parameterStatus(await query(c, 'SET TIME ZONE -5')), [['TimeZone', '<-05>+05']]);
      assert.deepEqual(parameterStatus(await query(c, 'ROLLBACK')), [['TimeZone', 'UTC']]);
      await query(c, 'BEGIN');
      assert.deepEqual(parameterStatus(await query(c, `SET LOCAL TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE`)), [['TimeZone', '<+02>-02']]);
      assert.deepEqual(parameterStatus(await query(c, 'COMMIT')), [['TimeZone', 'UTC']]);
      // ROLLBACK TO a savepoint undoes the SETs after it (also after an error), RELEASE keeps them.
      await query(c, 'BEGIN; SAVEPOINT a');
      assert.deepEqual(parameterStatus(await query(c, `SET TIME ZONE 'Asia/Tokyo'`)), [['TimeZone', 'Asia/Tokyo']]);
      assert.deepEqual(parameterStatus(await query(c, 'ROLLBACK TO a')), [['TimeZone', 'UTC']]);
      assert.deepEqual(parameterStatus(await query(c, `SET TIME ZONE 'Asia/Tokyo'; SELECT 1/0`)), [['TimeZone', 'Asia/Tokyo']]);
      assert.deepEqual(parameterStatus(await query(c, 'ROLLBACK TO SAVEPOINT "a"')), [['TimeZone', 'UTC']]);
      await query(c, `SAVEPOINT b; SET TIME ZONE 'Asia/Tokyo'; RELEASE b`);
      assert.deepEqual(parameterStatus(await query(c, 'COMMIT')), []);
      assert.deepEqual(cells(await query(c, 'SHOW TimeZone')), ['Asia/Tokyo']);
      await query(c, 'SET TIME ZONE UTC');
      // SET LOCAL outside a block: PostgreSQL's WARNING, nothing changes.
      const local = await query(c, `SET LOCAL TIME ZONE 'Asia/Tokyo'`);
      assert.ok(local.some((m) => m.type === 'N' && m.body.includes('SET LOCAL can only be used in transaction blocks')));
      assert.deepEqual(cells(await query(c, 'SHOW TimeZone')), ['UTC']);
    } finally {
      c.end();
    }
  });

  void it('writes COPY TO text and reads EXECUTE arguments in the session zone', async () => {
    const c = await RawClient.connect(port());
    try {
      await query(c, `SET TIME ZONE 'America/New_York'`);
      const copy = await query(c, `COPY (SELECT timestamptz '2021-03-14 12:00+00' AS t) TO STDOUT`);
      const data = copy.filter((m) => m.type === 'd').map((m) => m.body.toString('utf8'));
      assert.deepEqual(data, ['2021-03-14 08:00:00-04\n']);
      // SQL EXECUTE's literal arguments are read in the zone too.
      await query(c, 'PREPARE p(timestamptz) AS SELECT $1::text');
      assert.deepEqual(cells(await query(c, `EXECUTE p('2021-03-14 12:00')`)), ['2021-03-14 12:00:00-04']);
    } finally {
      c.end();
    }
  });

  void it('refuses a TimeZone PostgreSQL refuses in the startup packet or in options: FATAL 22023 after AuthenticationOk', async () => {
    for (const params of [{ TimeZone: 'Nowhere/Zone' }, { options: '-c TimeZone=Nowhere/Zone' }, { options: '-c application_name=x -c timezone=Nowhere/Zone' }]) {
      const { client: c, messages } = await RawClient.start(port(), { user: USER, database: DATABASE, ...params });
      try {
        assert.equal(messages.map((m) => m.type).join(''), 'RE');
        assert.deepEqual(pick(errorFields(messages[1]!.body), 'SCM'), { S: 'FATAL', C: '22023', M: 'invalid value for parameter "TimeZone": "Nowhere/Zone"' });
        await c.closed;
      } finally {
        c.end();
      }
    }
    // With its DETAIL; the TimeZone PostgreSQL takes connects as before.
    const { client: detail, messages } = await RawClient.start(port(), { user: USER, database: DATABASE, TimeZone: "INTERVAL '1 month'" });
    detail.end();
    assert.deepEqual(pick(errorFields(messages[1]!.body), 'CD'), { C: '22023', D: 'Cannot specify months in time zone interval.' });
    const ok = await RawClient.connect(port(), { user: USER, database: DATABASE, options: '-c TimeZone=Asia/Tokyo' });
    try {
      assert.deepEqual(cells(await query(ok, 'SHOW TimeZone')), ['Asia/Tokyo']);
    } finally {
      ok.end();
    }
    // node pg's options: the connection fails with the FATAL's error.
    const c = new pg.Client({ host: '127.0.0.1', port: port(), user: USER, password: PASSWORD, database: DATABASE, options: '-c TimeZone=Nowhere/Zone' });
    await assert.rejects(c.connect(), { code: '22023', severity: 'FATAL', message: 'invalid value for parameter "TimeZone": "Nowhere/Zone"' });
  });

  void it('serves node pg: options TimeZone, current_setting, set_config, 22023', async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: port(), user: USER, password: PASSWORD, database: DATABASE, options: '-c TimeZone=Asia/Kathmandu' });
    await c.connect();
    try {
      assert.deepEqual((await c.query(`SELECT current_setting('TimeZone') AS z`)).rows, [{ z: 'Asia/Kathmandu' }]);
      const text = await c.query({ text: `SELECT timestamptz '2020-07-01 12:00+00' AS t`, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } });
      assert.deepEqual(text.rows, [['2020-07-01 17:45:00+05:45']]);
      assert.deepEqual((await c.query(`SELECT set_config('TimeZone', 'america/sao_paulo', false)`)).rows, [{ set_config: 'America/Sao_Paulo' }]);
      // A parameter without an offset is read in the session's zone; the driver's Date is the instant.
      const r = await c.query('SELECT $1::timestamptz AS t', ['2020-07-01 12:00']);
      assert.equal((r.rows[0] as { t: Date }).t.toISOString(), '2020-07-01T15:00:00.000Z');
      const e = await c.query(`SET TIME ZONE 'PST'`).then(() => null, (x: unknown) => x as { code: string; message: string });
      assert.deepEqual({ code: e?.code, message: e?.message }, { code: '22023', message: 'invalid value for parameter "TimeZone": "PST"' });
      const d = await c.query(`SET TIME ZONE 200`).then(() => null, (x: unknown) => x as { detail: string });
      assert.equal(d?.detail, 'UTC timezone offset is out of range.');
      // Savepoints in the extended protocol (named statements): ROLLBACK TO undoes the SET after it.
      await c.query('BEGIN');
      await c.query({ name: 'sp', text: 'SAVEPOINT sp' });
      await c.query({ name: 'tz', text: `SET TIME ZONE 'Asia/Tokyo'` });
      await c.query({ name: 'rb', text: 'ROLLBACK TO SAVEPOINT sp' });
      assert.deepEqual((await c.query({ name: 'show', text: 'SHOW TimeZone' })).rows, [{ TimeZone: 'America/Sao_Paulo' }]);
      await c.query('COMMIT');
    } finally {
      await c.end();
    }
  });
});
