// Notices with a DETAIL, and DROP ... CASCADE's one notice per statement, as PostgreSQL 15 sends them.
//
// A statement's notices travel as texts (ExecResult.notices; a DDL outcome's joined by '\n'). A notice
// with a DETAIL is its message followed by one line per detail line, each marked by DETAIL_LINE (NUL,
// which no message holds: the wire's strings are C strings); `splitNotices` reads them back for the
// gateway's NoticeResponse.
//
// DROP ... CASCADE: each object a drop takes with it is noted with `cascaded` ("view v", "constraint c
// on table t") where it is found, and `outcomeNotices` turns them into PostgreSQL's single notice at the
// place of the first: "drop cascades to view v" for one, else "drop cascades to N other objects" with
// the DETAIL "drop cascades to view v\ndrop cascades to ..." in the order they were found.

import type { DdlOutcome } from './ddl-build.ts';

/** Marks a detail line of a notice's text. */
const DETAIL_LINE = '\u0000';
/** Marks an object dropped by CASCADE among a DDL outcome's notices. */
const CASCADED = '\u0001';

/** A notice with DETAIL lines, as one notice text. */
export function noticeWithDetail(message: string, detail: readonly string[]): string {
  return [message, ...detail.flatMap((d) => d.split('\n')).map((l) => DETAIL_LINE + l)].join('\n');
}

/** An object DROP ... CASCADE drops with the one named (`what`: "view v"), to be reported by outcomeNotices. */
export function cascaded(what: string): string {
  return CASCADED + what;
}

/** A DDL outcome's notices, the objects dropped by CASCADE in one notice where the first was noted. */
export function outcomeNotices(out: DdlOutcome): string[] | undefined {
  if (out.notice === undefined) return undefined;
  const lines = out.notice.split('\n');
  const gone = lines.filter((l) => l.startsWith(CASCADED)).map((l) => `drop cascades to ${l.slice(1)}`);
  if (gone.length === 0) return [out.notice];
  const merged = gone.length === 1 ? gone[0]! : noticeWithDetail(`drop cascades to ${gone.length} other objects`, gone);
  const out2: string[] = [];
  let placed = false;
  for (const l of lines) {
    if (!l.startsWith(CASCADED)) out2.push(l);
    else if (!placed) {
      out2.push(merged);
      placed = true;
    }
  }
  return [out2.join('\n')];
}

/** The notices in texts (each possibly several, joined by '\n'): each message with its DETAIL, if any. */
export function splitNotices(texts: readonly string[]): { message: string; detail?: string }[] {
  const out: { message: string; detail?: string }[] = [];
  for (const line of texts.flatMap((t) => t.split('\n'))) {
    const last = out[out.length - 1];
    if (line.startsWith(DETAIL_LINE) && last !== undefined) {
      const d = line.slice(1);
      out[out.length - 1] = { message: last.message, detail: last.detail === undefined ? d : `${last.detail}\n${d}` };
    } else {
      out.push({ message: line });
    }
  }
  return out;
}
