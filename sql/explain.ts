// EXPLAIN: a statement's plan as PostgreSQL's text format prints it with COSTS OFF (Pesto plans without a
// cost model): one node per line, children under "->", each node's conditions and keys below it, and
// expressions written back as SQL over the columns' names. The lines become the rows of an ordinary
// query (a VALUES plan), so EXPLAIN needs no path of its own on the engine, the gateway or a cluster.
// A last line says how a cluster reads the statement (point read, range read or none). EXPLAIN ANALYZE
// runs the statement and is the gateway's business (client/gateway/gateway-explain.ts).

import type { ExplainStmt, Node } from 'libpg-query';
import type { Statement } from './lower-statement.ts';
import { classify } from './classify.ts';
import { planTables } from './plan-tables.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Expr } from './expr.ts';
import type { AggSpec, DmlPlan, FrameBound, Plan, ScanNode, SortKey, WindowCall } from './plan.ts';
import { typeDisplayName } from './types.ts';
import { formatText } from './value-text.ts';

export interface ExplainOptions {
  readonly verbose: boolean;
  readonly analyze: boolean;
}

/** EXPLAIN's options; 0A000 for ones Pesto cannot honour (FORMAT other than TEXT, GENERIC_PLAN). */
export function explainOptions(stmt: ExplainStmt): ExplainOptions {
  let verbose = false;
  let analyze = false;
  for (const o of stmt.options ?? []) {
    if (!('DefElem' in o)) continue;
    const name = o.DefElem.defname ?? '';
    const arg = o.DefElem.arg;
    const value = arg === undefined ? 'true' : 'String' in arg ? (arg.String.sval ?? '') : 'A_Const' in arg ? String(arg.A_Const.ival?.ival ?? arg.A_Const.sval?.sval ?? '') : '';
    const on = !['false', 'off', '0'].includes(value.toLowerCase());
    switch (name) {
      case 'analyze':
        analyze = on;
        break;
      case 'verbose':
        verbose = on;
        break;
      case 'costs':
      case 'buffers':
      case 'timing':
      case 'summary':
      case 'settings':
      case 'wal':
        break;
      case 'format':
        if (value.toLowerCase() !== 'text') throw new SqlError(SqlState.featureNotSupported, `EXPLAIN (FORMAT ${value.toUpperCase()}) is not supported`);
        break;
      default:
        throw new SqlError(SqlState.syntaxError, `unrecognized EXPLAIN option "${name}"`);
    }
  }
  return { verbose, analyze };
}

/** The lines of EXPLAIN for a lowered SELECT, INSERT, UPDATE or DELETE. */
export function explainLines(stmt: Statement, opts: ExplainOptions): string[] {
  const out: string[] = [];
  const w = new PlanWriter(out, opts.verbose);
  if (stmt.k === 'query') w.plan(stmt.plan, 0);
  else if (stmt.k === 'dml') w.dml(stmt.plan);
  else throw new SqlError(SqlState.featureNotSupported, 'EXPLAIN of this statement is not supported');
  const c = classify(stmt);
  const source = stmt.k === 'query' ? stmt.plan : stmt.k === 'dml' ? stmt.plan.source : null;
  const read = c.k === 'utility' || source === null || !planTables(source).scans ? 'none' : c.read;
  out.push(`Pesto read: ${read === 'point' ? 'point read' : read === 'range' ? 'range read' : 'none'}`);
  return out;
}

/** The statement EXPLAIN explains, or 0A000 for one it cannot (utility statements). */
export function explainedQuery(stmt: ExplainStmt): Node {
  const q = stmt.query;
  if (q === undefined || !('SelectStmt' in q || 'InsertStmt' in q || 'UpdateStmt' in q || 'DeleteStmt' in q || 'MergeStmt' in q)) {
    throw new SqlError(SqlState.featureNotSupported, 'EXPLAIN of this statement is not supported');
  }
  return q;
}

const DML_NODES: Record<DmlPlan['k'], string> = { insert: 'Insert', update: 'Update', delete: 'Delete', merge: 'Merge' };

const JOIN: Record<string, string> = { inner: '', left: ' Left Join', right: ' Right Join', full: ' Full Join' };

class PlanWriter {
  /** Rows of enclosing plans by nesting level (an index-lookup join's left row), while their inner side is written. */
  private outer = new Map<number, readonly string[]>();

  constructor(
    private readonly out: string[],
    private readonly verbose: boolean,
  ) {}

  private d(e: Expr, labels: readonly string[]): string {
    return deparse(e, labels, this.outer);
  }

  private node(depth: number, text: string): void {
    this.out.push(depth === 0 ? text : `${' '.repeat(6 * depth - 4)}->  ${text}`);
  }

