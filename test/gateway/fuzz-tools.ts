/**
 * Bad input for a PostgreSQL wire gateway, at random (test/gateway/fuzz.test.ts over the single-node
 * engine, test/gateway/cluster.test.ts over a real cluster): valid conversations (startup, then simple
 * and extended queries, COPY, transactions; built with pg-protocol's serializer) with one to four
 * mutations (test/fuzz-mutate.ts), most of them after the startup packet, each conversation on its own
 * connection.
 * `fuzzGateway` checks that every reply is a sequence of whole backend messages whose errors carry
 * severity, SQLSTATE and message, and that the gateway closes each connection once the client has
 * finished. The statements read table `keep` and write table `scratch` (the caller creates both).
 * Against a gateway that asks for passwords, each conversation can open with a blind SCRAM exchange.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { serialize } from 'pg-protocol';
import { DATABASE, USER, errorFields } from './gateway-fixture.ts';
import { Prng } from '../../sim/prng.ts';
import { mutate } from '../fuzz-mutate.ts';

/** A conversation that neither closes nor answers within this long has hung (generous: a shared host). */
const HANG_MS = 15_000;

/** Statements of the corpus: none writes `keep`. */
const SQL = [
  'SELECT 1',
  'SELECT * FROM keep ORDER BY id',
  'SELECT count(*), sum(v) FROM keep WHERE id >= $1',
  'INSERT INTO scratch VALUES ($1, $2)',
  'UPDATE scratch SET t = $2 WHERE id = $1',
  'DELETE FROM scratch WHERE id = $1',
  'BEGIN',
  'START TRANSACTION ISOLATION LEVEL SERIALIZABLE',
  'COMMIT',
  'ROLLBACK',
  "SET application_name = 'fuzz'",
  'SHOW server_version',
  'SELECT version()',
  'SELECT * FROM nosuch',
  'SELEC oops',
  'SELECT 1; SELECT 2',
  '',
];

type Pick = <T>(xs: readonly T[]) => T;

/**
 * A conversation's bytes, and where its startup packet ends. With `scram`, a SCRAM-SHA-256 exchange
 * follows the startup packet, blind: a client-first message and a client-final one whose nonce and
 * proof cannot be right (the server's nonce is not known in advance).
 */
function conversation(rand: () => number, scram: boolean): { bytes: Buffer; startupEnd: number } {
  const pick: Pick = (xs) => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number): number => Math.floor(rand() * n);
  const value = (): string | null => pick([String(int(100)), `t${int(1000)}`, '', null, '-1', 'x'.repeat(int(300))]);
  const parts: Buffer[] = [serialize.startup({ user: USER, database: DATABASE })];
  if (scram) {
    const nonce = Buffer.from(Array.from({ length: 18 }, () => int(256))).toString('base64');
    parts.push(
      serialize.sendSASLInitialResponseMessage('SCRAM-SHA-256', `n,,n=*,r=${nonce}`),
      serialize.sendSCRAMClientFinalMessage(`c=biws,r=${nonce}${pick(['', 'xyz'])},p=${Buffer.from(Array.from({ length: 32 }, () => int(256))).toString('base64')}`),
    );
  }
  const steps = 1 + int(8);
  for (let i = 0; i < steps; i++) {
    switch (int(6)) {
      case 0:
      case 1:
        parts.push(serialize.query(pick(SQL).replace(/\$\d/g, () => String(int(50)))));
        break;
      case 2: {
        const name = pick(['', 's1', 's2']);
        const portal = pick(['', 'p1']);
        parts.push(
          serialize.parse({ name, text: pick(SQL), types: pick([[], [23], [23, 25], [0, 0, 0]]) }),
          serialize.bind({ statement: name, portal, values: Array.from({ length: int(3) }, value), binary: rand() < 0.3 }),
          serialize.describe({ type: pick(['S', 'P'] as const), name: pick([name, portal, 'nope']) }),
          serialize.execute({ portal, rows: pick([0, 1, 2]) }),
        );
        if (rand() < 0.7) parts.push(serialize.sync());
        else parts.push(serialize.flush());
        break;
      }
      case 3:
        parts.push(serialize.close({ type: pick(['S', 'P'] as const), name: pick(['', 's1', 'p1']) }), serialize.sync());
        break;
      case 4:
        parts.push(serialize.query('COPY scratch FROM STDIN'), serialize.copyData(Buffer.from(`${int(100000)}\tc${int(9)}\n`)));
        parts.push(rand() < 0.8 ? serialize.copyDone() : serialize.copyFail('fuzz'));
        break;
      default:
        parts.push(pick([serialize.sync(), serialize.flush(), serialize.copyData(Buffer.from('stray')), serialize.copyDone()]));
    }
  }
  if (rand() < 0.5) parts.push(serialize.end());
  return { bytes: Buffer.concat(parts), startupEnd: parts[0]!.length };
}

