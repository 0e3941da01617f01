/**
 * What cpu-sample.mjs and heap-sample.mjs share: in the process that loads them, after `startMs` it
 * sends the inspector commands `start` in order, `durationMs` later `stop`, and writes the result's
 * `profile` as JSON to `dir/file`. Timers are unref'd: a process that ends sooner writes nothing.
 * Plain JavaScript, loaded before tsx's loader; nothing in Pesto imports it.
 */
import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {{ name: string, dir: string, file: string, startMs: number, durationMs: number,
 *   start: [string, object?][], stop: string }} o
 */
export function profileWindow(o) {
  const session = new Session();
  session.connect();
  const fail = (what, err) => process.stderr.write(`${o.name}: ${what}: ${err.message}\n`);
  const run = (steps, then) => {
    if (steps.length === 0) return then();
    const [method, params] = steps[0];
    session.post(method, params, (err) => (err ? fail(method, err) : run(steps.slice(1), then)));
  };
  const write = (err, result) => {
    if (err) return fail(o.stop, err);
    mkdirSync(o.dir, { recursive: true });
    writeFileSync(join(o.dir, o.file), JSON.stringify(result.profile));
  };
  setTimeout(() => run(o.start, () => setTimeout(() => session.post(o.stop, write), o.durationMs).unref()), o.startMs).unref();
}
