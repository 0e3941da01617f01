import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from './engine.ts';
import { Numeric, SqlDate, SqlTimestamp, type Row } from './types.ts';
import { decodeColumns, decodeRow, encodeRow, RowCodecError } from './row-codec.ts';
import { formatBinary } from './value-binary.ts';
import { SqlArray } from './sql-array.ts';
import { SqlError } from './errors.ts';
import { pkOfRowKey, rowKey, tableIdOfKey, tableKeyRange, tablePrefix } from './row-key.ts';

const engine = await Engine.create();
const s = engine.session();
s.execute(`CREATE TABLE every (i2 smallint, i4 int, i8 bigint PRIMARY KEY, n numeric(12,3), f4 real, f8 double precision,
  t text, v varchar(5), c char(4), b boolean, d date, ts timestamp)`);
const every = engine.catalog.require('every');

void describe('row values', () => {
  void it('round-trip every column type exactly, NULLs included', () => {
    const rows: Row[] = [
      [-3, 2147483647, 9007199254740993n, Numeric.parse('-12.500'), Math.fround(1.5), -0.125, 'héllo\u0000x', 'abc', 'ab  ', true,
        new SqlDate(19000), new SqlTimestamp(1_704_067_200_123_456n)],
      [null, null, 1, null, null, null, null, null, null, null, null, null],
      // A leading U+FEFF is a character, not a byte-order mark to drop.
      [null, null, 2, null, null, null, '\uFEFFbom', '\uFEFF', '\uFEFF   ', null, null, null],
    ];
    for (const row of rows) assert.deepEqual(decodeRow(every, encodeRow(every, row)), row);
  });

  void it('write the documented framing byte for byte, one fresh array per row however large', () => {
    // The framing spelled out: u8 format, u16 column count, per column i32 length (-1 for NULL) and
    // the value's binary send form (formatBinary), big-endian.
    const framed = (row: Row): Uint8Array => {
      const parts: number[] = [1, row.length >> 8, row.length & 0xff];
      const i32 = (v: number): void => void parts.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
      row.forEach((v, i) => {
        if (v === null) return i32(-1);
        const b = formatBinary(v, every.columns[i]!.type);
        i32(b.length);
        parts.push(...b);
      });
      return Uint8Array.from(parts);
    };
    const rows: Row[] = [
      [-3, 2147483647, 9007199254740993n, Numeric.parse('-12.500'), Math.fround(1.5), -0.125, 'héllo', 'abc', 'ab  ', true, new SqlDate(19000), new SqlTimestamp(1n)],
      [null, -1, -(2 ** 53) + 1, Numeric.parse('0'), -0, Number.NaN, 'x'.repeat(65), '', 'abcd', false, null, null],
      [1, 2, 3, null, null, null, 'y'.repeat(5000), null, null, null, null, null],
    ];
    const out = rows.map((row) => encodeRow(every, row));
    out.forEach((bytes, i) => assert.deepEqual(bytes, framed(rows[i]!), `row ${i}`));
    // Each row owns its bytes: encoding another does not change an earlier one.
    assert.deepEqual(out[0], framed(rows[0]!));
  });

  void it('decode the columns asked for alone, as decodeRow does, and leave the others untouched', () => {
    const row: Row = [-3, 7, 1, Numeric.parse('2.5'), null, 0.5, 'héllo', 'abc', null, true, new SqlDate(19000), null];
    const bytes = encodeRow(every, row);
    for (const columns of [[], [1], [0, 6], [4, 8, 11], [2, 3, 9, 10]]) {
      const into = new Array<unknown>(row.length).fill('untouched') as Row;
      decodeColumns(every, bytes, columns, into);
      into.forEach((v, i) => assert.deepEqual(v, columns.includes(i) ? row[i] : 'untouched', `column ${i} of [${columns.join(', ')}]`));
    }
    // Framing is checked although later values are not parsed.
    assert.throws(() => decodeColumns(every, bytes.subarray(0, bytes.length - 1), [0], [...row]), RowCodecError);
    assert.throws(() => decodeColumns(every, new Uint8Array([2, 0, 0]), [0], [...row]), RowCodecError);
  });

  void it('fill columns added after the row was written with their constant default', () => {
    const before = encodeRow(every, [1, 2, 3, null, null, null, 'x', null, null, false, null, null]);
    s.execute("ALTER TABLE every ADD COLUMN extra text DEFAULT 'dflt'");
    const after = engine.catalog.require('every');
    assert.deepEqual(decodeRow(after, before).slice(-2), [null, 'dflt']);
    const into = new Array<unknown>(13).fill('untouched') as Row;
    decodeColumns(after, before, [1, 12], into);
    assert.deepEqual([into[1], into[12]], [2, 'dflt']);
  });
});

