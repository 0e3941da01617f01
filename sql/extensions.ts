// Extensions (CREATE EXTENSION, DROP EXTENSION) as PostgreSQL 15 has them, for the two that Pesto can
// honestly offer: plpgsql, which every PostgreSQL database has (Pesto runs no procedural code; CREATE
// EXTENSION plpgsql says it exists, as PostgreSQL does), and uuid-ossp, whose functions are here (ORMs
// such as TypeORM run `CREATE EXTENSION IF NOT EXISTS "uuid-ossp"` and default uuid keys to
// uuid_generate_v4()). Any other is PostgreSQL's 0A000 "is not available". uuid-ossp's functions exist
// only while it is installed (42883 otherwise, as in PostgreSQL); a column default that calls one makes
// DROP EXTENSION fail with 2BP01 unless CASCADE, which drops the default.
//
// uuid_generate_v1 and v1mc take their time from the transaction's timestamp and a random clock
// sequence and node (with the multicast bit: Pesto reads no MAC address), v4 is random; these run at
// the client (replicas must agree on results). v3 and v5 hash a namespace and a name (MD5, SHA-1) and
// run anywhere.

import type { CreateExtensionStmt } from 'libpg-query';
import type { Catalog } from './catalog.ts';
import { dropDependentDefaults, type DdlOutcome } from './ddl-build.ts';
import { SqlError, SqlState } from './errors.ts';
import { findExpr } from './expr.ts';
import { md5Bytes } from './md5.ts';
import { sha1Bytes } from './sha1.ts';
import { uuidBytes, uuidText } from './value-binary.ts';

const UUID_OSSP = ['uuid_generate_v1', 'uuid_generate_v1mc', 'uuid_generate_v3', 'uuid_generate_v4', 'uuid_generate_v5',
  'uuid_nil', 'uuid_ns_dns', 'uuid_ns_url', 'uuid_ns_oid', 'uuid_ns_x500'] as const;

/** The extensions Pesto has, with PostgreSQL 15's versions of them. */
const AVAILABLE: Readonly<Record<string, { readonly version: string; readonly functions: readonly string[] }>> = {
  'uuid-ossp': { version: '1.1', functions: UUID_OSSP },
};

/** plpgsql: present in every database, as in PostgreSQL. */
const BUILT_IN = new Set(['plpgsql']);

export function isBuiltInExtension(name: string): boolean {
  return BUILT_IN.has(name);
}

/** The extension function `name` belongs to, if any. */
export function extensionOf(name: string): string | undefined {
  for (const [ext, e] of Object.entries(AVAILABLE)) if (e.functions.includes(name)) return ext;
  return undefined;
}

export function createExtension(catalog: Catalog, s: CreateExtensionStmt): DdlOutcome {
  const name = s.extname ?? '';
  if (BUILT_IN.has(name) || catalog.extensionVersion(name) !== undefined) {
    if (s.if_not_exists) return { tag: 'CREATE EXTENSION', touched: [], notice: `extension "${name}" already exists, skipping` };
    throw new SqlError(SqlState.duplicateObject, `extension "${name}" already exists`);
  }
  const ext = AVAILABLE[name];
  if (ext === undefined) {
    throw new SqlError(SqlState.featureNotSupported, `extension "${name}" is not available`, undefined, undefined,
      `Pesto offers the extensions ${[...BUILT_IN, ...Object.keys(AVAILABLE)].join(', ')}.`);
  }
  catalog.putExtension(name, ext.version);
  return { tag: 'CREATE EXTENSION', touched: [] };
}

export function dropExtensions(catalog: Catalog, names: readonly string[], missingOk: boolean, cascade: boolean): DdlOutcome {
  const notices: string[] = [];
  for (const n of names) {
    if (BUILT_IN.has(n)) throw new SqlError(SqlState.featureNotSupported, `extension "${n}" cannot be dropped in Pesto`);
    if (catalog.extensionVersion(n) === undefined && !missingOk) throw new SqlError(SqlState.undefinedObject, `extension "${n}" does not exist`);
  }
  for (const n of names) {
    if (catalog.extensionVersion(n) === undefined) {
      notices.push(`extension "${n}" does not exist, skipping`);
      continue;
    }
    const functions = AVAILABLE[n]?.functions ?? [];
    dropDependentDefaults(catalog, `extension ${n}`, (def) => {
      const call = findExpr(def, (x) => x.k === 'func' && functions.includes(x.fn));
      return call?.k === 'func' ? `function ${call.fn}()` : null;
    }, cascade, notices);
    catalog.removeExtension(n);
  }
  return { tag: 'DROP EXTENSION', touched: [], ...(notices.length > 0 ? { notice: notices.join('\n') } : {}) };
}

/** uuid-ossp's namespace UUIDs (RFC 4122 appendix C) and the nil UUID. */
export const UUID_CONSTANTS: Readonly<Record<string, string>> = {
  uuid_nil: '00000000-0000-0000-0000-000000000000',
  uuid_ns_dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  uuid_ns_url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  uuid_ns_oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  uuid_ns_x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

/** A name-based UUID (version 3: MD5, 5: SHA-1) of `name` in `namespace`. */
export function nameBasedUuid(version: 3 | 5, namespace: string, name: string): string {
  const text = new TextEncoder().encode(name);
  const input = new Uint8Array(16 + text.length);
  input.set(uuidBytes(namespace));
  input.set(text, 16);
  const digest = version === 3 ? Uint8Array.from(Buffer.from(md5Bytes(input), 'hex')) : sha1Bytes(input);
  return stamped(digest.subarray(0, 16), version);
}

/**
 * A time-based UUID (version 1) at `unixMicros`: 100-ns intervals since 1582-10-15, then a random
 * 14-bit clock sequence and a random node with the multicast bit set (uuid_generate_v1mc's form).
 */
export function timeBasedUuid(unixMicros: bigint, random: Uint8Array): string {
  const t = unixMicros * 10n + 0x01b21dd213814000n;
  const b = new Uint8Array(16);
  const low = Number(t & 0xffffffffn);
  b[0] = low >>> 24; b[1] = (low >>> 16) & 0xff; b[2] = (low >>> 8) & 0xff; b[3] = low & 0xff;
  const mid = Number((t >> 32n) & 0xffffn);
  b[4] = mid >>> 8; b[5] = mid & 0xff;
  const high = Number((t >> 48n) & 0x0fffn);
  b[6] = high >>> 8; b[7] = high & 0xff;
  b.set(random.subarray(0, 8), 8);
  b[10] = b[10]! | 0x01; // the node's multicast bit: not a real MAC address
  return stamped(b, 1);
}

/** `b` with the UUID version in its high nibble of byte 6 and the RFC 4122 variant in byte 8. */
function stamped(b: Uint8Array, version: number): string {
  const out = Uint8Array.from(b);
  out[6] = (out[6]! & 0x0f) | (version << 4);
  out[8] = (out[8]! & 0x3f) | 0x80;
  return uuidText(out);
}
