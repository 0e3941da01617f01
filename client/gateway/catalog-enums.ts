// The system catalog's rows of the session's enum types (sql/enum-types.ts): pg_type's row of each
// enum (typtype 'e', category 'E', enum_in/enum_out, in public) and of its array type `_name`, pg_enum's
// row of each label (oid, type, sortorder, label), and the spellings regtype and format_type find them
// by (catalog-names.ts). Oids are the catalog's own (sql/catalog.ts TYPE_OID_BASE), the same on every
// replica and gateway that sees the same catalog.

import { ownerOf } from '../../sql/privileges.ts';
import type { EnumTypeDef } from '../../sql/enum-types.ts';
import type { SqlValue } from '../../sql/types.ts';
import type { Table } from './catalog-constraints.ts';
import { spellings } from './catalog-names.ts';
import { identText } from './psql-describe.ts';

const PUBLIC = 2200;

export function enumTypeRows(enums: readonly EnumTypeDef[], push: (t: Table, row: SqlValue[]) => void, tables: { type: Table; enum: Table; names: Table }, schema = ''): void {
  for (const e of enums) {
    push(tables.type, [e.oid, e.name, PUBLIC, ownerOf(e), 4, true, 'e', 'E', false, true, ',', 0, '-', 0, e.arrayOid, 'enum_in', 'enum_out', 'enum_recv', 'enum_send',
      'i', 'p', false, 0, -1, 0, 0, null, null]);
    push(tables.type, [e.arrayOid, `_${e.name}`, PUBLIC, ownerOf(e), -1, false, 'b', 'A', false, true, ',', 0, 'array_subscript_handler', e.oid, 0,
      'array_in', 'array_out', 'array_recv', 'array_send', 'i', 'x', false, 0, -1, 0, 0, null, null]);
    for (const l of e.labels) push(tables.enum, [l.oid, e.oid, l.sortOrder, l.label]);
    // As format_type and regtype print it: after 'public.' where the search path leaves public out.
    const display = `${schema}${identText(e.name)}`;
    for (const row of spellings(e.oid, e.name, display, [['public']])) push(tables.names, row);
    for (const row of spellings(e.arrayOid, `_${e.name}`, `${display}[]`, [['public']])) push(tables.names, row);
  }
}
