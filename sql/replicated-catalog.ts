/**
 * The catalog of a replicated database (issue 4: DDL as replicated transactions). The catalog is data:
 * one key, `CATALOG_KEY` (table 0, which no user table gets), whose value is the ordered log of every
 * DDL statement that committed, each as its libpg-query parse tree. Anyone holding a version of that
 * value (a replica at T, a client that read it) derives the same `Catalog` by replaying the log from an
 * empty catalog: table and index ids come from the catalog's DDL-order counter, so every replica and
 * client agree on them.
 *
 * A DDL statement is a transaction like any other: the client reads the catalog key (its version joins
 * the read set), replays the log plus the new statement, and writes the longer log. MVTSO then orders
 * DDL against every transaction that read the catalog, which every SQL transaction does (the client
 * puts (CATALOG_KEY, version) in its read set), so no transaction runs on a schema that changed under
 * it.
 *
 * Storage effects of DDL are not run during replay. On first execution `ReplicatedDdl` records what
 * the statement needs done to rows: `rewrite` (ALTER TABLE ... ADD PRIMARY KEY / ADD COLUMN / ALTER COLUMN TYPE changed how
 * rows are keyed or laid out), `truncate`, and `unique` (CREATE UNIQUE INDEX or ADD UNIQUE on a table
 * that may hold rows). The client performs rewrites and truncations by moving the table to a fresh
 * storage id (docs/decisions/0012): the log then holds a `switch` entry,
 * `{"PestoStorage":{"relname":..., "id":...}}`, which replay applies with `Catalog.switchStorage` (so
 * every replica agrees on where the table's rows live); a truncated table's new storage is empty, a
 * rewritten one's rows are copied into it by the client. A unique check reads every row inside the same
 * transaction and checks that no two repeat the new key. A rewrite or a unique check that finds repeated
 * keys fails with 23505, as in the single-node engine.
 */
import type { Node } from 'libpg-query';
import { Catalog, type ForeignKeyDef, type IndexDef, type TableDef } from './catalog.ts';
import { applyDdl } from './ddl.ts';
import type { DdlOutcome, DdlStorage } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Row } from './types.ts';
import type { ExecContext } from './exec-context.ts';
import type { SequenceDef, SequenceState } from './sequences.ts';
import { actorOf, LEGACY_ACTOR, type DdlActor } from './roles.ts';
import { CatalogImageError, decodeCatalogImage, encodeCatalogImage } from './catalog-image.ts';

/** Table 0's prefix (sql/row-key.ts layout) followed by a name: never a user row. */
export const CATALOG_KEY = '\x00\x00\x00\x00catalog';
/**
 * The count of fresh storage ids handed out so far (decimal text, table 0 like the catalog): a client
 * takes the next one in a small transaction of its own, so no two loads ever write under one id.
 */
export const STORAGE_COUNTER_KEY = '\x00\x00\x00\x00storage-next';

/** A catalog log entry that is not a parse tree: table `relname` moves to storage `id`. */
interface StorageSwitch {
  readonly PestoStorage: { readonly relname: string; readonly id: number };
}

/** The catalog as one image (sql/catalog-image.ts): what a compacted log starts with (decision 0077). */
interface CatalogImage {
  readonly PestoCatalog: unknown;
}

/**
 * Log entries after which a client writing DDL writes the catalog as one image instead (`compact`).
 * With about 700 bytes an entry, a log stays under about 100 KB beyond its image.
 */
export const CATALOG_COMPACT_AT = 128;

/** A statement with who ran it (sql/roles.ts): the current role's oid and the bootstrap superusers' names. */
interface AsRole {
  readonly PestoAs: { readonly oid: number; readonly bootstrap: readonly string[]; readonly stmt: Node };
}

export type DdlDataAction =
  | { readonly k: 'rewrite'; readonly before: TableDef; readonly after: TableDef; readonly transform: (row: Row) => Row }
  | { readonly k: 'truncate'; readonly table: TableDef }
  | { readonly k: 'unique'; readonly table: TableDef; readonly index: IndexDef }
  /** SET NOT NULL, ADD CHECK: every row the table holds must pass `test`. */
  | { readonly k: 'validate'; readonly table: TableDef; readonly test: (row: Row) => void }
  /** ADD FOREIGN KEY: every row of `child` must reference a row of `parent` (foreign-keys.ts orphanOf). */
  | { readonly k: 'foreign-key'; readonly child: TableDef; readonly parent: TableDef; readonly fk: ForeignKeyDef }
  /** ALTER SEQUENCE ... RESTART: the sequence's counter row takes `state` in the DDL's transaction. */
  | { readonly k: 'sequence'; readonly seq: SequenceDef; readonly state: SequenceState };

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class CatalogDecodeError extends Error {
  override readonly name = 'CatalogDecodeError';
}

