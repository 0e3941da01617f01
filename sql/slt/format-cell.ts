// sqllogictest's value formatting, applied to PostgreSQL text output so that every backend is judged
// on the same strings:
//   - NULL is `NULL`, and an empty string is `(empty)`, whatever the column type;
//   - I: integers as they are; a decimal is truncated toward zero (the original runner reads the
//     column as a 64-bit integer); booleans `t`/`f` become 1/0 (SQLite's comparisons are integers);
//   - R: a number with exactly three decimals (C's `%.3f`, via toFixed); NaN and Infinity as text;
//   - T, and any other type character: the text itself.
// Control characters are replaced with `@`, as the original does, so that a result stays one line.
import type { SltCell } from './slt-database.ts';

const integerText = /^[+-]?\d+$/;
const decimalText = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function formatCell(cell: SltCell, type: string): string {
  if (cell === null) return 'NULL';
  if (cell === '') return '(empty)';
  switch (type) {
    case 'I':
      return sanitize(formatInteger(cell));
    case 'R':
      return sanitize(formatReal(cell));
    default:
      return sanitize(cell);
  }
}

function formatInteger(cell: string): string {
  if (integerText.test(cell)) return cell.replace(/^\+/, '');
  if (cell === 't') return '1';
  if (cell === 'f') return '0';
  if (decimalText.test(cell)) {
    const truncated = Math.trunc(Number(cell));
    return Number.isSafeInteger(truncated) ? String(truncated) : cell.replace(/\..*$/, '');
  }
  return cell;
}

function formatReal(cell: string): string {
  if (!decimalText.test(cell)) return cell;
  const value = Number(cell);
  if (!Number.isFinite(value)) return cell;
  if (Math.abs(value) >= 1e21) return value.toExponential(3);
  const fixed = value.toFixed(3);
  return fixed === '-0.000' ? '0.000' : fixed;
}

function sanitize(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '@');
}
