/**
 * The checks a client runs on every decoded reply before its core sees it: vote and ST2 signatures
 * (the signer must be the replica on that link), commit proofs of read values (verified once per
 * writer: `verifiedCommits` caches digests), and abort proofs (the conflict must be real). Pure, so
 * the production shell and the simulator run the same code. Returns a rejection reason, 'late' for
 * a reply nobody waits for any more, or null.
 */
import { provesConflict, type CertificateVerifier } from '../../protocol/certificate.ts';
import { bytesEqual } from '../../protocol/codec.ts';
import { digestKey, type DigestKey, type ReplicaRef } from '../../protocol/ids.ts';
import type { Message, Txn } from '../../protocol/messages.ts';

export interface ClientBoundary {
  readonly verifier: CertificateVerifier;
  /** The transaction a commit or recovery request belongs to. */
  txnOfReq(req: number): Txn | null;
  readonly verifiedCommits: Set<DigestKey>;
}

const VERIFIED_COMMITS_MAX = 100_000;

export function checkAtClient(b: ClientBoundary, from: ReplicaRef, msg: Message): string | null {
  switch (msg.kind) {
    case 'readReply': {
      // A committed version without its proof is accepted only if f+1 replies report it (point-read.ts).
      const proof = msg.committed?.proof ?? null;
      if (proof === null) return null;
      const key = proof.txn.key;
      if (b.verifiedCommits.has(key)) return null;
      const r = b.verifier.verifyCommitted(proof);
      if (!r.ok) return `read-proof-${r.reason}`;
      if (b.verifiedCommits.size >= VERIFIED_COMMITS_MAX) b.verifiedCommits.clear();
      b.verifiedCommits.add(key);
      return null;
    }
    case 'prepareReply': {
      if (msg.shard !== from.shard) return 'vote-wrong-shard';
      const txn = b.txnOfReq(msg.req);
      // A vote for a transaction already decided (e.g. the sixth after a slow commit) is not needed.
      if (txn === null) return 'late';
      // Bytes, not `digestKey`: no hex string per vote (decision 0055).
      if (!bytesEqual(txn.digest, msg.digest)) return 'vote-wrong-txn';
      if (msg.decided !== null) {
        const r = b.verifier.verifyCertificate(msg.digest, msg.decided.cert, txn.body.shards, txn.body);
        return r.ok ? null : `decided-${r.reason}`;
      }
      if (msg.decision === 'abort') {
        const conflict = msg.conflict;
        if (conflict === null) return 'abort-without-proof';
        if (!provesConflict(txn.body, conflict.txn.body)) return 'abort-not-conflicting';
        const r = b.verifier.verifyCommitted(conflict);
        return r.ok ? null : `abort-proof-${r.reason}`;
      }
      const sig = msg.sig;
      if (sig === null) return 'vote-unsigned';
      if (sig.signer !== from.index) return 'vote-wrong-signer';
      const r = b.verifier.verifyVote(msg.digest, msg.shard, msg.decision, sig);
      return r.ok ? null : `vote-${r.reason}`;
    }
    case 'decideReply': {
      if (msg.sig.signer !== from.index || msg.logShard !== from.shard) return 'st2-wrong-signer';
      const r = b.verifier.verifyDecideReply(msg);
      return r.ok ? null : `st2-${r.reason}`;
    }
    case 'electReply': {
      if (msg.sig.signer !== from.index || msg.logShard !== from.shard) return 'elect-wrong-signer';
      const r = b.verifier.verifyElectReply(msg);
      return r.ok ? null : `elect-${r.reason}`;
    }
    case 'relay':
    case 'queryReply':
      return null;
    case 'query':
    case 'fetch':
    case 'fetchReply':
    case 'read':
    case 'prepare':
    case 'decide':
    case 'writeback':
    case 'elect':
    case 'decisionFb':
      return 'unexpected-kind';
  }
}