  private prop(depth: number, text: string): void {
    this.out.push(`${' '.repeat(depth === 0 ? 2 : 6 * depth + 2)}${text}`);
  }

  dml(p: DmlPlan): void {
    this.node(0, `${DML_NODES[p.k]} on ${p.table.name}`);
    if (p.k === 'insert' && p.onConflict !== null) {
      this.prop(0, `Conflict Resolution: ${p.onConflict.k === 'nothing' ? 'NOTHING' : 'UPDATE'}`);
    }
    this.plan(p.source, 1);
  }

  /** A node and its children; `extra` are properties of a node folded into this one (a filter above it). */
  plan(p: Plan, depth: number, extra: readonly string[] = []): void {
    const labels = labelsOf(p);
    switch (p.k) {
      case 'scan':
        return this.scan(p, depth, extra);
      case 'filter':
        return this.plan(p.input, depth, [...extra, `Filter: ${this.d(p.pred, labelsOf(p.input))}`]);
      case 'project':
        if (this.verbose) return this.plan(p.input, depth, [...extra, `Output: ${p.exprs.map((e) => this.d(e, labelsOf(p.input))).join(', ')}`]);
        return this.plan(p.input, depth, extra);
      case 'trim':
        return this.plan(p.input, depth, extra);
      case 'one':
        return this.leaf(depth, 'Result', extra);
      case 'values':
        return this.leaf(depth, 'Values Scan on "*VALUES*"', extra);
      case 'series':
        return this.leaf(depth, 'Function Scan on generate_series', extra);
      case 'unnest':
        return this.leaf(depth, 'Function Scan on unnest', extra);
      case 'rowsfrom':
        return this.leaf(depth, `Function Scan on ${p.fns.map((f) => (f.k === 'series' ? 'generate_series' : 'unnest')).join(', ')}`, extra);
      case 'jsonrows':
        return this.leaf(depth, `Function Scan on ${p.fn}`, extra);
      case 'worktable':
        return this.leaf(depth, 'WorkTable Scan', extra);
      case 'projectset':
        this.leaf(depth, 'ProjectSet', extra);
        return this.plan(p.input, depth + 1);
      case 'nljoin': {
        this.leaf(depth, `Nested Loop${JOIN[p.kind]}`, p.on === null ? extra : [`Join Filter: ${this.d(p.on, labels)}`, ...extra]);
        this.plan(p.left, depth + 1);
        if (p.level === null) return this.plan(p.right, depth + 1);
        this.outer.set(p.level, labelsOf(p.left));
        this.plan(p.right, depth + 1);
        this.outer.delete(p.level);
        return;
      }
      case 'hashjoin': {
        const keys = p.leftKeys.map((l, i) => `(${this.d(l, labelsOf(p.left))} = ${this.d(p.rightKeys[i] as Expr, labelsOf(p.right))})`);
        const cond = [`Hash Cond: ${keys.length === 1 ? (keys[0] as string) : `(${keys.join(' AND ')})`}`];
        if (p.residual !== null) cond.push(`Join Filter: ${this.d(p.residual, labels)}`);
        this.leaf(depth, p.kind === 'inner' ? 'Hash Join' : `Hash${JOIN[p.kind]}`, [...cond, ...extra]);
        this.plan(p.left, depth + 1);
        this.node(depth + 1, 'Hash');
        return this.plan(p.right, depth + 2);
      }
      case 'agg': {
        const input = labelsOf(p.input);
        const props = p.groups.length > 0 ? [`Group Key: ${p.groups.map((g) => this.d(g, input)).join(', ')}`] : [];
        this.leaf(depth, p.groups.length > 0 ? 'HashAggregate' : 'Aggregate', [...props, ...extra]);
        return this.plan(p.input, depth + 1);
      }
      case 'groupsets': {
        const input = labelsOf(p.input);
        const sets = p.sets.map((set) => `Group Key: ${set.length === 0 ? '()' : set.map((g) => this.d(p.groups[g] as Expr, input)).join(', ')}`);
        this.leaf(depth, 'MixedAggregate', [...sets, ...extra]);
        return this.plan(p.input, depth + 1);
      }
      case 'window':
        this.leaf(depth, 'WindowAgg', [...(this.verbose ? [`Window: ${p.calls.map((c) => windowText(c, labelsOf(p.input))).join(', ')}`] : []), ...extra]);
        return this.plan(p.input, depth + 1);
      case 'sort':
        this.leaf(depth, 'Sort', [`Sort Key: ${sortKeys(p.keys, labelsOf(p.input))}`, ...extra]);
        return this.plan(p.input, depth + 1);
      case 'limit':
        this.leaf(depth, 'Limit', extra);
        return this.plan(p.input, depth + 1);
      case 'distinct':
        this.leaf(depth, 'Unique', extra);
        return this.plan(p.input, depth + 1);
      case 'setop':
        if (p.op === 'union') this.leaf(depth, p.all ? 'Append' : 'HashAggregate', extra);
        else this.leaf(depth, `HashSetOp ${p.op === 'intersect' ? 'Intersect' : 'Except'}${p.all ? ' All' : ''}`, extra);
        this.plan(p.left, depth + 1);
        return this.plan(p.right, depth + 1);
      case 'recursive':
        this.leaf(depth, 'Recursive Union', extra);
        this.plan(p.base, depth + 1);
        return this.plan(p.step, depth + 1);
    }
  }

