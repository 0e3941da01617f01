// The system catalog's view of sequences (sql/sequences.ts; system-catalog.ts fills these from the
// session's catalog before each query): pg_class rows of relkind 'S', pg_sequence, pg_sequences,
// information_schema.sequences, and the ownership psql's `\d` and pg_get_serial_sequence-style queries
// read from pg_depend (an owned sequence depends 'a' on its column). pg_sequences.last_value is NULL:
// a sequence's state lives in a counter row (client/sql/sequence-values.ts), not in the catalog these
// rows are built from, and PostgreSQL gives NULL too for a sequence it cannot read. The state is read
// with `SELECT last_value, is_called FROM seq` (sql/lower-sequence.ts); PostgreSQL's pg_sequences.last_value
// is that last_value where is_called, NULL otherwise.

import type { TableDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import { normInt8, typeDisplayName, typeOid, type SqlValue } from '../../sql/types.ts';
import type { Table } from './catalog-constraints.ts';
import type { Owners } from './catalog-roles.ts';
import { ownerOf } from '../../sql/privileges.ts';
import { OID_BASE } from './psql-describe.ts';
import { classRow } from './catalog-dump.ts';

/** A sequence's object id: its catalog id above SEQUENCE_OID (ids are below 2^27). */
export const SEQUENCE_OID = 0x48000000;
const PUBLIC = 2200;
const PG_CLASS_OID = 1259;

export const PG_SEQUENCE: Table = {
  name: 'pg_catalog.pg_sequence',
  columns: 'seqrelid int4, seqtypid int4, seqstart int8, seqincrement int8, seqmax int8, seqmin int8, seqcache int8, seqcycle bool',
};
export const PG_SEQUENCES: Table = {
  name: 'pg_catalog.pg_sequences',
  columns: `schemaname name, sequencename name, sequenceowner name, data_type text, start_value int8, min_value int8, max_value int8,
    increment_by int8, cycle bool, cache_size int8, last_value int8`,
};
export const IS_SEQUENCES: Table = {
  name: 'information_schema.sequences',
  columns: `sequence_catalog text, sequence_schema text, sequence_name text, data_type text, numeric_precision int4,
    numeric_precision_radix int4, numeric_scale int4, start_value text, minimum_value text, maximum_value text, increment text, cycle_option text`,
};
export const PG_DEPEND: Table = {
  name: 'pg_catalog.pg_depend',
  columns: 'classid int4, objid int4, objsubid int4, refclassid int4, refobjid int4, refobjsubid int4, deptype text',
};

export const SEQUENCE_TABLES = [PG_SEQUENCE, PG_SEQUENCES, IS_SEQUENCES, PG_DEPEND];

const PRECISION: Record<SequenceDef['type'], number> = { int2: 16, int4: 32, int8: 64 };

/** The rows of the tables above, and each sequence's pg_class row (into `pgClass`). */
export function sequenceRows(sequences: readonly SequenceDef[], tables: readonly TableDef[], database: string, owners: Owners,
  push: (table: Table, row: SqlValue[]) => void, pgClass: (row: SqlValue[]) => void): void {
  for (const s of sequences) {
    const oid = SEQUENCE_OID + s.id;
    const [start, min, max, increment, cache] = [s.start, s.min, s.max, s.increment, s.cache].map(normInt8);
    pgClass(classRow({ oid, relname: s.name, relkind: 'S', relam: 0, relnatts: 3, reltuples: 1, relowner: ownerOf(s), relacl: owners.acl(s) }));
    push(PG_SEQUENCE, [oid, typeOid[s.type], start ?? null, increment ?? null, max ?? null, min ?? null, cache ?? null, s.cycle]);
    push(PG_SEQUENCES, ['public', s.name, owners.name(s), typeDisplayName[s.type], start ?? null, min ?? null, max ?? null, increment ?? null, s.cycle, cache ?? null, null]);
    const t = s.ownedBy === null ? undefined : tables.find((x) => x.name === s.ownedBy!.table);
    // 'i' for an identity column's sequence, 'a' (auto) for SERIAL's and OWNED BY's, as PostgreSQL records them.
    const identity = t?.columns.find((c) => c.name === s.ownedBy!.column)?.identity !== undefined;
    // information_schema.sequences leaves identity columns' sequences out, as PostgreSQL's view does.
    if (!identity) push(IS_SEQUENCES, [database, 'public', s.name, typeDisplayName[s.type], PRECISION[s.type], 2, 0, String(s.start), String(s.min), String(s.max),
      String(s.increment), s.cycle ? 'YES' : 'NO']);
    if (t === undefined) continue;
    const attnum = t.columns.filter((c) => !c.hidden || c.dropped === true).findIndex((c) => c.name === s.ownedBy!.column) + 1;
    push(PG_DEPEND, [PG_CLASS_OID, oid, 0, PG_CLASS_OID, OID_BASE + t.id, attnum, identity ? 'i' : 'a']);
  }
}
