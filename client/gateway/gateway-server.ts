// The gateway's TCP server: accepts connections, enforces the connection limit, keeps the process-id
// table that CancelRequests look up, derives SCRAM credentials for the configured users once, and
// closes cleanly: every open connection gets 57P01, its session is rolled back and closed once the
// statement in flight (if any) returns, and sockets still open after a grace period are destroyed, so
// `close` always resolves (a client that never closes its end, or a backend call that takes long,
// cannot keep the process alive).

import { connect, createServer, type Server, type Socket } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import { lstatSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadModule } from 'libpg-query';
import { GatewayConnection, type ConnectionHost } from './gateway-connection.ts';
import { deriveCredentials, type ScramCredentials } from './scram-auth.ts';
import type { SqlBackend } from './sql-backend.ts';
import { loadSystemCatalog } from './system-catalog.ts';

export interface GatewayUser {
  readonly name: string;
  readonly password: string;
}

export interface GatewayOptions {
  readonly host?: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly backend: SqlBackend;
  /** Users allowed in with SCRAM-SHA-256; the string 'trust' lets anyone in without a password. */
  readonly users: readonly GatewayUser[] | 'trust';
  /** PEM certificate and key; without them SSLRequest is answered 'N'. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Concurrent sessions; one more gets FATAL 53300. Default 100. */
  readonly maxConnections?: number;
  /** Largest frontend message accepted; larger closes the connection. Default 64 MiB. */
  readonly maxMessageBytes?: number;
  /** On close, how long sessions get to finish a statement in flight before their sockets are destroyed. Default 2 s. */
  readonly closeGraceMs?: number;
  /**
   * Also listen on the Unix-domain socket `<dir>/.s.PGSQL.<port>`, where psql, pgbench and libpq look
   * for it (`-h <dir>`; PostgreSQL's unix_socket_directories). Local clients skip the TCP stack.
   */
  readonly socketDir?: string;
}

export interface Gateway {
  readonly port: number;
  readonly host: string;
  /** The Unix-domain socket's path, or null when the gateway listens on TCP only. */
  readonly socketPath: string | null;
  /** Open client connections. */
  readonly connectionCount: number;
  /** Stops accepting, ends every connection (see the header); resolves when the server is closed. Idempotent. */
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  await loadModule(); // the parser the gateway uses to split statements and read utility commands
  await loadSystemCatalog();
  const host = options.host ?? '127.0.0.1';
  const maxConnections = options.maxConnections ?? 100;
  const credentials = options.users === 'trust' ? null : new Map<string, ScramCredentials>(options.users.map((u) => [u.name, deriveCredentials(u.password)]));
  const tls: SecureContext | null = options.tls === undefined ? null : createSecureContext({ cert: options.tls.cert, key: options.tls.key });
  const connections = new Set<GatewayConnection>();
  const sockets = new Set<Socket>();
  const byProcessId = new Map<number, { secret: number; conn: GatewayConnection }>();
  let sessions = 0;
  /** Open sessions per catalog role (CONNECTION LIMIT, counted per gateway). */
  const roleSessions = new Map<string, number>();
  let processIds = 10_000;

  const connHost: ConnectionHost = {
    backend: options.backend,
    tls,
    maxMessageBytes: options.maxMessageBytes ?? 64 * 1024 * 1024,
    credentials,
    acquireSlot: () => {
      if (sessions >= maxConnections) return false;
      sessions++;
      return true;
    },
    releaseSlot: () => {
      sessions--;
    },
    acquireRoleSlot: (role, limit) => {
      const n = roleSessions.get(role) ?? 0;
      if (limit >= 0 && n >= limit) return false;
      roleSessions.set(role, n + 1);
      return true;
    },
    releaseRoleSlot: (role) => {
      const n = (roleSessions.get(role) ?? 1) - 1;
      if (n === 0) roleSessions.delete(role);
      else roleSessions.set(role, n);
    },
    register: (pid, secret, conn) => byProcessId.set(pid, { secret, conn }),
    unregister: (pid) => byProcessId.delete(pid),
    cancel: (pid, secret) => {
      const e = byProcessId.get(pid);
      if (e === undefined) return;
      const a = Buffer.alloc(4);
      const b = Buffer.alloc(4);
      a.writeInt32BE(e.secret);
      b.writeInt32BE(secret);
      if (timingSafeEqual(a, b)) e.conn.cancelCurrent();
    },
    nextProcessId: () => ++processIds,
  };

  const runs = new Map<GatewayConnection, Promise<void>>();
  const accept = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const conn = new GatewayConnection(socket, connHost);
    connections.add(conn);
    runs.set(conn, conn.run().finally(() => {
      connections.delete(conn);
      runs.delete(conn);
    }));
  };
  // Half-open: a client may send its last messages and FIN before the gateway has answered them (a
  // login that reads the cluster's catalog takes a while); the answers still go out, and the gateway
  // ends the connection itself once it has run what arrived (GatewayConnection.finish), as PostgreSQL does.
  const server: Server = createServer({ allowHalfOpen: true }, accept);
  await listen(server, { port: options.port, host });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const socketPath = options.socketDir === undefined ? null : join(options.socketDir, `.s.PGSQL.${port}`);
  const local: Server | null = socketPath === null ? null : createServer({ allowHalfOpen: true }, accept);
  if (local !== null && socketPath !== null) {
    try {
      await listenOnPath(local, socketPath);
    } catch (e) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw e;
    }
  }

  const graceMs = options.closeGraceMs ?? 2000;
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    const closed = Promise.all([server, ...(local === null ? [] : [local])].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    for (const c of connections) c.terminate();
    if (runs.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled(runs.values()), grace]);
      clearTimeout(timer);
    }
    for (const c of connections) c.destroy();
    for (const s of sockets) s.destroy();
    await closed;
  };

  return {
    port,
    host,
    socketPath,
    get connectionCount() {
      return sockets.size;
    },
    close: () => (closing ??= close()),
  };
}

function listen(server: Server, at: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Listens on a Unix-domain socket path. A socket file left by a gateway that did not close (a crash) is
 * removed first when nothing answers on it; one a live server answers on is an error, as PostgreSQL's
 * "is another postmaster already running" is. Node removes the file when the server closes.
 */
async function listenOnPath(server: Server, path: string): Promise<void> {
  try {
    await listen(server, { path });
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
  }
  if (await answers(path)) throw new Error(`the socket ${path} is in use by another server`);
  if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket`);
  unlinkSync(path);
  await listen(server, { path });
}

function answers(path: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