/** Backend message types a PostgreSQL server sends (R S K Z T D C E N I 1 2 3 n t s G H d c A v). */
const BACKEND_TYPES = new Set('RSKZTDCENI123ntsGHdcAvW');

/**
 * Sends `bytes` on a fresh connection, half-closes it, and returns what came back once the gateway
 * closed. Throws if the reply is not a sequence of whole backend messages or the connection hangs.
 */
async function converse(port: number, bytes: Buffer): Promise<{ types: string; errors: Record<string, string>[] }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // a reset after a fatal error is an answer too
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await new Promise<void>((resolve, reject) => {
    const hang = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${HANG_MS} ms`));
    }, HANG_MS);
    socket.on('close', () => {
      clearTimeout(hang);
      resolve();
    });
    socket.on('connect', () => socket.end(bytes));
  });
  const reply = Buffer.concat(chunks);
  let types = '';
  const errors: Record<string, string>[] = [];
  let pos = 0;
  while (pos < reply.length) {
    const type = String.fromCharCode(reply[pos]!);
    if (!BACKEND_TYPES.has(type)) throw new Error(`unknown backend message type ${JSON.stringify(type)} at byte ${pos}`);
    if (pos + 5 > reply.length) throw new Error('reply ends inside a message header');
    const len = reply.readInt32BE(pos + 1);
    if (len < 4 || pos + 1 + len > reply.length) throw new Error(`reply ends inside a ${type} message`);
    if (type === 'E') errors.push(errorFields(reply.subarray(pos + 5, pos + 1 + len)));
    types += type;
    pos += 1 + len;
  }
  return { types, errors };
}

/**
 * Sends `cases` mutated conversations from the PRNG seeded with `seed`, one connection each, checking
 * every reply (module comment); with `scram`, each starts with a blind SCRAM exchange (a gateway that
 * asks for passwords). Returns how many conversations reached ReadyForQuery (`served`) or not
 * (`refused`), and the FATAL SQLSTATEs seen.
 */
export async function fuzzGateway(port: number, cases: number, seed: number, options: { readonly scram?: boolean } = {}): Promise<Map<string, number>> {
  const prng = new Prng(seed); // the simulator's seeded generator
  const rand = (): number => prng.float();
  const outcomes = new Map<string, number>();
  const count = (k: string): void => void outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  for (let i = 0; i < cases; i++) {
    const c = conversation(rand, options.scram === true);
    // Most mutations spare the startup packet, so that they reach the session's messages.
    const bytes = mutate(c.bytes, rand, { from: rand() < 0.2 ? 0 : c.startupEnd });
    let r: Awaited<ReturnType<typeof converse>>;
    try {
      r = await converse(port, bytes);
    } catch (e) {
      assert.fail(`case ${i} (seed ${seed}): ${e instanceof Error ? e.message : String(e)}; input ${bytes.toString('hex').slice(0, 400)}`);
    }
    for (const e of r.errors) {
      assert.ok(['ERROR', 'FATAL'].includes(e['S'] ?? ''), `case ${i} (seed ${seed}): error severity ${e['S']}`);
      assert.match(e['C'] ?? '', /^[0-9A-Z]{5}$/, `case ${i} (seed ${seed}): SQLSTATE ${e['C']}`);
      assert.ok((e['M'] ?? '').length > 0, `case ${i} (seed ${seed}): error without a message`);
      if (e['S'] === 'FATAL') count(`fatal ${e['C']}`);
    }
    count(r.types.includes('Z') ? 'served' : 'refused');
  }
  return outcomes;
}
