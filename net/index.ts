/**
 * The transport shared by the replica shell, the client shell and the benchmarks (decisions 0003,
 * 0026). Import from here: `clusterTransport` (what a cluster's configuration asks for: the wire and
 * TLS), the plaintext `grpcTransport` and `tcpTransport`, the `Link` interface, identities and the
 * process-wide counters.
 */
export { clusterTransport, wireOf } from './cluster-transport.ts';
export { createTcpTransport, tcpTransport, type TcpTransportOptions } from './tcp.ts';
export { grpcTransport, createGrpcTransport, peerService, STREAM_PATH, type GrpcTransportOptions } from './grpc.ts';
export { tlsEndpointOf, TlsConfigError, type TlsEndpoint } from './tls.ts';
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

