/**
 * psql 15's `\d index` and `\d+ index` through the gateway over the engine (over a cluster:
 * value-types-cluster.test.ts): testdata/index-describe.sql, whose .out and .err are PostgreSQL 15's,
 * byte for byte (client/gateway/psql-describe-index.ts).
 */
import { describe, it } from 'node:test';
import { engineGatewayForSuite } from './gateway-fixture.ts';
import { indexDescribeMatchesPostgres } from './value-type-checks.ts';

void describe('psql describes indexes through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it("\\d and \\d+ of primary keys, unique, expression and partial indexes print what PostgreSQL 15 prints", () => indexDescribeMatchesPostgres(port()));
});