/** Storage as replicated DDL sees it: no rows here, only a list of what rows need. */
class ReplicatedDdl implements DdlStorage {
  readonly actions: DdlDataAction[] = [];
  constructor(private readonly catalog: Catalog) {}
  ensureTable(def: TableDef): void {
    const before = this.catalog.getById(def.id);
    if (before === undefined) return; // a new table has no rows
    for (const index of def.indexes) {
      if (index.unique && !before.indexes.some((i) => i.id === index.id)) this.actions.push({ k: 'unique', table: def, index });
    }
  }
  dropTable(): void {}
  rekeyTable(def: TableDef, transform?: (row: Row) => Row): void {
    const before = this.catalog.getById(def.id);
    if (before === undefined) return;
    this.actions.push({ k: 'rewrite', before, after: def, transform: transform ?? ((r) => r) });
  }
  truncate(def: TableDef): void {
    this.actions.push({ k: 'truncate', table: def });
  }
  rowCount(): number {
    throw new SqlError(SqlState.featureNotSupported, 'ADD COLUMN ... NOT NULL without a DEFAULT is not supported on a replicated table');
  }
  validateRows(def: TableDef, test: (row: Row) => void): void {
    if (this.catalog.getById(def.id) !== undefined) this.actions.push({ k: 'validate', table: def, test });
  }
  validateForeignKey(child: TableDef, parent: TableDef, fk: ForeignKeyDef): void {
    if (this.catalog.getById(child.id) !== undefined) this.actions.push({ k: 'foreign-key', child, parent, fk });
  }
  setSequence(seq: SequenceDef, state: SequenceState): void {
    this.actions.push({ k: 'sequence', seq, state });
  }
  relabel(): void {}
}

function runDdl(catalog: Catalog, storage: DdlStorage, n: Node | StorageSwitch | AsRole | CatalogImage, ctx: ExecContext | null = null, actor: DdlActor = LEGACY_ACTOR): DdlOutcome {
  if ('PestoCatalog' in n) {
    catalog.restore(decodeCatalogImage(n.PestoCatalog));
    return { tag: 'ALTER TABLE', touched: [] };
  }
  if ('PestoAs' in n) {
    const a = n.PestoAs as Partial<AsRole['PestoAs']> | null;
    if (typeof a !== 'object' || a === null || typeof a.oid !== 'number' || !Array.isArray(a.bootstrap) || typeof a.stmt !== 'object') throw new SqlError(SqlState.invalidParameterValue, 'malformed role entry');
    return runDdl(catalog, storage, a.stmt, ctx, { oid: a.oid, bootstrap: a.bootstrap, check: false });
  }
  if ('PestoStorage' in n) {
    const s = n.PestoStorage as Partial<StorageSwitch['PestoStorage']> | null;
    if (typeof s !== 'object' || s === null || typeof s.relname !== 'string' || typeof s.id !== 'number') throw new SqlError(SqlState.invalidParameterValue, 'malformed storage switch');
    catalog.switchStorage(s.relname, s.id);
    return { tag: 'ALTER TABLE', touched: [] };
  }
  const out = applyDdl(catalog, storage, n, ctx, actor);
  if (out === null) throw new SqlError(SqlState.featureNotSupported, 'this DDL statement is not supported');
  return out;
}

/** A copy of `c` that changes apart from it (definitions are immutable; the copy has maps of its own). */
function copyOf(c: Catalog): Catalog {
  const copy = new Catalog();
  copy.restore(c.snapshot());
  return copy;
}

/** A catalog version: the log and the catalog it yields. Immutable once built. */
export class CatalogVersion {
  private constructor(
    readonly log: readonly string[],
    readonly catalog: Catalog,
  ) {}

  static readonly empty = new CatalogVersion([], new Catalog());

