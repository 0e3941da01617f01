/**
 * The client shell's timers (DESIGN §2: the core asks for timers by id and ignores those it no
 * longer needs). Every point read, ST1 and ST2 arms one, and almost none of them matters by the time
 * it fires, so one Node timer per core timer was pure overhead: a `Timeout` object, its list, its
 * callback. Here core timers wait in a binary heap of deadlines under a single Node timer armed for
 * the earliest one.
 *
 * Due timers are handed over in the check phase of the event loop (`setImmediate`), after the poll
 * phase: on a loaded machine the loop falls behind, and a timer that fires first would send retries
 * and resends for replies that are already read off the socket and only wait their turn.
 */
export class TimerQueue {
  /** Deadlines (ms, `performance.now()` clock) and ids, a binary min-heap over `#at`. */
  #at: number[] = [];
  #ids: number[] = [];
  #armed: NodeJS.Timeout | null = null;
  #armedAt = Infinity;
  #closed = false;

  constructor(
    /** Called once per turn with every id whose deadline has passed, in deadline order. */
    private readonly fire: (ids: readonly number[]) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.#at.length;
  }

  add(id: number, afterMs: number): void {
    if (this.#closed) return;
    const at = this.now() + afterMs;
    this.#push(at, id);
    if (at < this.#armedAt - 1) this.#arm(at);
  }

  close(): void {
    this.#closed = true;
    if (this.#armed !== null) clearTimeout(this.#armed);
    this.#armed = null;
    this.#at = [];
    this.#ids = [];
  }

  #arm(at: number): void {
    if (this.#armed !== null) clearTimeout(this.#armed);
    this.#armedAt = at;
    this.#armed = setTimeout(this.#onTimeout, Math.max(0, at - this.now()));
    this.#armed.unref();
  }

  readonly #onTimeout = (): void => {
    this.#armed = null;
    this.#armedAt = Infinity;
    setImmediate(this.#run);
  };

  readonly #run = (): void => {
    if (this.#closed) return;
    const now = this.now();
    const due: number[] = [];
    while (this.#at.length > 0 && this.#at[0]! <= now) due.push(this.#pop());
    if (this.#at.length > 0 && this.#at[0]! < this.#armedAt) this.#arm(this.#at[0]!);
    if (due.length > 0) this.fire(due);
  };

  #push(at: number, id: number): void {
    const a = this.#at;
    const ids = this.#ids;
    let i = a.length;
    a.push(at);
    ids.push(id);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]! <= at) break;
      a[i] = a[p]!;
      ids[i] = ids[p]!;
      i = p;
    }
    a[i] = at;
    ids[i] = id;
  }

  #pop(): number {
    const a = this.#at;
    const ids = this.#ids;
    const top = ids[0]!;
    const lastAt = a.pop()!;
    const lastId = ids.pop()!;
    const n = a.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && a[r]! < a[l]! ? r : l;
        if (a[c]! >= lastAt) break;
        a[i] = a[c]!;
        ids[i] = ids[c]!;
        i = c;
      }
      a[i] = lastAt;
      ids[i] = lastId;
    }
    return top;
  }
}
