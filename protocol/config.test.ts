import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import {
  certifyAuthorityTls,
  certifyClient,
  certifyMemberTls,
  certifyReplica,
  DEFAULT_GRACE,
  DEFAULT_TIMEOUTS,
  fromHex,
  identityOf,
  parseClusterConfig,
  publicKeyOf,
  renderClusterConfig,
  splitAddress,
  tlsCertificatesOf,
  toHex,
  validateClusterConfig,
  type ClusterConfig,
  type ConfigReason,
} from './config.ts';
import { keyPairFromSeed } from './crypto/ed25519.ts';
import { clientId, replicaIndex, shardId } from './ids.ts';

const seed = (i: number): Uint8Array => new Uint8Array(32).fill(i);
const authority = keyPairFromSeed(seed(200));
const rogue = keyPairFromSeed(seed(201));

/** A valid two-shard f = 1 cluster with one client; keys from fixed seeds. */
function validYaml(f = 1, shards = 2): string {
  const n = 5 * f + 1;
  const lines = [
    'name: test',
    `f: ${f}`,
    'authorities:',
    `  - { name: root, publicKey: ${toHex(authority.publicKey)} }`,
    'shards:',
  ];
  for (let s = 0; s < shards; s++) {
    lines.push(`  - id: ${s}`, '    replicas:');
    for (let i = 0; i < n; i++) {
      const kp = keyPairFromSeed(seed(1 + s * n + i));
      const cert = certifyReplica(authority.secretKey, 'test', s, i, kp.publicKey);
      lines.push(`      - { index: ${i}, address: "127.0.0.1:${7100 + s * n + i}", publicKey: ${toHex(kp.publicKey)}, issuedBy: root, certificate: ${toHex(cert)} }`);
    }
  }
  const ck = keyPairFromSeed(seed(150));
  lines.push('clients:', `  - { id: 1, name: local, publicKey: ${toHex(ck.publicKey)}, issuedBy: root, certificate: ${toHex(certifyClient(authority.secretKey, 'test', 1, 'local', ck.publicKey))} }`);
  lines.push('grace: { monotonicityMs: 10, nonMonotonicityMs: 30 }');
  return lines.join('\n') + '\n';
}

type Tree = Record<string, unknown> & { shards: { id: unknown; replicas: Record<string, unknown>[] }[]; clients: Record<string, unknown>[] };

/** Parses the valid YAML, applies `edit` to the plain tree and parses the result. */
function mutated(edit: (t: Tree) => void): ReturnType<typeof parseClusterConfig> {
  const tree = parse(validYaml()) as Tree;
  edit(tree);
  return parseClusterConfig(stringify(tree));
}

function mustParse(text: string): ClusterConfig {
  const r = parseClusterConfig(text);
  if (!r.ok) assert.fail(`${r.reason}: ${r.detail ?? ''}`);
  return r.value;
}

