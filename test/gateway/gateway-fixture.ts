// Test fixtures for the gateway: a gateway over a fresh single-node engine on an ephemeral port, and a
// raw protocol client (frontend messages built with pg-protocol's serializer, backend messages cut and
// read here, binary DataRows included, which pg-protocol's parser does not decode).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { after, before } from 'node:test';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway, type Gateway, type GatewayOptions } from '../../client/gateway/gateway-server.ts';
import { startClusterGateway, type ClusterGateway } from '../../client/gateway/cluster-gateway.ts';
import { startTestCluster, type TestCluster, type TestClusterOptions } from '../integration/cluster-harness.ts';

export const USER = 'pesto';
export const PASSWORD = 'pesto';
export const DATABASE = 'pesto';

export async function startTestGateway(options: Partial<GatewayOptions> = {}): Promise<Gateway> {
  const engine = await Engine.create();
  return startGateway({
    port: 0,
    backend: new EngineBackend(engine, { databases: [DATABASE] }),
    users: [{ name: USER, password: PASSWORD }],
    ...options,
  });
}

/** Runs PostgreSQL 15's psql against the gateway on `port` as `user` (the test password): its exit code and output. */
export function runPsql(port: number, user: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/lib/postgresql/15/bin/psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, ...args], {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: 60_000,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The error `sql` fails with (code, message, detail, and hint where there is one); the test fails if it succeeds. */
export async function queryFailure(c: pg.Client, sql: string): Promise<{ code: string; message: string; detail: string | undefined; hint?: string }> {
  try {
    await c.query(sql);
  } catch (e) {
    const err = e as pg.DatabaseError;
    return { code: err.code ?? '', message: err.message, detail: err.detail, ...(err.hint === undefined ? {} : { hint: err.hint }) };
  }
  return assert.fail(`${sql} succeeded`);
}

/** A `pg` client connected to the gateway on `port` as the test user (the caller ends it). */
export async function client(port: number): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  return c;
}

/** PostgreSQL's CancelRequest for `c`'s running statement, on a connection of its own. */
export function cancel(port: number, c: pg.Client): Promise<void> {
  const { processID, secretKey } = c as unknown as { processID: number; secretKey: number };
  const m = Buffer.alloc(16);
  m.writeInt32BE(16, 0);
  m.writeInt32BE(80877102, 4);
  m.writeInt32BE(processID, 8);
  m.writeInt32BE(secretKey, 12);
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.end(m));
    s.on('close', () => resolve());
    s.on('error', reject);
  });
}

/** Runs `fn` with a `pg` client connected to the gateway on `port` as the test user, and ends it. */
export async function withPg<T>(port: number, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A gateway over a fresh engine for the enclosing describe block (started before its tests, closed after); its port. */
export function engineGatewayForSuite(): () => number {
  let gw: Gateway | undefined;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => {
    await gw?.close();
  });
  return () => gw!.port;
}

/** A gateway over a fresh six-replica cluster for the enclosing describe block, as `pesto start` serves one. */
export function clusterGatewayForSuite(name: string, basePort: number, options: TestClusterOptions = {}): { port(): number; cluster(): TestCluster; gateway(): ClusterGateway } {
  let tc: TestCluster | undefined;
  let gw: ClusterGateway | undefined;
  before(async () => {
    tc = await startTestCluster(name, basePort, options);
    gw = await startClusterGateway({
      client: { config: tc.config, clientId: tc.clientId, keyPair: tc.keyPair },
      port: 0,
      users: [{ name: USER, password: PASSWORD }],
      databases: [DATABASE],
    });
  });
  after(async () => {
    await gw?.close();
    await tc?.stop();
  });
  return { port: () => gw!.gateway.port, cluster: () => tc!, gateway: () => gw! };
}

export interface BackendMessage {
  /** One-letter message type, e.g. 'T', 'D', 'C', 'Z', 'E'. */
  readonly type: string;
  readonly body: Buffer;
}

