// A SET statement's value as PostgreSQL's flatten_set_variable_args writes it before the setting checks
// it: constants by their text joined with ', ', and an interval constant (SET TIME ZONE INTERVAL '+02:00'
// HOUR TO MINUTE) as INTERVAL '<its output>'. Shared by the engine's sessions and the gateway's.

import type { Node } from 'libpg-query';
import { formatInterval, parseInterval } from './interval.ts';

function argText(n: Node): string | null {
  if ('A_Const' in n) {
    const c = n.A_Const;
    if (c.sval !== undefined) return c.sval.sval ?? '';
    if (c.ival !== undefined) return String(c.ival.ival ?? 0);
    if (c.fval !== undefined) return c.fval.fval ?? '';
    if (c.boolval !== undefined) return c.boolval.boolval === true ? 'on' : 'off';
  }
  if ('TypeCast' in n && n.TypeCast.arg !== undefined) {
    const inner = argText(n.TypeCast.arg);
    const type = (n.TypeCast.typeName?.names ?? []).map((x) => ('String' in x ? x.String.sval : '')).at(-1);
    if (inner === null || type !== 'interval') return inner;
    // The interval's output when it reads as one; the text as given otherwise (the setting then refuses it).
    // Its fields (HOUR TO MINUTE) are not applied: Pesto's intervals take no typmod.
    try {
      return `INTERVAL '${formatInterval(parseInterval(inner)).replace(/'/g, "''")}'`;
    } catch {
      return `INTERVAL '${inner.replace(/'/g, "''")}'`;
    }
  }
  if ('String' in n) return n.String.sval ?? '';
  return null;
}

/** The value text of SET name = args. */
export function setValueText(args: readonly Node[]): string {
  return args.map(argText).filter((x) => x !== null).join(', ');
}
