// For tests: what a call fails with, as `SQLSTATE message`, or 'no error'.

import { SqlError } from './errors.ts';

export function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return `${e.code} ${e.message}`;
    throw e;
  }
  return 'no error';
}
