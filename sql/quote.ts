// Quoting of identifiers and literals as PostgreSQL's quote_identifier and quote_literal_cstr do it:
// quote_ident, quote_literal, quote_nullable, format()'s %I and %L, and generated names (sequences).

import { scanSync } from 'libpg-query';

/**
 * quote_ident: the name as an SQL identifier, in double quotes unless it is lower-case letters, digits
 * and underscores not starting with a digit and not a keyword PostgreSQL reserves in any way (its
 * unreserved keywords stay bare), as PostgreSQL's quote_identifier decides.
 */
export function quoteIdentifier(name: string): string {
  const plain = /^[a-z_][a-z0-9_]*$/.test(name) && (scanSync(name).tokens[0]?.keywordKind ?? 0) <= 1;
  return plain ? name : `"${name.replace(/"/g, '""')}"`;
}

/** quote_literal: quotes doubled; with a backslash, the E'' form with backslashes doubled (quote_literal_cstr). */
export function quoteLiteral(s: string): string {
  const q = s.replace(/'/g, "''");
  return q.includes('\\') ? `E'${q.replace(/\\/g, '\\\\')}'` : `'${q}'`;
}