void describe('parseClusterConfig', () => {
  void it('accepts a valid config and fills omitted sections with defaults', () => {
    const c = mustParse(validYaml());
    assert.equal(c.shards.length, 2);
    assert.equal(c.shards[1]!.replicas.length, 6);
    assert.equal(c.shards[1]!.replicas[5]!.address, '127.0.0.1:7111');
    assert.deepEqual(c.timeouts, DEFAULT_TIMEOUTS);
    assert.deepEqual(c.grace, { monotonicityMs: 10, nonMonotonicityMs: 30 });
    assert.notDeepEqual(c.grace, DEFAULT_GRACE);
  });

  void it('round-trips through renderClusterConfig', () => {
    const c = mustParse(validYaml());
    const again = mustParse(renderClusterConfig(c));
    assert.deepEqual(again, c);
    assert.equal(renderClusterConfig(again), renderClusterConfig(c));
    assert.deepEqual(validateClusterConfig(c), { ok: true, value: c });
  });

  void it('sorts shards and replicas so that ids are array positions', () => {
    const r = mutated((t) => {
      t.shards.reverse();
      t.shards[0]!.replicas.reverse();
    });
    assert.ok(r.ok);
    assert.deepEqual(r.value.shards.map((s) => s.id), [0, 1]);
    assert.deepEqual(r.value.shards[1]!.replicas.map((x) => x.index), [0, 1, 2, 3, 4, 5]);
  });

  void it('accepts f = 2 with 11 replicas per shard', () => {
    assert.equal(mustParse(validYaml(2, 1)).shards[0]!.replicas.length, 11);
  });

  const smallOrderKey = '01' + '00'.repeat(31); // the identity point: order 1
  const cases: readonly { readonly name: string; readonly reason: ConfigReason; readonly detail: RegExp; readonly edit: (t: Tree) => void }[] = [
    { name: 'a shard with too few replicas', reason: 'replica-count', detail: /shards\[1\]\.replicas: f = 1 needs n = 5f\+1 = 6 replicas per shard, found 5/, edit: (t) => void t.shards[1]!.replicas.pop() },
    { name: 'a duplicate replica index', reason: 'duplicate-index', detail: /shards\[0\]\.replicas\[3\]\.index: index 2 is used twice/, edit: (t) => (t.shards[0]!.replicas[3]!['index'] = 2) },
    { name: 'an index outside 0..n-1', reason: 'duplicate-index', detail: /index 6 is out of range/, edit: (t) => (t.shards[0]!.replicas[3]!['index'] = 6) },
    { name: 'a malformed address', reason: 'bad-address', detail: /shards\[0\]\.replicas\[0\]\.address: expected host:port/, edit: (t) => (t.shards[0]!.replicas[0]!['address'] = 'localhost') },
    { name: 'a port out of range', reason: 'bad-address', detail: /expected host:port/, edit: (t) => (t.shards[0]!.replicas[0]!['address'] = 'localhost:70000') },
    { name: 'a duplicate address', reason: 'duplicate-address', detail: /also the address of shards\[0\]\.replicas\[0\]/, edit: (t) => (t.shards[1]!.replicas[0]!['address'] = '127.0.0.1:7100') },
    { name: 'a public key that is not 32 bytes of hex', reason: 'bad-public-key', detail: /publicKey: expected 32 bytes as 64 hex digits/, edit: (t) => (t.shards[0]!.replicas[1]!['publicKey'] = 'zz') },
    { name: 'a small-order public key', reason: 'small-order-key', detail: /shards\[0\]\.replicas\[1\]\.publicKey: a small-order ed25519 point/, edit: (t) => (t.shards[0]!.replicas[1]!['publicKey'] = smallOrderKey) },
    { name: 'a small-order authority key', reason: 'small-order-key', detail: /authorities\[0\]\.publicKey/, edit: (t) => ((t['authorities'] as Record<string, unknown>[])[0]!['publicKey'] = smallOrderKey) },
    { name: 'a key that is not a curve point', reason: 'bad-public-key', detail: /not an acceptable ed25519 public key \(not-prime-order-point\)/, edit: (t) => (t.shards[0]!.replicas[1]!['publicKey'] = '02' + '00'.repeat(31)) },
    { name: 'a key used twice', reason: 'duplicate-public-key', detail: /same key as shards\[0\]\.replicas\[0\]\.publicKey/, edit: (t) => (t.shards[0]!.replicas[1]!['publicKey'] = t.shards[0]!.replicas[0]!['publicKey']) },
    { name: 'a certificate for another position', reason: 'bad-certificate', detail: /shards\[0\]\.replicas\[1\]\.certificate: not a valid signature by authority root/, edit: (t) => (t.shards[0]!.replicas[1]!['certificate'] = t.shards[0]!.replicas[2]!['certificate']) },
    { name: 'a certificate signed by someone else', reason: 'bad-certificate', detail: /not a valid signature/, edit: (t) => {
      const r = t.shards[0]!.replicas[0]!;
      r['certificate'] = toHex(certifyReplica(rogue.secretKey, 'test', 0, 0, fromHex(r['publicKey'] as string)!));
    } },
    { name: 'a certificate issued for another cluster', reason: 'bad-certificate', detail: /not a valid signature/, edit: (t) => {
      const r = t.shards[0]!.replicas[0]!;
      r['certificate'] = toHex(certifyReplica(authority.secretKey, 'other', 0, 0, fromHex(r['publicKey'] as string)!));
    } },
    { name: 'a bad client certificate', reason: 'bad-certificate', detail: /clients\[0\]\.certificate/, edit: (t) => (t.clients[0]!['name'] = 'renamed') },
    { name: 'an unknown authority', reason: 'unknown-authority', detail: /shards\[0\]\.replicas\[4\]\.issuedBy: no authority named ghost/, edit: (t) => (t.shards[0]!.replicas[4]!['issuedBy'] = 'ghost') },
    { name: 'a duplicate client id', reason: 'duplicate-id', detail: /client id 1 is used twice/, edit: (t) => t.clients.push({ ...t.clients[0]!, name: 'other' }) },
    { name: 'a duplicate shard id', reason: 'bad-shard-ids', detail: /shard 0 is listed twice/, edit: (t) => (t.shards[1]!.id = 0) },
    { name: 'a shard id outside 0..S-1', reason: 'bad-field', detail: /shards\[1\]\.id: expected an integer in \[0, 1\]/, edit: (t) => (t.shards[1]!.id = 5) },
    { name: 'a misspelt timeout', reason: 'unknown-field', detail: /timeouts\.fastpathWaitMs: unknown field/, edit: (t) => (t['timeouts'] = { fastpathWaitMs: 3 }) },
    { name: 'a negative timeout', reason: 'bad-field', detail: /timeouts\.clockSkewMaxMs: expected an integer/, edit: (t) => (t['timeouts'] = { clockSkewMaxMs: -1 }) },
    { name: 'a missing f', reason: 'bad-field', detail: /^f: missing$/, edit: (t) => delete t['f'] },
    { name: 'a non-integer f', reason: 'bad-field', detail: /^f: expected an integer/, edit: (t) => (t['f'] = 1.5) },
  ];
  for (const c of cases) {
    void it(`refuses ${c.name} (${c.reason})`, () => {
      const r = mutated(c.edit);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.reason, c.reason, r.detail);
      assert.match(r.detail ?? '', c.detail);
    });
  }

  void it('refuses text that is not YAML, and duplicate keys', () => {
    assert.equal(parseClusterConfig('name: [').ok, false);
    const r = parseClusterConfig('name: a\nname: b\n');
    assert.deepEqual([r.ok, r.ok ? undefined : r.reason], [false, 'bad-yaml']);
  });
});