export class RawClient {
  private buffered = Buffer.alloc(0);
  private readonly messages: BackendMessage[] = [];
  private wake: (() => void) | null = null;
  ended = false;
  /** From BackendKeyData, for CancelRequests. */
  processId = 0;
  secretKey = 0;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 5) {
        const len = this.buffered.readInt32BE(1);
        if (this.buffered.length < len + 1) break;
        this.messages.push({ type: String.fromCharCode(this.buffered[0] as number), body: this.buffered.subarray(5, len + 1) });
        this.buffered = this.buffered.subarray(len + 1);
      }
      this.notify();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.ended = true;
        this.notify();
        resolve();
      });
    });
    socket.on('error', () => undefined);
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Connects to a gateway started with users 'trust' and reads up to the first ReadyForQuery. */
  static async connect(port: number, params: Record<string, string> = { user: USER, database: DATABASE }): Promise<RawClient> {
    return (await RawClient.start(port, params)).client;
  }

  /** Connects as `connect` does; also the startup's messages (up to ReadyForQuery, or to the end of a refused connection). */
  static async start(port: number, params: Record<string, string>): Promise<{ client: RawClient; messages: BackendMessage[] }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const c = new RawClient(socket);
    c.send(serialize.startup(params));
    const messages = await c.untilReady();
    for (const m of messages) {
      if (m.type === 'K') {
        c.processId = m.body.readInt32BE(0);
        c.secretKey = m.body.readInt32BE(4);
      }
    }
    return { client: c, messages };
  }

  send(...bufs: Buffer[]): void {
    this.socket.write(Buffer.concat(bufs));
  }

  /** Messages up to and including the first one `stop` accepts (or up to the connection's end). */
  async until(stop: (m: BackendMessage) => boolean): Promise<BackendMessage[]> {
    const out: BackendMessage[] = [];
    for (;;) {
      const m = this.messages.shift();
      if (m !== undefined) {
        out.push(m);
        if (stop(m)) return out;
        continue;
      }
      if (this.ended) return out;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  untilReady(): Promise<BackendMessage[]> {
    return this.until((m) => m.type === 'Z');
  }

  end(): void {
    this.socket.end(serialize.end());
  }
}

/** The last message of a batch (the ReadyForQuery of an `untilReady`). */
export function last(ms: readonly BackendMessage[]): BackendMessage {
  const m = ms[ms.length - 1];
  if (m === undefined) throw new Error('no messages');
  return m;
}

/** ReadyForQuery's transaction status byte. */
export const statusOf = (m: BackendMessage): string => String.fromCharCode(m.body[0] as number);

/** The columns of a DataRow (null for NULL). */
export function dataRow(body: Buffer): (Buffer | null)[] {
  const n = body.readInt16BE(0);
  const out: (Buffer | null)[] = [];
  let pos = 2;
  for (let i = 0; i < n; i++) {
    const len = body.readInt32BE(pos);
    pos += 4;
    if (len < 0) out.push(null);
    else {
      out.push(body.subarray(pos, pos + len));
      pos += len;
    }
  }
  return out;
}

/** The fields of an ErrorResponse or NoticeResponse by their one-letter codes. */
export function errorFields(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < body.length && body[pos] !== 0) {
    const code = String.fromCharCode(body[pos] as number);
    const end = body.indexOf(0, pos + 1);
    out[code] = body.toString('utf8', pos + 1, end);
    pos = end + 1;
  }
  return out;
}

/** A CString body (CommandComplete's tag). */
export const cstring = (body: Buffer): string => body.toString('utf8', 0, body.indexOf(0));

/** RowDescription: name, type oid and format code per column. */
export function rowDescription(body: Buffer): { name: string; typeOid: number; format: number }[] {
  const n = body.readInt16BE(0);
  const out: { name: string; typeOid: number; format: number }[] = [];
  let pos = 2;
  for (let i = 0; i < n; i++) {
    const end = body.indexOf(0, pos);
    const name = body.toString('utf8', pos, end);
    pos = end + 1;
    const typeOid = body.readInt32BE(pos + 6);
    const format = body.readInt16BE(pos + 16);
    pos += 18;
    out.push({ name, typeOid, format });
  }
  return out;
}

export const types = (ms: readonly BackendMessage[]): string => ms.map((m) => m.type).join('');
