/**
 * The transport shared by the replica shell, the client shell and the benchmarks (decision 0003).
 * Import from here: `grpcTransport` (default) or `tcpTransport` (measured alternative), the `Link` interface, identities
 * and the process-wide counters.
 */
export { tcpTransport } from './tcp.ts';
export { grpcTransport, createGrpcTransport, peerService, STREAM_PATH, type GrpcCredentialOptions } from './grpc.ts';
export type { EndpointKeys } from './handshake.ts';
export { clientPeer, peerKey, replicaPeer, samePeer, type PeerIdentity } from './peer-identity.ts';
export {
  DEFAULT_BACKOFF,
  DEFAULT_LIMITS,
  type BackoffOptions,
  type CloseHandler,
  type CloseReason,
  type DialedLink,
  type DialOptions,
  type EndpointOptions,
  type Link,
  type LinkStats,
  type ListenOptions,
  type MessageHandler,
  type Transport,
  type TransportLimits,
  type TransportServer,
} from './transport.ts';
export { DROP_REASONS, REJECT_REASONS, transportStats, type DropReason, type RejectReason, type TransportStats } from './transport-stats.ts';

import { grpcTransport as grpcDefault } from './grpc.ts';
import { tcpTransport as tcpAlternative } from './tcp.ts';
import type { Transport as AnyTransport } from './transport.ts';

/** gRPC (the default), or plain TCP framing when `PESTO_TRANSPORT=tcp` (for measurements, decision 0003). */
export function transportFromEnv(): AnyTransport {
  return process.env['PESTO_TRANSPORT'] === 'tcp' ? tcpAlternative : grpcDefault;
}
