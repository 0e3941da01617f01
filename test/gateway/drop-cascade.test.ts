/**
 * DROP ... CASCADE's NoticeResponse with its DETAIL (sql/notices.ts) through the gateway over the
 * engine (over a cluster: value-types-cluster.test.ts): psql prints testdata/drop-cascade.sql's notices
 * as against PostgreSQL 15 (its .out and .err), byte for byte: one notice per statement, "drop cascades
 * to N other objects" and the list in PostgreSQL's order.
 */
import { describe, it } from 'node:test';
import { engineGatewayForSuite } from './gateway-fixture.ts';
import { dropCascadeMatchesPostgres } from './value-type-checks.ts';

void describe("DROP ... CASCADE's notices through the gateway over the engine", () => {
  const port = engineGatewayForSuite();
  void it('psql prints the notice and its DETAIL as PostgreSQL 15 sends them', () => dropCascadeMatchesPostgres(port()));
});
