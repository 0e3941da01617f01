import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';

import { Engine } from './engine.ts';
import type { ExecContext, SessionIdentity } from './exec-context.ts';
import { CatalogVersion } from './replicated-catalog.ts';
import { aclText } from './acl.ts';
import { scramVerifier } from './scram-verifier.ts';
import { SqlTimestamp } from './datetime.ts';

const engine = await Engine.create();

/** A context as a session gives DDL: its identity, a salt source. */
function ctxOf(identity: SessionIdentity): ExecContext {
  let n = 0;
  return {
    source: { scan: () => [], get: () => null }, writes: null, recorder: null, now: new SqlTimestamp(0n), nextRowId: () => 1, sequences: undefined,
    random: (bytes) => Uint8Array.from({ length: bytes }, () => n++ & 0xff), identity,
  };
}

const SUPER: SessionIdentity = { user: 'admin', database: 'db', bootstrap: ['admin'] };

function run(v: CatalogVersion, sql: string, identity: SessionIdentity = SUPER): CatalogVersion {
  return v.apply(engine.parse(sql).stmts[0]!, ctxOf(identity)).next ?? v;
}

void describe('roles in the replicated catalog', () => {
  void it('a SCRAM verifier equals the one node:crypto derives (RFC 5802 / 7677)', () => {
    const salt = Buffer.from('0123456789abcdef');
    const salted = pbkdf2Sync('pencil', salt, 4096, 32, 'sha256');
    const stored = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest();
    const server = createHmac('sha256', salted).update('Server Key').digest();
    assert.equal(scramVerifier('pencil', salt), `SCRAM-SHA-256$4096:${salt.toString('base64')}$${stored.toString('base64')}:${server.toString('base64')}`);
  });

  void it('the log keeps the verifier, never the password, and replays to the same roles, owners and ACLs', () => {
    let v = CatalogVersion.empty;
    v = run(v, "CREATE ROLE alice LOGIN PASSWORD 'secret'");
    v = run(v, 'CREATE ROLE bob IN ROLE alice');
    v = run(v, 'GRANT CREATE ON SCHEMA public TO alice');
    v = run(v, 'CREATE TABLE t (id serial PRIMARY KEY)', { user: 'alice', database: 'db', bootstrap: ['admin'] });
    v = run(v, 'GRANT SELECT ON t TO bob WITH GRANT OPTION', { user: 'alice', database: 'db', bootstrap: ['admin'] });
    const text = new TextDecoder().decode(v.value()!);
    assert.ok(!text.includes('secret'));
    assert.match(text, /SCRAM-SHA-256\$4096:/);
    const replayed = CatalogVersion.fromValue(v.value()).catalog;
    const alice = replayed.role('alice')!;
    assert.equal(alice.password, v.catalog.role('alice')!.password);
    assert.equal(replayed.get('t')!.owner, alice.oid);
    assert.equal(replayed.sequence('t_id_seq')!.owner, alice.oid);
    assert.deepEqual(replayed.listMembers().map((m) => [m.role, m.member]), [[alice.oid, replayed.role('bob')!.oid]]);
    const names = (oid: number): string | null => replayed.roleByOid(oid)?.name ?? null;
    assert.deepEqual(aclText(replayed.get('t')!, names), ['alice=arwdDxt/alice', 'bob=r*/alice']);
  });

  void it('privileges are checked when a statement is first run, as its role', () => {
    let v = run(CatalogVersion.empty, "CREATE ROLE carol LOGIN PASSWORD 'x'");
    v = run(v, 'CREATE TABLE t (id int PRIMARY KEY)');
    const carol: SessionIdentity = { user: 'carol', database: 'db', bootstrap: ['admin'] };
    assert.throws(() => run(v, 'DROP TABLE t', carol), { code: '42501', message: 'must be owner of table t' });
    assert.throws(() => run(v, 'CREATE ROLE dave', carol), { code: '42501', message: 'permission denied to create role' });
    assert.throws(() => run(v, 'CREATE TABLE u (x int)', carol), { code: '42501', message: 'permission denied for schema public' });
    assert.throws(() => run(v, 'DROP ROLE carol', carol), { code: '42501', message: 'permission denied to drop role' });
    assert.throws(() => run(v, 'DROP ROLE admin'), { code: '55006', message: 'current user cannot be dropped' });
    // Its own password, and nothing else, a role may change.
    assert.notEqual(run(v, "ALTER ROLE carol PASSWORD 'y'", carol), v);
    assert.throws(() => run(v, "ALTER ROLE carol PASSWORD 'y' CREATEDB", carol), { code: '42501', message: 'permission denied' });
  });
});
