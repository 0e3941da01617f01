/**
 * An in-memory transport for the one-process measurement scripts (micro-kv.ts, micro-ycsb.ts): the real
 * links (FramedLink coalescing, Session framing checks, the ed25519 handshake), with each frame handed
 * to the peer's session in a later event-loop turn instead of through gRPC and a socket. `handling`
 * accumulates the CPU time spent handling received frames, by the role of the receiving end.
 */
import { FramedLink } from '../net/framed-link.ts';
import { DialerHandshake, ServerHandshake } from '../net/handshake.ts';
import { Session, type Wire } from '../net/session.ts';
import { resolveLimits, type DialedLink, type DialOptions, type ListenOptions, type Transport, type TransportServer } from '../net/transport.ts';

/** Where received-frame handling CPU time goes, by the role of the receiving end (getrusage: ~1 µs per frame of its own). */
export const handling = { replicaMs: 0, clientMs: 0 };

/** One direction of an in-memory stream: frames reach the other end's session in a later turn. */
class MemoryWire implements Wire {
  readonly headerBytes = 0;
  peer: Session | undefined;
  #done = false;
  readonly #queue: Buffer[] = [];
  #scheduled = false;
  constructor(readonly receiverIsReplica: boolean) {}
  write(frame: Buffer): boolean {
    if (this.#done) return true;
    this.#queue.push(frame);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#deliver);
    }
    return true;
  }
  readonly #deliver = (): void => {
    this.#scheduled = false;
    const t0 = process.cpuUsage();
    const frames = this.#queue.splice(0);
    for (const f of frames) this.peer?.receiveFrame(f);
    const d = process.cpuUsage(t0);
    const ms = (d.user + d.system) / 1000;
    if (this.receiverIsReplica) handling.replicaMs += ms;
    else handling.clientMs += ms;
  };
  onceDrain(callback: () => void): void {
    setImmediate(callback);
  }
  close(): void {
    if (this.#done) return;
    this.#done = true;
    const peer = this.peer;
    setImmediate(() => peer?.ended());
  }
}

/** The transport: servers by port, each dial opens a pair of sessions joined by two wires. */
export function memoryTransport(): Transport {
  const servers = new Map<number, ListenOptions>();
  return {
    name: 'tcp',
    listen: (options: ListenOptions): Promise<TransportServer> => {
      const port = options.port ?? 0;
      servers.set(port, options);
      return Promise.resolve({ port, linkCount: 0, close: () => Promise.resolve(void servers.delete(port)) });
    },
    dial: (options: DialOptions): DialedLink => {
      const limits = resolveLimits(options.limits);
      const connect = (link: FramedLink): void => {
        const server = servers.get(options.port);
        if (server === undefined) throw new Error(`nothing listens on ${options.port}`);
        const toServer = new MemoryWire(server.identity.kind === 'replica');
        const toDialer = new MemoryWire(options.identity.kind === 'replica');
        const dialerSession = new Session(toServer, link, new DialerHandshake(options, options.peer), limits);
        link.adopt(dialerSession);
        const serverLimits = resolveLimits(server.limits);
        const serverLink = new FramedLink(serverLimits, { onOpened: (l) => server.onLink(l) }, undefined);
        const handshake = new ServerHandshake(server);
        const serverSession = new Session(toDialer, serverLink, handshake, serverLimits);
        serverLink.adopt(serverSession);
        toServer.peer = serverSession;
        toDialer.peer = dialerSession;
        dialerSession.start(undefined);
        serverSession.start(handshake.hello());
      };
      const link = new FramedLink(limits, { connect, backoff: { initialMs: 50, maxMs: 1000 } }, options.peer);
      link.start();
      return link;
    },
  };
}