void describe('array columns', () => {
  s.execute("CREATE TABLE arrs (id int PRIMARY KEY, t text[], n numeric(6,2)[], i int8[], v varchar(4)[])");
  const arrs = engine.catalog.require('arrs');

  void it('round-trip arrays with NULL elements, empty arrays and NULL arrays', () => {
    const rows: Row[] = [
      [1, new SqlArray('text', ['a b', null, '', 'NULL', '{"x"}', 'héllo']), new SqlArray('numeric', [Numeric.parse('1.50'), null]),
        new SqlArray('int8', [9007199254740993n, -1]), new SqlArray('varchar', [null])],
      [2, new SqlArray('text', []), new SqlArray('numeric', []), new SqlArray('int8', []), new SqlArray('varchar', [])],
      [3, null, null, null, null],
    ];
    for (const row of rows) {
      const back = decodeRow(arrs, encodeRow(arrs, row));
      assert.deepEqual(back, row);
      const into = new Array<unknown>(5).fill('untouched') as Row;
      decodeColumns(arrs, encodeRow(arrs, row), [1, 3], into);
      assert.deepEqual([into[0], into[1], into[2], into[3]], ['untouched', row[1], 'untouched', row[3]]);
    }
  });

  void it('store an array as its binary send form inside the unchanged row framing', () => {
    const a = new SqlArray('text', ['x', null]);
    const bytes = encodeRow(arrs, [1, a, null, null, null]);
    const body = formatBinary(a, '_text');
    // array_send: ndim 1, has-nulls flag, element oid 25 (text), length 2, lower bound 1, elements.
    assert.deepEqual([...body.subarray(0, 20)], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 25, 0, 0, 0, 2, 0, 0, 0, 1]);
    assert.deepEqual([...bytes.subarray(0, 11)], [1, 0, 5, 0, 0, 0, 4, 0, 0, 0, 1]);
    assert.deepEqual(bytes.subarray(11, 15), Uint8Array.from([0, 0, 0, body.length]));
    assert.deepEqual(bytes.subarray(15, 15 + body.length), body);
  });

  void it('refuse stored array bytes of another element type or cut short with an error, not a crash', () => {
    const asText = encodeRow(arrs, [1, new SqlArray('text', ['q']), null, null, null]);
    // The text[] value read as an int8[] column.
    const asInt8 = { ...arrs, columns: arrs.columns.map((c, i) => (i === 1 ? { ...c, type: '_int8' as const } : c)) };
    assert.throws(() => decodeRow(asInt8, asText), (e: unknown) => e instanceof SqlError && e.code === '42804');
    assert.throws(() => decodeRow(arrs, asText.subarray(0, asText.length - 1)), RowCodecError);
  });

  void it('give rows written before ADD COLUMN the array default', () => {
    const before = encodeRow(arrs, [4, null, null, null, null]);
    s.execute("ALTER TABLE arrs ADD COLUMN extra int[] DEFAULT '{1,NULL}'");
    assert.deepEqual(decodeRow(engine.catalog.require('arrs'), before)[5], new SqlArray('int4', [1, null]));
  });
});

void describe('row keys', () => {
  void it('prefix the primary key with the 4-byte big-endian table id', () => {
    assert.equal(tablePrefix(0x01020304), '\x01\x02\x03\x04');
    const k = rowKey(258, '\x02abc');
    assert.equal(k, '\x00\x00\x01\x02\x02abc');
    assert.equal(tableIdOfKey(k), 258);
    assert.equal(pkOfRowKey(k), '\x02abc');
    assert.equal(tableIdOfKey('\xff\xff\xff\xffz'), 0xffffffff);
    assert.equal(tableIdOfKey('ab'), null);
  });

  void it('keep one table contiguous and below the next one', () => {
    const r = tableKeyRange(7, '', null);
    assert.equal(r.lo, tablePrefix(7));
    assert.equal(r.hi, tablePrefix(8));
    assert.ok(rowKey(7, '\xff\xff\xff') < r.hi!);
    assert.deepEqual(tableKeyRange(7, '\x02a', '\x02b'), { lo: tablePrefix(7) + '\x02a', hi: tablePrefix(7) + '\x02b' });
  });
});
