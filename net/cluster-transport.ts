/**
 * The transport a process of a cluster uses, as its configuration says (decision 0026): the wire
 * (`transport.wire`, grpc or tcp; `PESTO_TRANSPORT` overrides it in one process, for measurements)
 * and mutual TLS (`transport.tls`) with the certificates of `self` (net/tls.ts).
 */
import { DEFAULT_TRANSPORT, type ClusterConfig } from '../protocol/config.ts';
import { createGrpcTransport } from './grpc.ts';
import type { PeerIdentity } from './peer-identity.ts';
import { createTcpTransport } from './tcp.ts';
import { tlsEndpointOf } from './tls.ts';
import type { Transport } from './transport.ts';

/** `wire` from the configuration unless PESTO_TRANSPORT names one; anything else is an error. */
export function wireOf(config: ClusterConfig, env: Readonly<Record<string, string | undefined>> = process.env): 'grpc' | 'tcp' {
  const forced = env['PESTO_TRANSPORT'];
  if (forced === undefined || forced === '') return (config.transport ?? DEFAULT_TRANSPORT).wire;
  if (forced !== 'grpc' && forced !== 'tcp') throw new RangeError(`PESTO_TRANSPORT must be grpc or tcp, got ${JSON.stringify(forced)}`);
  return forced;
}

/** `self`'s transport; `secretKey` is its sodium secret key (seed ‖ public key), also its TLS key. */
export function clusterTransport(config: ClusterConfig, self: PeerIdentity, secretKey: Uint8Array, env: Readonly<Record<string, string | undefined>> = process.env): Transport {
  const tls = (config.transport ?? DEFAULT_TRANSPORT).tls ? tlsEndpointOf(config, self, secretKey) : undefined;
  const options = tls === undefined ? {} : { tls };
  return wireOf(config, env) === 'tcp' ? createTcpTransport(options) : createGrpcTransport(options);
}