void describe('lookups', () => {
  const c = mustParse(validYaml());

  void it('publicKeyOf finds replicas and clients, and nothing else', () => {
    assert.deepEqual(publicKeyOf(c, { kind: 'replica', shard: shardId(1), index: replicaIndex(2) }), keyPairFromSeed(seed(9)).publicKey);
    assert.deepEqual(publicKeyOf(c, { kind: 'client', id: clientId(1) }), keyPairFromSeed(seed(150)).publicKey);
    assert.equal(publicKeyOf(c, { kind: 'replica', shard: shardId(2), index: replicaIndex(0) }), undefined);
    assert.equal(publicKeyOf(c, { kind: 'replica', shard: shardId(0), index: replicaIndex(6) }), undefined);
    assert.equal(publicKeyOf(c, { kind: 'client', id: clientId(2) }), undefined);
  });

  void it('identityOf maps a key back to its owner', () => {
    assert.deepEqual(identityOf(c, keyPairFromSeed(seed(9)).publicKey), { kind: 'replica', shard: 1, index: 2 });
    assert.deepEqual(identityOf(c, keyPairFromSeed(seed(150)).publicKey), { kind: 'client', id: 1 });
    assert.equal(identityOf(c, authority.publicKey), undefined);
  });

  void it('splitAddress accepts names, IPv4 and bracketed IPv6', () => {
    assert.deepEqual(splitAddress('pesto-0.pesto.svc:7100'), { host: 'pesto-0.pesto.svc', port: 7100 });
    assert.deepEqual(splitAddress('[::1]:7100'), { host: '::1', port: 7100 });
    assert.equal(splitAddress('::1:7100'), undefined);
    assert.equal(splitAddress('host:0'), undefined);
  });
});

