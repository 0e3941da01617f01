// libpg-query's parse trees are plain JSON: one depth-first walk over them for every module that looks
// for nodes of a kind (relations a query names, calls, type names).

/** Calls `visit` with every object inside a parse tree, depth first. */
export function eachNode(n: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(n)) {
    for (const x of n) eachNode(x, visit);
  } else if (typeof n === 'object' && n !== null) {
    visit(n as Record<string, unknown>);
    for (const v of Object.values(n)) eachNode(v, visit);
  }
}
