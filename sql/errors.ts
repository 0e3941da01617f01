// SQL errors as values with PostgreSQL SQLSTATE codes. Everything the engine rejects (bad SQL, bad data,
// constraint violations) is a `SqlError`; the session API boundary turns any thrown `SqlError` into an
// `{ ok: false }` result. A thrown `InvariantError` means our own code is wrong, never the user's input;
// the boundary still converts it (SQLSTATE XX000) so one bad statement cannot kill a server.

/** SQLSTATE codes we emit, named after PostgreSQL's errcodes.txt. */
export const SqlState = {
  syntaxError: '42601',
  undefinedTable: '42P01',
  undefinedColumn: '42703',
  undefinedFunction: '42883',
  undefinedObject: '42704',
  duplicateTable: '42P07',
  duplicateObject: '42710',
  duplicateColumn: '42701',
  ambiguousColumn: '42702',
  datatypeMismatch: '42804',
  groupingError: '42803',
  invalidColumnReference: '42P10',
  cannotCoerce: '42846',
  indeterminateDatatype: '42P18',
  invalidTableDefinition: '42P16',
  wrongObjectType: '42809',
  invalidSchemaName: '3F000',
  invalidRecursion: '42P17',
  uniqueViolation: '23505',
  notNullViolation: '23502',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  invalidForeignKey: '42830',
  dependentObjectsStillExist: '2BP01',
  divisionByZero: '22012',
  numericValueOutOfRange: '22003',
  invalidTextRepresentation: '22P02',
  stringDataRightTruncation: '22001',
  invalidDatetimeFormat: '22007',
  datetimeFieldOverflow: '22008',
  invalidTimeZoneDisplacementValue: '22009',
  intervalFieldOverflow: '22015',
  invalidParameterValue: '22023',
  invalidRowCountInLimit: '2201W',
  invalidRowCountInOffset: '2201X',
  cardinalityViolation: '21000',
  featureNotSupported: '0A000',
  inFailedTransaction: '25P02',
  activeSqlTransaction: '25001',
  noActiveSqlTransaction: '25P01',
  serializationFailure: '40001',
  protocolViolation: '08P01',
  undefinedParameter: '42P02',
  invalidSqlStatementName: '26000',
  internalError: 'XX000',
  objectNotInPrerequisiteState: '55000',
  lockNotAvailable: '55P03',
  queryCanceled: '57014',
  programLimitExceeded: '54000',
  untranslatableCharacter: '22P05',
  invalidName: '42602',
  dataCorrupted: 'XX001',
  insufficientPrivilege: '42501',
  reservedName: '42939',
  objectInUse: '55006',
  invalidGrantOperation: '0LP01',
} as const;
export type SqlStateCode = (typeof SqlState)[keyof typeof SqlState];

/** A user-visible SQL error: SQLSTATE plus PostgreSQL's message wording where practical. */
export class SqlError extends Error {
  override readonly name = 'SqlError';
  readonly code: string;
  readonly detail: string | undefined;
  /** 1-based character position in the statement text, as PostgreSQL reports it, when known. */
  readonly position: number | undefined;
  /** PostgreSQL's HINT line, when it gives one. */
  readonly hint: string | undefined;
  /**
   * The byte offset in the statement's text of the parse node the error is about (`locate`), until
   * `positioned` turns it into `position` with the text.
   */
  readonly location: number | undefined;
  constructor(code: string, message: string, detail?: string, position?: number, hint?: string, location?: number) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.position = position;
    this.hint = hint;
    this.location = location;
  }
}

/**
 * Runs `f`; a SqlError with one of `codes` that has no location yet gets `location`, a parse node's
 * byte offset (the innermost node that knows wins), so PostgreSQL's `LINE 1: ... ^` can point at it.
 */
export function locate<T>(location: number | undefined, codes: readonly string[], f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (location === undefined || !(e instanceof SqlError) || e.location !== undefined || e.position !== undefined || !codes.includes(e.code)) throw e;
    throw new SqlError(e.code, e.message, e.detail, undefined, e.hint, location);
  }
}

/** `e` with its location as PostgreSQL's position in `text`: 1-based, in characters. */
export function positioned(e: SqlError, text: string): SqlError {
  if (e.location === undefined || e.position !== undefined) return e;
  const chars = Buffer.from(text, 'utf8').subarray(0, e.location).toString('utf8').length;
  return new SqlError(e.code, e.message, e.detail, chars + 1, e.hint);
}

/** Thrown when the engine's own invariants break (a bug in Pesto, not in the SQL). */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

export function sqlError(code: string, message: string, detail?: string): SqlError {
  return new SqlError(code, message, detail);
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

export function assertNever(value: never, what = 'value'): never {
  throw new InvariantError(`unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Converts anything thrown inside the engine into a SqlError (the API boundary never throws). */
export function toSqlError(e: unknown): SqlError {
  if (e instanceof SqlError) return e;
  if (e instanceof InvariantError) return new SqlError(SqlState.internalError, `internal error: ${e.message}`);
  // A lower layer's failure that names its SQLSTATE: the client's TransactionTooOldError (40001, a retry
  // of the whole transaction at a fresh timestamp may succeed) and TransactionTooLargeError (54000).
  const sqlState = (e as { sqlState?: unknown } | null)?.sqlState;
  if (e instanceof Error && typeof sqlState === 'string') return new SqlError(sqlState, e.message);
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new SqlError(SqlState.programLimitExceeded, 'stack depth limit exceeded');
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new SqlError(SqlState.internalError, `internal error: ${msg}`);
}
