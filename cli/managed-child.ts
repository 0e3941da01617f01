/**
 * One supervised child process: spawn, wait for its ready line, log its output to a file, stop it.
 *
 * Contract with the child (replica/main.ts honours it; so does cli/testdata/fake-replica.ts): it prints one
 * JSON line with `"event": "ready"` on stdout once it serves, logs to stderr, and exits on SIGTERM. Every
 * output line goes to the child's log file, prefixed with the time, the child's name and the stream; the
 * terminal sees none of it. The last lines are kept so start failures can quote them.
 *
 * Children run in their own process group (`detached`), so Ctrl-C in a terminal reaches only the
 * supervisor, which then stops them with SIGTERM (and SIGKILL after a grace period) instead of every
 * process receiving SIGINT at once. If the supervisor itself exits, `killAllSync` is its last resort; a
 * supervisor killed with SIGKILL leaves its children running (they are easy to find by their log names).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** A child did not become ready: it exited first, or the timeout passed. */
export class ChildStartError extends Error {
  override readonly name = 'ChildStartError';
}

export interface ChildSpec {
  /** Short name for logs and errors, e.g. `s0r3`. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logPath: string;
  readonly readyTimeoutMs: number;
  /** Whether a JSON object printed on stdout is this child's ready announcement. */
  readonly isReady: (line: Readonly<Record<string, unknown>>) => boolean;
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the supervisor asked for it (stop, kill, restart). */
  readonly expected: boolean;
}

export type ChildState = 'idle' | 'starting' | 'ready' | 'stopping' | 'exited';

const TAIL_LINES = 12;

export class ManagedChild {
  private child: ChildProcess | undefined;
  private exitPromise: Promise<ChildExit> | undefined;
  private log: WriteStream | undefined;
  private expectingExit = false;
  private readonly tail: string[] = [];
  state: ChildState = 'idle';
  /** The parsed ready line of the current run. */
  readyInfo: Readonly<Record<string, unknown>> | undefined;
  /** Called once per run when the child exits (expected or not). */
  onExit: ((exit: ChildExit) => void) | undefined;

  constructor(readonly spec: ChildSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== undefined && this.state !== 'exited' && this.state !== 'idle';
  }

  /** Spawns the child and resolves once it announced readiness; rejects (after killing it) otherwise. */
  start(): Promise<void> {
    if (this.alive) return Promise.reject(new Error(`${this.spec.name} is already running`));
    const { spec } = this;
    mkdirSync(dirname(spec.logPath), { recursive: true });
    this.log = createWriteStream(spec.logPath, { flags: 'a' });
    this.tail.length = 0;
    this.expectingExit = false;
    this.readyInfo = undefined;
    this.state = 'starting';
    const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: { ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    this.write('supervisor', `started pid ${child.pid ?? '?'}: ${spec.command} ${spec.args.join(' ')}`);
    const log = this.log;

    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (err: Error | undefined): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err === undefined) resolve();
        else reject(err);
      };
      const timer = setTimeout(() => {
        this.write('supervisor', `not ready after ${spec.readyTimeoutMs} ms; killing it`);
        settle(new ChildStartError(`${spec.name} was not ready within ${formatMs(spec.readyTimeoutMs)}; see its log ${spec.logPath}${this.quoteTail()}`));
        void this.kill('SIGKILL');
      }, spec.readyTimeoutMs);

      this.exitPromise = new Promise<ChildExit>((resolveExit) => {
        child.once('error', (e) => {
          this.write('supervisor', `spawn failed: ${e.message}`);
          this.state = 'exited';
          settle(new ChildStartError(`${spec.name} could not be spawned: ${e.message}`));
          resolveExit({ code: null, signal: null, expected: this.expectingExit });
        });
        // 'close', not 'exit': it comes after the child's stdout and stderr are drained into the log.
        child.once('close', (code, signal) => {
          const exit: ChildExit = { code, signal, expected: this.expectingExit };
          this.write('supervisor', `exited with ${signal === null ? `code ${code ?? '?'}` : `signal ${signal}`}${exit.expected ? '' : ' (unexpected)'}`);
          this.state = 'exited';
          settle(new ChildStartError(`${spec.name} exited (${signal ?? `code ${code ?? '?'}`}) before it was ready; see its log ${spec.logPath}${this.quoteTail()}`));
          resolveExit(exit);
          this.onExit?.(exit);
          log.end();
        });
      });

      this.lines(child.stderr, (line) => this.write('stderr', line));
      this.lines(child.stdout, (line) => {
        const parsed = parseJsonObject(line);
        if (this.state === 'starting' && parsed !== undefined && spec.isReady(parsed)) {
          this.readyInfo = parsed;
          this.state = 'ready';
          this.write('supervisor', `ready: ${line}`);
          settle(undefined);
        } else {
          this.write('stdout', line);
        }
      });
    });
  }

  /** Sends `signal` and resolves when the child has exited. The exit is reported as expected. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ChildExit | undefined> {
    const child = this.child;
    if (child === undefined || this.state === 'exited' || this.state === 'idle') return undefined;
    this.expectingExit = true;
    this.write('supervisor', `sending ${signal}`);
    try {
      child.kill(signal);
    } catch {
      // already gone: the exit event follows
    }
    return this.exitPromise;
  }

  /** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. */
  async stop(graceMs: number): Promise<ChildExit | undefined> {
    if (!this.alive) return undefined;
    this.state = 'stopping';
    const exited = this.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const first = await Promise.race([exited, late]);
    clearTimeout(timer);
    if (first !== 'late') return first;
    this.write('supervisor', `still running ${graceMs} ms after SIGTERM`);
    return this.kill('SIGKILL');
  }

  /** Last resort when the supervisor is exiting: synchronous SIGKILL. */
  killSync(): void {
    if (this.alive) {
      this.expectingExit = true;
      try {
        this.child?.kill('SIGKILL');
      } catch {
        // gone
      }
    }
  }

  private write(stream: 'stdout' | 'stderr' | 'supervisor', line: string): void {
    this.tail.push(`${stream}: ${line}`);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    if (this.log !== undefined && !this.log.writableEnded) this.log.write(`${new Date().toISOString()} ${this.spec.name} ${stream} | ${line}\n`);
  }

  private quoteTail(): string {
    const lines = this.tail.filter((l) => !l.startsWith('supervisor: '));
    return lines.length === 0 ? ' (it wrote nothing)' : `; its last lines:\n    ${lines.join('\n    ')}`;
  }

  private lines(stream: Readable | null, onLine: (line: string) => void): void {
    if (stream === null) return;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
  }
}

function parseJsonObject(line: string): Readonly<Record<string, unknown>> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