  private leaf(depth: number, name: string, props: readonly string[]): void {
    this.node(depth, name);
    for (const x of props) this.prop(depth, x);
  }

  private scan(p: ScanNode, depth: number, extra: readonly string[]): void {
    const cols = p.table.columns.map((c) => c.name);
    const keyCols = p.index === null ? p.table.pk : p.index.columns;
    const key = (i: number): string => {
      const x = p.index?.exprs?.[i] ?? null;
      return x === null ? cols[keyCols[i] as number] ?? '?' : this.d(x.expr, cols);
    };
    const conds: string[] = p.eq.map((e, i) => `(${key(i)} = ${this.d(e, [])})`);
    const next = key(p.eq.length);
    if (p.lo !== null) conds.push(`(${next} ${p.lo.inclusive ? '>=' : '>'} ${this.d(p.lo.e, [])})`);
    if (p.hi !== null) conds.push(`(${next} ${p.hi.inclusive ? '<=' : '<'} ${this.d(p.hi.e, [])})`);
    const props = conds.length > 0 ? [`Index Cond: ${conds.length === 1 ? (conds[0] as string) : `(${conds.join(' AND ')})`}`] : [];
    if (p.residual !== null) props.push(`Filter: ${this.d(p.residual, cols)}`);
    const keyed = conds.length > 0 || p.index !== null || p.reverse || p.limit !== null;
    const indexName = p.index === null ? `${p.table.name}_pkey` : p.index.name;
    const name = !keyed ? `Seq Scan on ${p.table.name}` : `Index Scan${p.reverse ? ' Backward' : ''} using ${indexName} on ${p.table.name}`;
    this.leaf(depth, name, [...props, ...extra]);
  }
}

/** Names for a plan's output columns, for writing expressions over its rows. */
function labelsOf(p: Plan): string[] {
  switch (p.k) {
    case 'scan':
      return p.table.columns.map((c) => `${p.table.name}.${c.name}`);
    case 'one':
      return [];
    case 'values':
      return (p.rows[0] ?? []).map((_, i) => `"*VALUES*".column${i + 1}`);
    case 'series':
      return ['generate_series'];
    case 'unnest':
      return ['unnest'];
    case 'rowsfrom':
      return [...p.fns.map((f) => (f.k === 'series' ? 'generate_series' : 'unnest')), ...(p.ordinality ? ['ordinality'] : [])];
    case 'jsonrows':
      return ['key', 'value'];
    case 'worktable':
      return [];
    case 'filter':
    case 'sort':
    case 'limit':
    case 'distinct':
      return labelsOf(p.input);
    case 'trim':
      return labelsOf(p.input).slice(0, p.width);
    case 'projectset':
      return [...labelsOf(p.input), ...p.srfs.map((s) => (s.k === 'series' ? 'generate_series' : 'unnest'))];
    case 'project': {
      const input = labelsOf(p.input);
      return p.exprs.map((e) => deparse(e, input));
    }
    case 'nljoin':
    case 'hashjoin':
      return [...labelsOf(p.left), ...labelsOf(p.right)];
    case 'agg': {
      const input = labelsOf(p.input);
      return [...p.groups.map((g) => deparse(g, input)), ...p.aggs.map((a) => aggText(a, input))];
    }
    case 'groupsets': {
      const input = labelsOf(p.input);
      return [...p.groups.map((g) => deparse(g, input)), ...p.aggs.map((a) => aggText(a, input))];
    }
    case 'window': {
      const input = labelsOf(p.input);
      return [...input, ...p.calls.map((c) => windowText(c, input))];
    }
    case 'setop':
    case 'recursive':
      return labelsOf(p.k === 'setop' ? p.left : p.base);
  }
}

function sortKeys(keys: readonly SortKey[], labels: readonly string[]): string {
  return keys.map((k) => `${labels[k.col] ?? '?'}${k.desc ? ' DESC' : ''}${k.nullsFirst !== k.desc ? (k.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : ''}`).join(', ');
}

