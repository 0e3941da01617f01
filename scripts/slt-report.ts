// The sqllogictest report command: runs .slt files against a backend and prints per-file
// pass/fail/skip counts (and, with --verbose, every failing record with expected and actual output).
//
//   node --import tsx scripts/slt-report.ts [--backend pesto|postgresql|gateway|cluster] [--verbose] [files...]
//   node --import tsx scripts/slt-report.ts --backend postgresql --complete test/sql/new.slt
//   node --import tsx scripts/slt-report.ts --backend pesto --write-known-failures
//   node --import tsx scripts/slt-report.ts --backend postgresql --start-postgres
//
// The gateway backend runs each file through the PostgreSQL wire gateway (client/gateway/) over a fresh
// single-node engine, with the node `pg` driver's simple query protocol. The cluster backend starts one
// local cluster of six replica processes (ports 7800-7805, or from PESTO_SLT_BASE_PORT) with the gateway over it for the whole run,
// and empties the database before each file (test/sql/cluster-database.ts); PESTO_SLT_SHARDS=N gives
// it N shards of six (ports from 7800), so a file's tables spread over them; PESTO_SLT_BASE_PORT=P
// moves the ports to start at P (engineers sharing a machine).
// Files default to the whole corpus (test/sql/*.slt). The postgresql backend connects with the libpq
// environment variables (PGHOST, PGPORT, PGUSER) and needs the right to create databases;
// --start-postgres instead starts a throwaway server from PG_BIN (default /usr/lib/postgresql/15/bin)
// for the run and removes it afterwards.
// --complete rewrites each file's expected query results with the backend's actual results (review
// the diff before committing). --write-known-failures regenerates test/sql/known-failures.txt from
// the pesto backend's failures. Exits non-zero when any record fails.
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

import { completeSlt } from '../sql/slt/complete-slt.ts';
import type { SltReport } from '../sql/slt/run-slt.ts';
import { openPostgresDatabase } from '../test/sql/postgres-database.ts';
import type { SltCluster } from '../test/sql/cluster-database.ts';
import type { OpenedDatabase } from '../test/sql/slt-files.ts';
import { startThrowawayPostgres } from '../test/sql/throwaway-postgres.ts';
import {
  corpusFiles,   describeFailures,
  knownFailuresPath,
  loadScript,
  readKnownFailures,
  runFile,
} from '../test/sql/slt-files.ts';

const backends: Record<string, () => Promise<OpenedDatabase>> = {
  // Imported lazily so that the PostgreSQL report runs even while the engine does not load.
  pesto: async () => (await import('../test/sql/pesto-database.ts')).openPestoDatabase(),
  postgresql: openPostgresDatabase,
  gateway: async () => (await import('../test/sql/gateway-database.ts')).openGatewayDatabase(),
  cluster: async () => {
    cluster ??= (await import('../test/sql/cluster-database.ts')).startSltCluster('slt-report', Number(process.env['PESTO_SLT_BASE_PORT'] ?? 7800), Number(process.env['PESTO_SLT_SHARDS'] ?? 1));
    return (await cluster).open();
  },
};

/** The cluster backend's cluster, started by the first file that needs it and stopped at the end. */
let cluster: Promise<SltCluster> | undefined;

type Options = {
  backend: string;
  verbose: boolean;
  complete: boolean;
  writeKnown: boolean;
  startPostgres: boolean;
  files: string[];
};

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    backend: 'pesto',
    verbose: false,
    complete: false,
    writeKnown: false,
    startPostgres: false,
    files: [],
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--backend') options.backend = argv[++i] ?? '';
    else if (arg.startsWith('--backend=')) options.backend = arg.slice('--backend='.length);
    else if (arg === '--verbose' || arg === '-v') options.verbose = true;
    else if (arg === '--complete') options.complete = true;
    else if (arg === '--write-known-failures') options.writeKnown = true;
    else if (arg === '--start-postgres') options.startPostgres = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else options.files.push(resolve(arg));
  }
  if (options.files.length === 0) options.files = corpusFiles();
  return options;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const open = backends[options.backend];
  if (open === undefined) throw new Error(`unknown backend ${options.backend} (pesto, postgresql, gateway or cluster)`);
  const server = options.startPostgres ? await startThrowawayPostgres() : null;
  try {
    return await report(options, open);
  } finally {
    server?.stop();
    if (cluster !== undefined) await (await cluster).stop();
  }
}

async function report(options: Options, open: () => Promise<OpenedDatabase>): Promise<number> {
  const reports: SltReport[] = [];
  const known: string[] = [];
  for (const file of options.files) {
    const { script, text } = loadScript(file);
    const report = await runFile(script, open);
    reports.push(report);
    const records = report.passed + report.failed + report.skipped;
    const halted = report.halted ? ' (halted)' : '';
    console.log(
      `${relative(process.cwd(), file).padEnd(40)} ${String(report.passed).padStart(5)} pass ${String(report.failed).padStart(5)} fail ${String(report.skipped).padStart(4)} skip  of ${records}${halted}`,
    );
    if (options.verbose && report.failed > 0) console.log(describeFailures(report));
    if (options.complete) writeFileSync(file, completeSlt(text, script, report));
    for (const f of report.failures) {
      const why = `${f.reason}: ${f.actual.split('\n')[0] ?? ''}`.slice(0, 100);
      known.push(`${script.name}:${f.line}  # ${why}`);
    }
  }
  const total = (key: 'passed' | 'failed' | 'skipped'): number => reports.reduce((n, r) => n + r[key], 0);
  console.log(`${'total'.padEnd(40)} ${String(total('passed')).padStart(5)} pass ${String(total('failed')).padStart(5)} fail ${String(total('skipped')).padStart(4)} skip`);
  if (options.writeKnown) {
    // Keep the entries of files this run did not cover.
    const covered = new Set(reports.map((r) => r.name));
    const kept = [...readKnownFailures()].filter((key) => !covered.has(key.replace(/:\d+$/, '')));
    // (Entries kept from files not run lose their comments; rerun on the whole corpus to restore them.)
    known.unshift(...kept);
    known.sort(compareKeys);
    const header = [
      '# Records of test/sql/*.slt the Pesto engine does not pass yet, as file:line (the record\'s first line).',
      '# test/sql/slt.test.ts fails on any failure not listed here and on any listed record that now passes.',
      '# Regenerate: node --import tsx scripts/slt-report.ts --backend pesto --write-known-failures',
    ];
    writeFileSync(knownFailuresPath, [...header, ...known, ''].join('\n'));
    console.log(`wrote ${known.length} entries to ${relative(process.cwd(), knownFailuresPath)}`);
  }
  return total('failed') > 0 ? 1 : 0;
}

function compareKeys(a: string, b: string): number {
  const [fa = '', la = '0'] = a.split(/[:\s]/);
  const [fb = '', lb = '0'] = b.split(/[:\s]/);
  return fa === fb ? Number(la) - Number(lb) : fa < fb ? -1 : 1;
}

process.exitCode = await main();
