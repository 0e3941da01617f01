// Errors at the wire boundary. A `ProtocolError` means the peer broke the PostgreSQL protocol (a
// truncated field, an unknown message type, an oversized message): the connection that sent it is
// answered with a FATAL ErrorResponse carrying `code` and closed; no other connection is affected.

/** SQLSTATE codes the gateway itself emits (the engine's own codes come through the backend). */
export const GatewayState = {
  protocolViolation: '08P01',
  invalidAuthorization: '28000',
  invalidPassword: '28P01',
  tooManyConnections: '53300',
  programLimitExceeded: '54000',
  queryCanceled: '57014',
  inFailedTransaction: '25P02',
  activeSqlTransaction: '25001',
  noActiveSqlTransaction: '25P01',
  invalidSqlStatementName: '26000',
  invalidCursorName: '34000',
  duplicatePreparedStatement: '42P05',
  duplicateCursor: '42P03',
  syntaxError: '42601',
  datatypeMismatch: '42804',
  undefinedObject: '42704',
  invalidParameterValue: '22023',
  invalidTextRepresentation: '22P02',
  invalidBinaryRepresentation: '22P03',
  featureNotSupported: '0A000',
  objectNotInPrerequisiteState: '55000',
  wrongObjectType: '42809',
  invalidCatalogName: '3D000',
  badCopyFileFormat: '22P04',
  adminShutdown: '57P01',
} as const;

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: string;
  constructor(message: string, code: string = GatewayState.protocolViolation, readonly detail?: string) {
    super(message);
    this.code = code;
  }
}
