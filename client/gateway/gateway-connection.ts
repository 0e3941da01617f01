// One client connection: the socket, the startup sequence (SSLRequest and TLS, GSSENCRequest refused,
// CancelRequest, StartupMessage), SCRAM-SHA-256 authentication, then the message loop that feeds a
// GatewaySession in order. Frames are cut by a MessageFramer as bytes arrive and queued; one async loop
// consumes them, so a slow backend call never reorders replies, and the socket is paused while the
// queue is long. Any ProtocolError (malformed, oversized, unexpected) gets a FATAL ErrorResponse and
// closes this connection only.

import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import { randomBytes, randomInt } from 'node:crypto';
import { BackendWriter } from './backend-encoder.ts';
import { MessageFramer, decodeFrontend, decodeStartup, type FrontendMessage } from './frontend-decoder.ts';
import { GatewaySession } from './gateway-session.ts';
import { GatewayState, ProtocolError } from './protocol-error.ts';
import { SCRAM_MECHANISM, ScramExchange, deriveCredentials, type ScramCredentials } from './scram-auth.ts';
import { SessionSettings } from './session-settings.ts';
import type { SqlBackend } from './sql-backend.ts';
import type { RoleDef } from '../../sql/roles.ts';
import { parseScramVerifier } from '../../sql/scram-verifier.ts';

/** What a connection needs from its server. */
export interface ConnectionHost {
  readonly backend: SqlBackend;
  readonly tls: SecureContext | null;
  readonly maxMessageBytes: number;
  /** Credentials per user name; null means trust (no password asked). */
  readonly credentials: ReadonlyMap<string, ScramCredentials> | null;
  /** A catalog role's session slot; false when it has `limit` sessions open at this gateway (CONNECTION LIMIT; -1: none). */
  acquireRoleSlot(role: string, limit: number): boolean;
  releaseRoleSlot(role: string): void;
  /** Claims a session slot; false when maxConnections sessions are open. */
  acquireSlot(): boolean;
  releaseSlot(): void;
  register(processId: number, secretKey: number, conn: GatewayConnection): void;
  unregister(processId: number): void;
  cancel(processId: number, secretKey: number): void;
  nextProcessId(): number;
}

type Frame = { readonly type: number; readonly body: Buffer };

const QUEUE_HIGH = 256;
const QUEUE_LOW = 32;

export class GatewayConnection {
  private stream: Socket | TLSSocket;
  private readonly framer: MessageFramer;
  private readonly frames: Frame[] = [];
  private waiter: ((f: Frame | null) => void) | null = null;
  private ended = false;
  private paused = false;
  private readonly out = new BackendWriter();
  private session: GatewaySession | null = null;
  private processId = 0;
  private slot = false;
  /** The catalog role whose CONNECTION LIMIT slot this connection holds. */
  private roleSlot: string | null = null;
  private readonly onData = (chunk: Buffer): void => this.receive(chunk);

  constructor(
    private readonly socket: Socket,
    private readonly host: ConnectionHost,
  ) {
    this.stream = socket;
    this.framer = new MessageFramer(host.maxMessageBytes);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    this.attach(socket);
  }