function aggText(a: AggSpec, labels: readonly string[]): string {
  const name = a.fn === 'count_star' ? 'count' : a.fn;
  const args = a.fn === 'count_star' ? '*' : [a.arg, a.arg2].filter((x): x is Expr => x !== null).map((x) => deparse(x, labels)).join(', ');
  return `${name}(${a.distinct ? 'DISTINCT ' : ''}${args})${a.filter === null ? '' : ` FILTER (WHERE ${deparse(a.filter, labels)})`}`;
}

function windowText(c: WindowCall, labels: readonly string[]): string {
  const call = c.agg !== null ? aggText(c.agg, labels) : `${c.fn ?? ''}(${c.args.map((a) => deparse(a, labels)).join(', ')})`;
  const parts: string[] = [];
  if (c.partition.length > 0) parts.push(`PARTITION BY ${c.partition.map((e) => deparse(e, labels)).join(', ')}`);
  if (c.order.length > 0) parts.push(`ORDER BY ${c.order.map((k) => `${deparse(k.e, labels)}${k.desc ? ' DESC' : ''}`).join(', ')}`);
  const bound = (b: FrameBound, start: boolean): string =>
    b.k === 'unbounded' ? `UNBOUNDED ${start ? 'PRECEDING' : 'FOLLOWING'}` : b.k === 'current' ? 'CURRENT ROW' : `${deparse(b.offset, [])} ${b.k.toUpperCase()}`;
  parts.push(`${c.frame.mode.toUpperCase()} BETWEEN ${bound(c.frame.start, true)} AND ${bound(c.frame.end, false)}`);
  return `${call} OVER (${parts.join(' ')})`;
}

/** An expression as SQL over columns named by `labels`, parenthesised as PostgreSQL's EXPLAIN writes it. */
export function deparse(e: Expr, labels: readonly string[], outer: ReadonlyMap<number, readonly string[]> = new Map()): string {
  const d = (x: Expr): string => deparse(x, labels, outer);
  switch (e.k) {
    case 'const':
      if (e.v === null) return 'NULL';
      if (e.t === 'int2' || e.t === 'int4' || e.t === 'int8' || e.t === 'numeric' || e.t === 'bool') return formatText(e.v, e.t);
      return `'${formatText(e.v, e.t).replace(/'/g, "''")}'::${typeDisplayName[e.t]}`;
    case 'param':
      return `$${e.i + 1}`;
    case 'col':
      return labels[e.i] ?? `column${e.i + 1}`;
    case 'outer':
      return outer.get(e.level)?.[e.i] ?? `outer.column${e.i + 1}`;
    case 'arith':
      return `(${d(e.l)} ${e.op} ${d(e.r)})`;
    case 'neg':
      return `(- ${d(e.e)})`;
    case 'cmp':
      return `(${d(e.l)} ${e.op} ${d(e.r)})`;
    case 'and':
    case 'or':
      return `(${e.args.map(d).join(e.k === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `(NOT ${d(e.e)})`;
    case 'isnull':
      return `(${d(e.e)} IS ${e.neg ? 'NOT ' : ''}NULL)`;
    case 'booltest':
      return `(${d(e.e)} IS ${e.neg ? 'NOT ' : ''}${e.test.toUpperCase()})`;
    case 'distinct':
      return `(${d(e.l)} IS ${e.neg ? 'NOT ' : ''}DISTINCT FROM ${d(e.r)})`;
    case 'in':
      return `(${d(e.e)} ${e.neg ? 'NOT IN' : 'IN'} (${e.list.map(d).join(', ')}))`;
    case 'anyarr':
      return `(${d(e.e)} ${e.op} ${e.all ? 'ALL' : 'ANY'} (${d(e.arr)}))`;
    case 'array':
      return `ARRAY[${e.items.map(d).join(', ')}]`;
    case 'like':
      return `(${d(e.e)} ${e.neg ? '!' : ''}${e.ci ? '~~*' : '~~'} ${d(e.pat)})`;
    case 'case':
      return `CASE ${e.whens.map((w) => `WHEN ${d(w.when)} THEN ${d(w.then)}`).join(' ')}${e.els === null ? '' : ` ELSE ${d(e.els)}`} END`;
    case 'func':
      return `${e.fn}(${e.args.map(d).join(', ')})`;
    case 'cast':
      return `(${d(e.e)})::${typeDisplayName[e.t]}`;
    case 'subquery':
      return e.mode === 'exists' ? '(EXISTS (SubPlan))' : '(SubPlan)';
    case 'aggref':
    case 'winref':
      return '?'; // rewritten into columns before a plan is complete
  }
}