  /**
   * Replays a catalog value (null: no DDL yet). Throws CatalogDecodeError on a malformed value. When one
   * of `bases` holds a prefix of the value's log (the catalog a replica or client had before the newest
   * DDL), only the entries after it are replayed, onto a copy of its catalog: replay is one statement
   * after another on one catalog, so the result is the full replay's. A log of a database's whole DDL
   * history replayed from the start cost each replica and client time in proportion to that history, on
   * every DDL (decision 0075).
   */
  static fromValue(value: Uint8Array | null, bases: Iterable<CatalogVersion> = []): CatalogVersion {
    if (value === null || value.length === 0) return CatalogVersion.empty;
    let log: unknown;
    try {
      log = JSON.parse(fromUtf8.decode(value));
    } catch {
      throw new CatalogDecodeError('catalog value is not JSON');
    }
    if (!Array.isArray(log) || !log.every((x) => typeof x === 'string')) throw new CatalogDecodeError('catalog value is not a list of statements');
    const entries = log as string[];
    let base: CatalogVersion | null = null;
    for (const b of bases) {
      if (b.log.length === 0 || b.log.length > entries.length || (base !== null && b.log.length <= base.log.length)) continue;
      if (b.log.every((x, i) => x === entries[i])) base = b;
    }
    if (base !== null && base.log.length === entries.length) return base;
    const catalog = base === null ? new Catalog() : copyOf(base.catalog);
    for (let i = base === null ? 0 : base.log.length; i < entries.length; i++) {
      try {
        runDdl(catalog, new ReplicatedDdl(catalog), JSON.parse(entries[i]!) as Node | StorageSwitch | AsRole | CatalogImage);
      } catch (e) {
        throw new CatalogDecodeError(`catalog statement does not replay: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return new CatalogVersion(entries, catalog);
  }

  /**
   * Runs one DDL statement on a copy of this version: the new version (null when the statement changed
   * nothing, e.g. IF NOT EXISTS on an existing table), its outcome and the row work it needs.
   * Throws SqlError for a statement PostgreSQL would refuse. `ctx`: what a rewrite's transform
   * evaluates expressions with (the transaction's now(), random bytes), at the client that copies rows.
   */
  apply(node: Node, ctx: ExecContext | null = null): { next: CatalogVersion | null; outcome: DdlOutcome; actions: readonly DdlDataAction[] } {
    // A copy: this version's catalog (the shared `empty`'s too) must not change.
    const copy = copyOf(this.catalog);
    const before = copy.version;
    const storage = new ReplicatedDdl(copy);
    // The session's role runs it (privileges checked now) and the log keeps who that was (owners on replay).
    const actor = ctx?.identity === undefined ? LEGACY_ACTOR : actorOf(this.catalog, ctx.identity);
    const outcome = runDdl(copy, storage, node, ctx, actor);
    if (copy.version === before && storage.actions.length === 0) return { next: null, outcome, actions: [] };
    const stmt = outcome.logged ?? node;
    const entry: Node | AsRole = actor === LEGACY_ACTOR ? stmt : { PestoAs: { oid: actor.oid, bootstrap: actor.bootstrap, stmt } };
    return { next: new CatalogVersion([...this.log, JSON.stringify(entry)], copy), outcome, actions: storage.actions };
  }

  /** This version with table `name` moved to the fresh storage `id` (Catalog.switchStorage; throws SqlError). */
  withStorage(name: string, id: number): CatalogVersion {
    const entry: StorageSwitch = { PestoStorage: { relname: name, id } };
    const copy = copyOf(this.catalog);
    runDdl(copy, new ReplicatedDdl(copy), entry);
    return new CatalogVersion([...this.log, JSON.stringify(entry)], copy);
  }

  /**
   * This version as a log of one entry, the image of its catalog (sql/catalog-image.ts), as every
   * replica and client will replay it: the returned version is the image read back, so the client that
   * writes it goes on with what everybody else reads. Throws CatalogImageError when the catalog cannot
   * be written exactly (a definition the image has no codec for, or one it reads back differently);
   * the log then stays as it is.
   */
  compact(): CatalogVersion {
    const image = encodeCatalogImage(this.catalog.snapshot());
    const entry: CatalogImage = { PestoCatalog: image };
    const catalog = new Catalog();
    catalog.restore(decodeCatalogImage(JSON.parse(JSON.stringify(image))));
    if (JSON.stringify(encodeCatalogImage(catalog.snapshot())) !== JSON.stringify(image)) throw new CatalogImageError('the catalog reads back differently');
    return new CatalogVersion([JSON.stringify(entry)], catalog);
  }

  value(): Uint8Array | null {
    return this.log.length === 0 ? null : utf8.encode(JSON.stringify(this.log));
  }
}

/** Replays catalog values, remembering the last few (replicas and clients see the same versions repeatedly). */
export class CatalogCache {
  readonly #byValue = new Map<string, CatalogVersion>();
  /** Versions (or why they do not decode) by the very bytes object of a value (`ofStored`), kept while the value is. */
  readonly #byBytes = new WeakMap<Uint8Array, CatalogVersion | CatalogDecodeError>();
  constructor(private readonly max = 16) {}

  /**
   * `of` for a value whose bytes never change while it is referenced (a stored version's, a decoded
   * transaction's): found again by the object itself, without decoding its text (every query and every
   * validation of a replica reads the catalog); a malformed one throws its CatalogDecodeError again.
   */
  ofStored(value: Uint8Array | null): CatalogVersion {
    if (value === null) return CatalogVersion.empty;
    let v = this.#byBytes.get(value);
    if (v === undefined) {
      try {
        v = this.of(value);
      } catch (e) {
        if (!(e instanceof CatalogDecodeError)) throw e;
        v = e;
      }
      this.#byBytes.set(value, v);
    }
    if (v instanceof CatalogDecodeError) throw v;
    return v;
  }

  of(value: Uint8Array | null): CatalogVersion {
    if (value === null || value.length === 0) return CatalogVersion.empty;
    let k: string;
    try {
      k = fromUtf8.decode(value);
    } catch {
      throw new CatalogDecodeError('catalog value is not UTF-8');
    }
    let v = this.#byValue.get(k);
    if (v === undefined) {
      v = CatalogVersion.fromValue(value, this.#byValue.values());
      if (this.#byValue.size >= this.max) this.#byValue.delete(this.#byValue.keys().next().value!);
      this.#byValue.set(k, v);
    }
    return v;
  }
}