  /** Runs the connection to its end; never rejects. */
  async run(): Promise<void> {
    try {
      await this.serve();
    } catch (e) {
      if (e instanceof ProtocolError) this.fatal(e.code, e.message, e.detail);
      else this.fatal(GatewayState.protocolViolation, `internal error: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await this.finish();
    }
  }

  cancelCurrent(): void {
    this.session?.requestCancel();
  }

  /**
   * Server shutdown: tell the client (57P01) and close. The message loop wakes up with end of stream,
   * so `run` rolls the session back, closes it and resolves, as soon as a statement in flight returns.
   */
  terminate(): void {
    this.fatal(GatewayState.adminShutdown, 'terminating connection due to administrator command');
  }

  /** Closes the socket at once, without a goodbye (the last step of a server shutdown). */
  destroy(): void {
    this.endOfStream();
    this.stream.destroy();
    this.socket.destroy();
  }

  private attach(s: Socket | TLSSocket): void {
    s.on('data', this.onData);
    s.on('end', () => this.endOfStream());
    s.on('close', () => this.endOfStream());
    s.on('error', () => this.endOfStream());
  }

  private receive(chunk: Buffer): void {
    if (this.ended) return;
    this.framer.push(chunk);
    try {
      for (let f = this.framer.next(); f !== null; f = this.framer.next()) this.enqueue(f);
    } catch (e) {
      const pe = e instanceof ProtocolError ? e : new ProtocolError(String(e));
      this.fatal(pe.code, pe.message);
      this.endOfStream();
    }
  }

  private enqueue(f: Frame): void {
    if (this.waiter !== null) {
      const w = this.waiter;
      this.waiter = null;
      w(f);
      return;
    }
    this.frames.push(f);
    if (this.frames.length > QUEUE_HIGH && !this.paused) {
      this.paused = true;
      this.stream.pause();
    }
  }

  private endOfStream(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiter !== null) {
      const w = this.waiter;
      this.waiter = null;
      w(null);
    }
  }

  private nextFrame(): Promise<Frame | null> {
    if (this.frames.length > 0) return Promise.resolve(this.nextQueuedFrame());
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** The first queued frame (the queue must not be empty); resumes a paused socket once it drains. */
  private nextQueuedFrame(): Frame {
    const f = this.frames.shift() as Frame;
    if (this.paused && this.frames.length < QUEUE_LOW) {
      this.paused = false;
      this.stream.resume();
    }
    return f;
  }

  private readonly nextMessage = async (): Promise<FrontendMessage | null> => {
    const f = await this.nextFrame();
    return f === null ? null : decodeFrontend(f.type, f.body);
  };

  private flush = (): void => {
    if (this.out.size === 0 || this.stream.destroyed) return;
    this.stream.write(this.out.take());
  };

  private fatal(code: string, message: string, detail?: string): void {
    this.frames.length = 0;
    if (!this.stream.destroyed) {
      this.out.errorResponse({ severity: 'FATAL', code, message, detail });
      this.flush();
      this.stream.end();
    }
    this.endOfStream();
  }

  private async serve(): Promise<void> {
    let params: ReadonlyMap<string, string> | null = null;
    let tlsDone = false;
    while (params === null) {
      const f = await this.nextFrame();
      if (f === null) return;
      const p = decodeStartup(f.body);
      switch (p.kind) {
        case 'sslRequest':
          if (this.host.tls !== null && !tlsDone) {
            this.upgrade(this.host.tls);
            tlsDone = true;
          } else this.stream.write('N');
          break;
        case 'gssEncRequest':
          this.stream.write('N');
          break;
        case 'cancel':
          this.host.cancel(p.processId, p.secretKey);
          this.stream.end();
          return;
        case 'startup':
          params = p.params;
          break;
      }
    }
    const user = params.get('user') ?? '';
    if (user === '') throw new ProtocolError('no PostgreSQL user name specified in startup packet', GatewayState.invalidAuthorization);
    const database = params.get('database') ?? user;
    if (!this.host.acquireSlot()) throw new ProtocolError('sorry, too many clients already', GatewayState.tooManyConnections);
    this.slot = true;
    const configured = this.host.credentials;
    // A configured user is a bootstrap superuser; any other name must be a catalog role (sql/roles.ts).
    const role = configured?.has(user) === true ? null : await this.host.backend.loginRole(user);
    if (configured !== null && !(await this.authenticate(user, configured.get(user) ?? (role === null ? null : roleCredentials(role))))) {
      throw new ProtocolError(`password authentication failed for user "${user}"`, GatewayState.invalidPassword);
    }
    if (role !== null) {
      if (!role.canLogin) throw new ProtocolError(`role "${user}" is not permitted to log in`, GatewayState.invalidAuthorization);
      if (!this.host.acquireRoleSlot(user, role.superuser ? -1 : role.connLimit)) throw new ProtocolError(`too many connections for role "${user}"`, GatewayState.tooManyConnections);
      this.roleSlot = user;
    }
    this.out.authenticationOk();
    // The startup packet's settings are taken once the client is authenticated, as PostgreSQL takes them:
    // a value it refuses ends the connection (FATAL) before a session opens.
    const settings = new SessionSettings(user, withOptions(params));
    const refused = settings.startupError;
    if (refused !== null) throw new ProtocolError(refused.message, refused.code, refused.detail);
    const opened = await this.host.backend.openSession(user, database, configured === null ? undefined : [...configured.keys()]);
    if (!opened.ok) throw new ProtocolError(opened.error.message, opened.error.code);
    settings.watchZone((zone) => opened.session.setTimeZone?.(zone));
    this.processId = this.host.nextProcessId();
    const secretKey = randomInt(0, 2 ** 31 - 1);
    this.host.register(this.processId, secretKey, this);
    this.session = new GatewaySession(opened.session, settings, { out: this.out, flush: this.flush, next: this.nextMessage }, this.processId);
    for (const [k, v] of settings.reported()) this.out.parameterStatus(k, v);
    this.out.backendKeyData(this.processId, secretKey);
    this.out.readyForQuery('I');
    this.flush();
    // Frames already queued (pgbench and drivers send Bind, Describe, Execute and Sync in one packet)
    // are handled without a promise each; only handlers that wait for the backend are awaited.
    for (;;) {
      const f = this.frames.length > 0 ? this.nextQueuedFrame() : await this.nextFrame();
      if (f === null) return;
      const m = decodeFrontend(f.type, f.body);
      if (m.kind === 'terminate') return;
      const pending = this.session.handle(m);
      if (pending !== undefined) await pending;
    }
  }

  private upgrade(context: SecureContext): void {
    this.socket.removeListener('data', this.onData);
    this.socket.write('S');
    const tls = new TLSSocket(this.socket, { isServer: true, secureContext: context });
    this.stream = tls;
    this.attach(tls);
  }

  /** `known`: the user's credentials; null (an unknown user, a role without a valid password) fails, after the same exchange. */
  private async authenticate(user: string, known: ScramCredentials | null): Promise<boolean> {
    // Unknown users run the exchange against throwaway credentials, so the answer looks the same.
    const creds = known ?? deriveCredentials(randomBytes(16).toString('hex'));
    this.out.authenticationSasl([SCRAM_MECHANISM]);
    this.flush();
    const first = await this.authFrame();
    if (first === null) return false;
    const exchange = new ScramExchange(creds);
    const s1 = exchange.start(first);
    if (!s1.ok) throw new ProtocolError(s1.reason, GatewayState.protocolViolation);
    this.out.authenticationSaslContinue(s1.value);
    this.flush();
    const final = await this.authFrame();
    if (final === null) return false;
    const s2 = exchange.finish(final);
    if (!s2.ok || known === null) return false;
    this.out.authenticationSaslFinal(s2.value);
    return true;
  }

  private async authFrame(): Promise<Buffer | null> {
    const m = await this.nextMessage();
    if (m === null) return null;
    if (m.kind !== 'authResponse') throw new ProtocolError(`expected SASL response, got message "${m.kind}"`);
    return m.body;
  }

  private async finish(): Promise<void> {
    this.ended = true;
    if (this.processId !== 0) this.host.unregister(this.processId);
    if (this.slot) {
      this.slot = false;
      this.host.releaseSlot();
    }
    if (this.roleSlot !== null) {
      this.host.releaseRoleSlot(this.roleSlot);
      this.roleSlot = null;
    }
    const s = this.session;
    this.session = null;
    if (s !== null) {
      try {
        await s.end();
      } catch {
        // the backend session is gone either way
      }
    }
    if (!this.stream.destroyed) this.stream.end();
  }
}

/**
 * The SCRAM credentials of a catalog role's stored verifier; null (the login fails as a wrong password
 * does, as in PostgreSQL) without a password, with a hash that is not a SCRAM verifier, or past VALID UNTIL.
 */
function roleCredentials(role: RoleDef): ScramCredentials | null {
  const v = role.password === null ? null : parseScramVerifier(role.password);
  if (v === null) return null;
  if (role.validUntil !== null && role.validUntil.micros < BigInt(Date.now()) * 1000n) return null;
  return { salt: Buffer.from(v.salt, 'base64'), iterations: v.iterations, storedKey: Buffer.from(v.storedKey, 'base64'), serverKey: Buffer.from(v.serverKey, 'base64') };
}

/** Startup parameters plus the `-c name=value` settings of the `options` parameter (PGOPTIONS). */
function withOptions(params: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(params);
  const options = params.get('options');
  if (options !== undefined) {
    for (const m of options.matchAll(/(?:-c\s*|--)([\w.]+)=((?:\\ |\S)+)/g)) out.set(m[1] as string, (m[2] as string).replace(/\\ /g, ' '));
  }
  return out;
}
