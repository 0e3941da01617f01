/**
 * Gateway shutdown with connections open (issue 5: `client/gateway/main.ts` was seen not to exit on
 * SIGINT while connections were open). `close()` must end every connection with 57P01, roll back and
 * close every backend session (the transaction of an idle-in-transaction client included), resolve even
 * when a statement is still running in the backend or a client never closes its end, and a gateway
 * process must exit 0 on SIGTERM with clients connected (SIGINT: test/integration/pesto-start.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway } from '../../client/gateway/gateway-server.ts';
import type { BackendResult, BackendSession, OpenSessionResult, SqlBackend } from '../../client/gateway/sql-backend.ts';
import { REPO_ROOT } from '../../cli/supervisor.ts';
import { DATABASE, PASSWORD, RawClient, USER, errorFields, last } from './gateway-fixture.ts';

/** The engine backend, recording what happens to its sessions; `hold` makes statements wait until released. */
class RecordingBackend implements SqlBackend {
  opened = 0;
  closed = 0;
  rolledBack = 0;
  #held: (() => void)[] = [];
  hold = false;

  constructor(private readonly inner: EngineBackend) {}

  release(): void {
    for (const r of this.#held.splice(0)) r();
  }

  loginRole(user: string): ReturnType<SqlBackend['loginRole']> {
    return this.inner.loginRole(user);
  }

  async openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult> {
    const r = await this.inner.openSession(user, database, bootstrap);
    if (!r.ok) return r;
    this.opened++;
    const s = r.session;
    const wait = async (): Promise<void> => {
      if (this.hold) await new Promise<void>((resolve) => this.#held.push(resolve));
    };
    const session: BackendSession = {
      execute: async (sql): Promise<BackendResult> => {
        await wait();
        return s.execute(sql);
      },
      prepare: (sql, hints) => s.prepare(sql, hints),
      run: async (st, params): Promise<BackendResult> => {
        await wait();
        return s.run(st, params);
      },
      release: (st) => s.release(st),
      tables: () => s.tables(),
      sequences: () => s.sequences(),
      views: () => s.views(),
      enums: () => s.enums(),
      roles: () => s.roles(),
      begin: () => s.begin(),
      commit: () => s.commit(),
      rollback: async () => {
        this.rolledBack++;
        await s.rollback();
      },
      close: async () => {
        this.closed++;
        await s.close();
      },
    };
    return { ok: true, session };
  }
}

async function recordingGateway(closeGraceMs?: number): Promise<{ gw: Awaited<ReturnType<typeof startGateway>>; backend: RecordingBackend; engine: Engine }> {
  const engine = await Engine.create();
  const backend = new RecordingBackend(new EngineBackend(engine, { databases: [DATABASE] }));
  const gw = await startGateway({ port: 0, backend, users: 'trust', ...(closeGraceMs === undefined ? {} : { closeGraceMs }) });
  return { gw, backend, engine };
}

void test('close ends idle, in-transaction, mid-COPY and half-started connections, rolling back and closing every session', async () => {
  const { gw, backend, engine } = await recordingGateway();
  const setup = engine.session();
  assert.ok(setup.execute('CREATE TABLE t (id INT PRIMARY KEY, v TEXT)').ok);

  const idle = await RawClient.connect(gw.port);
  const inTxn = await RawClient.connect(gw.port);
  inTxn.send(serialize.query("BEGIN; INSERT INTO t VALUES (1, 'uncommitted')"));
  assert.equal(last(await inTxn.untilReady()).body.toString('latin1'), 'T');
  const copying = await RawClient.connect(gw.port);
  copying.send(serialize.query('COPY t FROM STDIN'), serialize.copyData(Buffer.from('2\tpartial\n')));
  await copying.until((m) => m.type === 'G');
  // A connection that never sends its startup packet, and one that never closes its end.
  const silent = connect(gw.port, '127.0.0.1');
  silent.on('error', () => undefined);
  silent.resume(); // read, so the server's FIN is seen
  await new Promise<void>((resolve) => silent.once('connect', () => resolve()));
  assert.equal(backend.opened, 3);

  await gw.close();
  for (const c of [idle, inTxn, copying]) {
    const fatal = (await c.until((m) => m.type === 'E')).find((m) => m.type === 'E');
    assert.ok(fatal !== undefined, 'every session is told why it ends');
    assert.equal(errorFields(fatal.body)['C'], '57P01');
    await c.closed;
  }
  await new Promise<void>((resolve) => (silent.destroyed ? resolve() : silent.once('close', () => resolve())));
  assert.equal(backend.closed, 3, 'every backend session is closed');
  assert.ok(backend.rolledBack >= 2, 'the open transaction and the COPY are rolled back');
  assert.equal(gw.connectionCount, 0);
  const rows = setup.execute('SELECT count(*) FROM t');
  assert.ok(rows.ok);
  assert.equal(Number(rows.rows[0]?.[0]), 0, 'nothing of the open transaction or the COPY is left');
  await gw.close(); // idempotent
});

void test('close resolves while a statement is still running in the backend, and the session is closed once it returns', async () => {
  const { gw, backend } = await recordingGateway(200);
  const client = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
  client.on('error', () => undefined);
  await client.connect();
  backend.hold = true;
  const running = client.query('SELECT 1').then(() => 'answered', (e: Error) => e.message);
  await new Promise((r) => setTimeout(r, 50));
  await gw.close(); // resolves after the 200 ms grace although the statement has not returned
  assert.equal(await running, 'terminating connection due to administrator command');
  assert.equal(backend.closed, 0, 'the session is busy until its statement returns');
  backend.release();
  for (let i = 0; i < 100 && backend.closed === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(backend.closed, 1);
});

// SIGTERM here; SIGINT (Ctrl-C) with a client inside a transaction is test/integration/pesto-start.test.ts's case.
for (const signal of ['SIGTERM'] as const) {
  void test(`client/gateway/main.ts exits 0 on ${signal} with clients connected, one of them inside a transaction`, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'client/gateway/main.ts', '--port', '0'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on [\d.]+:(\d+)/.exec(out);
        if (m !== null) resolve(Number(m[1]));
      });
      void exited.then(() => reject(new Error(`gateway exited early: ${out}`)));
    });
    const clients: pg.Client[] = [];
    for (let i = 0; i < 3; i++) {
      const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
      c.on('error', () => undefined);
      await c.connect();
      clients.push(c);
    }
    await clients[0]!.query('CREATE TABLE t (id INT PRIMARY KEY)');
    await clients[1]!.query('BEGIN');
    await clients[1]!.query('INSERT INTO t VALUES (1)');
    child.kill(signal);
    const r = await exited;
    assert.deepEqual(r, { code: 0, signal: null }, out);
    for (const c of clients) await c.end().catch(() => undefined);
  });
}
