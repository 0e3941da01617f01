/**
 * The checks a replica runs on every decoded message before its core sees it (DESIGN §2: the
 * shell authenticates and validates at the boundary). Pure, so the production shell and the
 * simulator run exactly the same code. Returns a rejection reason (counted by the caller) or null.
 */
import type { CertificateVerifier } from '../../protocol/certificate.ts';
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import type { Message, Txn } from '../../protocol/messages.ts';

export function checkAtReplica(msg: Message, verifier: CertificateVerifier, knownTxn: (key: DigestKey) => Txn | null): string | null {
  switch (msg.kind) {
    case 'read':
    case 'prepare':
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
      return 'unexpected-kind';
  }
}
