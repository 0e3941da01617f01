// How the catalog functions name the session's own objects. PostgreSQL's ruleutils (pg_get_viewdef,
// pg_get_constraintdef, pg_get_expr, format_type) qualifies a name with its schema when that schema is
// not on the search path; pg_dump sets an empty search_path before it reads definitions, so a dump
// says `public.a` wherever it names a table, sequence or type, and restores under that empty path.
// Every object of a Pesto database is in public.

import { parseSync } from 'libpg-query';
import { eachNode } from '../../sql/parse-tree.ts';

/** 'public.' when the search path leaves public out (its names then need the schema), else ''. */
export function publicQualifier(searchPath: string): string {
  const schemas = searchPath.split(',').map((p) => p.trim()).map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p.toLowerCase()));
  return schemas.includes('public') ? '' : 'public.';
}

/**
 * A view's SELECT text with `qualifier` put before every table it names without a schema (not a WITH
 * query's name) and before every type name in `types` (the session's enum types), at the positions the
 * parser gives; the text unchanged when it does not parse or the qualifier is empty.
 */
export function qualifyNames(sql: string, qualifier: string, types: ReadonlySet<string>): string {
  if (qualifier === '') return sql;
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch {
    return sql;
  }
  const ctes = new Set<string>();
  eachNode(tree, (o) => {
    const cte = o['CommonTableExpr'] as { ctename?: string } | undefined;
    if (cte?.ctename !== undefined) ctes.add(cte.ctename);
  });
  const at: number[] = [];
  eachNode(tree, (o) => {
    const rv = o['RangeVar'] as { schemaname?: string; relname?: string; location?: number } | undefined;
    if (rv !== undefined && rv.schemaname === undefined && rv.relname !== undefined && !ctes.has(rv.relname) && rv.location !== undefined) at.push(rv.location);
    // A type name: a TypeName node, or a cast's or column's `typeName` field.
    const tn = (o['TypeName'] ?? o['typeName']) as { names?: { String?: { sval?: string } }[]; location?: number } | undefined;
    if (tn?.names?.length === 1 && types.has(tn.names[0]?.String?.sval ?? '') && tn.location !== undefined) at.push(tn.location);
  });
  // Offsets are bytes: insert from the last so earlier ones stay right.
  let bytes = Buffer.from(sql, 'utf8');
  for (const p of [...new Set(at)].sort((a, b) => b - a)) bytes = Buffer.concat([bytes.subarray(0, p), Buffer.from(qualifier), bytes.subarray(p)]);
  return bytes.toString('utf8');
}
