/**
 * Signs replica statements in Merkle batches (DESIGN §3, decision of the commit-path model): every
 * statement asked for during one event-loop turn goes under one ed25519 signature at the end of the
 * turn (`setImmediate`), up to `batchMax` leaves per signature. Idle, that is a batch of one signed
 * at once; under load the batches fill by themselves, with no timer adding latency.
 * The signer puts its own roots into the verified-root cache, so it never verifies itself.
 */
import type { PairwiseMacs } from '../../protocol/crypto/mac.ts';
import { signBatchWithRoot, type VerifiedRootCache } from '../../protocol/crypto/signed.ts';
import type { SigProof } from '../../protocol/messages.ts';

export class BatchSigner<R> {
  #leaves: Uint8Array[] = [];
  #refs: R[] = [];
  #scheduled = false;
  batches = 0;
  signed = 0;

  constructor(
    readonly secretKey: Uint8Array,
    readonly publicKey: Uint8Array,
    readonly signer: number,
    readonly batchMax: number,
    readonly cache: VerifiedRootCache,
    readonly deliver: (ref: R, proof: SigProof) => void,
    /** Attaches a MAC vector to the proofs of leaves this says need one (votes; decision 0007). */
    readonly macs: { readonly keys: PairwiseMacs; readonly wants: (ref: R) => boolean } | null = null,
    /** Flush at the end of each turn by itself; false when the owner calls `flush` (after its log). */
    readonly autoFlush = true,
  ) {}

  add(leaf: Uint8Array, ref: R): void {
    this.#leaves.push(leaf);
    this.#refs.push(ref);
    if (this.autoFlush && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.flush);
    }
  }

  readonly flush = (): void => {
    this.#scheduled = false;
    this.sign(this.take());
  };

  /** The statements asked for so far, removed from the queue (to sign once their log records are durable). */
  take(): { readonly leaves: Uint8Array[]; readonly refs: R[] } {
    const taken = { leaves: this.#leaves, refs: this.#refs };
    this.#leaves = [];
    this.#refs = [];
    return taken;
  }

  get pending(): number {
    return this.#leaves.length;
  }

  /** Signs taken statements in batches of at most `batchMax` and delivers each proof. */
  sign({ leaves, refs }: { readonly leaves: readonly Uint8Array[]; readonly refs: readonly R[] }): void {
    for (let start = 0; start < leaves.length; start += this.batchMax) {
      const end = Math.min(leaves.length, start + this.batchMax);
      const batch = signBatchWithRoot(leaves.slice(start, end), this.secretKey, this.signer);
      this.cache.remember(this.publicKey, batch.root, batch.rootSignature);
      this.batches++;
      this.signed += end - start;
      for (let i = start; i < end; i++) {
        const proof = batch.proofs[i - start]!;
        const ref = refs[i]!;
        // One object shape for every proof, with or without MACs (SigProof's note).
        const macs = this.macs !== null && this.macs.wants(ref) ? this.macs.keys.vector(leaves[i]!) : undefined;
        this.deliver(ref, { signer: proof.signer, rootSignature: proof.rootSignature, index: proof.index, path: proof.path, macs });
      }
    }
  }
}
