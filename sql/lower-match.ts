// Binding of pattern matching: LIKE / ILIKE (evaluated by like.ts) and the regular expression operators
// ~ ~* !~ !~*, SIMILAR TO and the regexp_* functions (regex-eval.ts). The operators become calls of
// PostgreSQL's functions behind them (textregexeq, ...), so a scan predicate carries them like any other
// function call and a replica evaluates them with the same code (SemanticCC included).

import type { Node } from 'libpg-query';
import type { Expr } from './expr.ts';
import type { BindContext, Scope } from './bind-context.ts';
import { coerce, operatorError } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { isIntegerType, isStringType, typeDisplayName, type SqlType } from './types.ts';
import { bindExpr, strOf, unsupported } from './lower-expr.ts';

/** A LIKE pattern; `ESCAPE 'c'` is rewritten at bind time into the default backslash escape. */
export function likePattern(scope: Scope, n: Node): Expr {
  if (!('FuncCall' in n) || strOf(n.FuncCall.funcname?.[n.FuncCall.funcname.length - 1]) !== 'like_escape') return bindExpr(scope, n);
  const [p, e] = (n.FuncCall.args ?? []).map((x) => bindExpr(scope, x));
  if (p?.k !== 'const' || e?.k !== 'const' || typeof p.v !== 'string' || typeof e.v !== 'string') throw unsupported('non-constant LIKE ... ESCAPE');
  const esc = e.v;
  if (esc.length > 1) throw new SqlError('22019', 'invalid escape string', 'Escape string must be empty or one character.');
  let out = '';
  const s = p.v;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (esc !== '' && ch === esc) {
      const next = s[i + 1] ?? '';
      i++;
      out += '\\' + next;
    } else if (ch === '\\') out += '\\\\';
    else out += ch;
  }
  return { k: 'const', v: out, t: 'unknown' };
}

export function bindLike(scope: Scope, l: Expr, r: Expr, neg: boolean, ci: boolean): Expr {
  // bytea LIKE bytea matches byte by byte (an untyped pattern taken as bytea); there is no bytea ILIKE.
  if (!ci && ((l.t === 'bytea' && (r.t === 'bytea' || r.t === 'unknown')) || (r.t === 'bytea' && l.t === 'unknown'))) {
    return { k: 'like', e: coerce(scope.ctx, l, 'bytea'), pat: coerce(scope.ctx, r, 'bytea'), neg, ci, t: 'bool' };
  }
  const ok = (e: Expr): boolean => isStringType(e.t) || e.t === 'unknown';
  if (!ok(l) || !ok(r)) throw operatorError(ci ? '~~*' : '~~', l.t, r.t);
  const text = (e: Expr): Expr => (e.t === 'bpchar' ? { k: 'cast', e, t: 'text', typmod: -1, explicit: false } : coerce(scope.ctx, e, 'text'));
  return { k: 'like', e: text(l), pat: text(r), neg, ci, t: 'bool' };
}

const regexOpFunctions: Record<string, string> = { '~': 'textregexeq', '~*': 'texticregexeq', '!~': 'textregexne', '!~*': 'texticregexne' };

/**
 * `l op r` for op in ~ ~* !~ !~*: over text, varchar and char (char keeps its padding, as PostgreSQL's
 * bpcharregexeq does), an untyped side taken as text.
 */
export function bindRegexOperator(ctx: BindContext, op: string, l: Expr, r: Expr): Expr {
  const ok = (e: Expr): boolean => isStringType(e.t) || e.t === 'unknown';
  const fn = regexOpFunctions[op];
  if (fn === undefined || !ok(l) || !ok(r)) throw operatorError(op, l.t, r.t);
  const arg = (e: Expr): Expr => (e.t === 'unknown' ? coerce(ctx, e, 'text') : e);
  return { k: 'func', fn, args: [arg(l), arg(r)], t: 'bool' };
}

/** The regexp_* functions PostgreSQL 15 has, with their argument kinds after (source, pattern): t text, i integer. */
const signatures: Record<string, { readonly tails: readonly string[]; readonly t: SqlType }> = {
  regexp_match: { tails: ['', 't'], t: '_text' },
  regexp_matches: { tails: ['', 't'], t: '_text' },
  regexp_split_to_array: { tails: ['', 't'], t: '_text' },
  regexp_split_to_table: { tails: ['', 't'], t: '_text' },
  regexp_replace: { tails: ['t', 'tt', 'ti', 'tii', 'tiit'], t: 'text' },
  regexp_count: { tails: ['', 'i', 'it'], t: 'int4' },
  regexp_instr: { tails: ['', 'i', 'ii', 'iii', 'iiit', 'iiiti'], t: 'int4' },
  regexp_substr: { tails: ['', 'i', 'ii', 'iit', 'iiti'], t: 'text' },
  similar_to_escape: { tails: ['', 't'], t: 'text' },
};

export const REGEX_FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(signatures));

/** A regexp_* call (or similar_to_escape) with its arguments coerced; PostgreSQL's error when none fits. */
export function bindRegexFunction(ctx: BindContext, name: string, args: readonly Expr[]): Expr {
  const sig = signatures[name];
  if (sig === undefined) throw unsupported(`function ${name}`);
  const fits = (e: Expr, kind: string): boolean => e.t === 'unknown' || (kind === 'i' ? isIntegerType(e.t) : isStringType(e.t));
  // similar_to_escape(pattern [, escape]): its "source" is the pattern.
  const heads = name === 'similar_to_escape' ? 1 : 2;
  const tail = sig.tails.find((t) => t.length === args.length - heads && args.every((a, i) => fits(a, i < heads ? 't' : t[i - heads] as string)));
  if (tail === undefined || args.length < heads) {
    throw new SqlError(SqlState.undefinedFunction, `function ${name}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`, undefined, undefined,
      'No function matches the given name and argument types. You might need to add explicit type casts.');
  }
  const typed = args.map((a, i) => coerce(ctx, a, (i < heads ? 't' : tail[i - heads]) === 'i' ? 'int4' : 'text'));
  return { k: 'func', fn: name, args: typed, t: sig.t };
}

/**
 * substring(s FROM pattern) (a regular expression: the first group's match, or the whole match) and
 * substring(s SIMILAR pattern ESCAPE e) / substring(s FROM pattern FOR e) (a SQL regular expression);
 * null when the arguments are not text (the integer forms then).
 */
export function bindSubstringPattern(ctx: BindContext, args: readonly Expr[]): Expr | null {
  const text = (e: Expr | undefined): boolean => e !== undefined && (isStringType(e.t) || e.t === 'unknown');
  if (!text(args[0]) || !text(args[1]) || (args.length === 3 && !text(args[2])) || args.length > 3) return null;
  const typed = args.map((a) => coerce(ctx, a, 'text'));
  return { k: 'func', fn: args.length === 2 ? 'substring_regex' : 'substring_similar', args: typed, t: 'text' };
}
