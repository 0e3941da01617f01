/**
 * Process-wide counters of real ed25519 operations, read by benchmarks and metrics
 * (DESIGN §10: "count signatures and verifications per transaction and drive them down").
 *
 * Caveat: one object per process. In the simulator every simulated replica and client shares it,
 * so read it as a cluster total there.
 */
export interface CryptoStats {
  /** ed25519 signatures made (one per Merkle batch root). */
  signatures: number;
  /** ed25519 verifications actually run (verified-root cache misses included, hits excluded). */
  verifications: number;
}

export const cryptoStats: CryptoStats = { signatures: 0, verifications: 0 };

export function resetCryptoStats(): void {
  cryptoStats.signatures = 0;
  cryptoStats.verifications = 0;
}
