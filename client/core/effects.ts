/**
 * What the client core asks its shell to do (DESIGN §2): send a message to a replica, arm a timer,
 * or hand an operation's result to the caller. Timers are identified by number; the core ignores a
 * timer it no longer cares about, so the shell never needs to cancel one.
 */
import type { ReplicaRef } from '../../protocol/ids.ts';
import type { Message } from '../../protocol/messages.ts';
import type { OpResult } from './results.ts';

export type ClientEffect =
  | { readonly kind: 'send'; readonly to: ReplicaRef; readonly msg: Message }
  | { readonly kind: 'timer'; readonly id: number; readonly afterMs: number }
  | { readonly kind: 'done'; readonly op: number; readonly result: OpResult }
  /** A range read's result as one replica sent it, before 3f+1 agree (QuerySpec.early); `done` follows. */
  | { readonly kind: 'early'; readonly op: number; readonly result: Uint8Array };

export interface ClientEnv {
  nowMicros(): number;
  /** Uniform in [0, 1); seeded in the simulator. */
  random(): number;
}

/** Collects effects and hands out request and timer ids. */
export class Outbox {
  #effects: ClientEffect[] = [];
  #nextReq = 1;
  #nextTimer = 1;

  send(to: ReplicaRef, msg: Message): void {
    this.#effects.push({ kind: 'send', to, msg });
  }

  timer(afterMs: number): number {
    const id = this.#nextTimer++;
    this.#effects.push({ kind: 'timer', id, afterMs });
    return id;
  }

  done(op: number, result: OpResult): void {
    this.#effects.push({ kind: 'done', op, result });
  }

  early(op: number, result: Uint8Array): void {
    this.#effects.push({ kind: 'early', op, result });
  }

  req(): number {
    const r = this.#nextReq;
    this.#nextReq = r >= 0x7fff_ffff ? 1 : r + 1;
    return r;
  }

  take(): ClientEffect[] {
    const e = this.#effects;
    this.#effects = [];
    return e;
  }
}
