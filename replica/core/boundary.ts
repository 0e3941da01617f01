/**
 * The checks a replica runs on every decoded message before its core sees it (DESIGN §2: the
 * shell authenticates and validates at the boundary). Pure, so the production shell and the
 * simulator run exactly the same code. Returns a rejection reason (counted by the caller) or null.
 */
import type { CertificateVerifier } from '../../protocol/certificate.ts';
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import type { Message, Txn, Writeback } from '../../protocol/messages.ts';
import { logShardOf } from '../../protocol/sharding.ts';
import { assertNever } from '../../protocol/errors.ts';

export function checkAtReplica(msg: Message, verifier: CertificateVerifier, knownTxn: (key: DigestKey) => Txn | null): string | null {
  switch (msg.kind) {
    case 'read':
    case 'prepare':
    case 'query':
    case 'fetch':
      return null;
    case 'fetchReply':
      // Each supplied outcome must carry a valid certificate; undecided supplies are validated by the core.
      for (const wb of msg.decided) {
        const r = verifier.verifyCertificate(wb.digest, wb.cert, wb.txn!.body.shards, wb.txn!.body);
        if (!r.ok) return `fetched-${r.reason}`;
      }
      return null;
    case 'decide': {
      const r = verifier.verifyJustification(msg);
      return r.ok ? null : `decide-${r.reason}`;
    }
    case 'writeback': {
      const txn = msg.txn ?? knownTxn(digestKey(msg.digest));
      if (txn === null) return 'writeback-unknown-txn';
      const r = verifier.verifyCertificate(msg.digest, msg.cert, txn.body.shards, txn.body);
      return r.ok ? null : `writeback-${r.reason}`;
    }
    case 'elect': {
      const r = verifier.verifyJustification(msg.decide);
      if (!r.ok) return `elect-${r.reason}`;
      return msg.view >= 1 ? null : 'elect-bad-view';
    }
    case 'decisionFb': {
      const r = verifier.verifyDecisionFb(msg);
      return r.ok ? null : `decision-${r.reason}`;
    }
    case 'readReply':
    case 'prepareReply':
    case 'decideReply':
    case 'relay':
    case 'electReply':
    case 'queryReply':
      return 'unexpected-kind';
  }
}

/** The shell verified signatures against the digest; the core checks the certificate names the right shards. */
export function certCoversShards(wb: Writeback, txn: Txn): boolean {
  const shards = txn.body.shards;
  const cert = wb.cert;
  switch (cert.kind) {
    case 'votes':
      if (cert.votes.decision === 'commit') {
        return cert.votes.shards.length === shards.length && cert.votes.shards.every((s, i) => s.shard === shards[i]);
      }
      return cert.votes.shards.length === 1 && shards.includes(cert.votes.shards[0]!.shard);
    case 'st2':
      return cert.st2.logShard === logShardOf(txn.digest, shards);
    case 'conflict':
      return true;
    default:
      return assertNever(cert, 'certificate');
  }
}