void describe('TLS settings and certificates (decision 0026)', () => {
  /** The valid tree with every TLS certificate issued by `signer` (default: the real authority). */
  function withTls(t: Tree, signer = authority): void {
    const authorities = t['authorities'] as Record<string, unknown>[];
    authorities[0]!['tlsCertificate'] = toHex(certifyAuthorityTls(signer, 'test', 'root'));
    for (const s of t.shards) {
      for (const r of s.replicas) {
        const key = fromHex(r['publicKey'] as string)!;
        r['tlsCertificate'] = toHex(certifyMemberTls(signer, 'test', 'root', { kind: 'replica', shard: s.id as number, index: r['index'] as number }, key));
      }
    }
    for (const c of t.clients) c['tlsCertificate'] = toHex(certifyMemberTls(signer, 'test', 'root', { kind: 'client', id: c['id'] as number }, fromHex(c['publicKey'] as string)!));
  }

  void it('defaults to TCP without TLS', () => {
    assert.deepEqual(mustParse(validYaml()).transport, { wire: 'tcp', tls: false });
  });

  void it('accepts TLS with every certificate issued, and renders it back identically', () => {
    const r = mutated((t) => {
      withTls(t);
      t['transport'] = { wire: 'tcp', tls: true };
    });
    assert.ok(r.ok, r.ok ? '' : r.detail);
    assert.deepEqual(r.value.transport, { wire: 'tcp', tls: true });
    const again = parseClusterConfig(renderClusterConfig(r.value));
    assert.ok(again.ok);
    assert.deepEqual(again.value.shards[1]!.replicas[2]!.tlsCertificate, r.value.shards[1]!.replicas[2]!.tlsCertificate);
  });

  const refusals: [string, (t: Tree) => void, ConfigReason][] = [
    ['TLS on without certificates', (t) => void (t['transport'] = { tls: true }), 'missing-tls-certificate'],
    ['TLS on with one replica certificate missing', (t) => {
      withTls(t);
      delete t.shards[0]!.replicas[3]!['tlsCertificate'];
      t['transport'] = { tls: true };
    }, 'missing-tls-certificate'],
    ['a TLS certificate another key signed', (t) => withTls(t, rogue), 'bad-certificate'],
    ['a TLS certificate moved to another replica', (t) => {
      withTls(t);
      t.shards[0]!.replicas[1]!['tlsCertificate'] = t.shards[0]!.replicas[2]!['tlsCertificate'];
    }, 'bad-certificate'],
    ['an unknown wire', (t) => void (t['transport'] = { wire: 'quic' }), 'bad-field'],
    ['a misspelt transport field', (t) => void (t['transport'] = { tsl: true }), 'unknown-field'],
  ];
  for (const [what, edit, reason] of refusals) {
    void it(`refuses ${what} (${reason})`, () => {
      const r = mutated(edit);
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.reason, reason);
    });
  }

  void it('rebuilds X.509 certificates that chain to the authority and carry the member key', () => {
    const r = mutated((t) => withTls(t));
    assert.ok(r.ok);
    const { authorities, own } = tlsCertificatesOf(r.value, { kind: 'replica', shard: 1, index: 4 });
    const ca = new X509Certificate(Buffer.from(authorities[0]!));
    const leaf = new X509Certificate(Buffer.from(own!));
    assert.equal(ca.ca, true);
    assert.equal(leaf.checkIssued(ca), true);
    assert.equal(leaf.verify(ca.publicKey), true);
    assert.equal(leaf.subjectAltName, 'URI:pesto://test/replica/s1r4');
    assert.deepEqual(new Uint8Array(leaf.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)), r.value.shards[1]!.replicas[4]!.publicKey);
  });
});
