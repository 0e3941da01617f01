/**
 * The SQL engine of simulated runs (parser, planner, evaluator; sql/engine.ts). `Engine.create()` is
 * async (it loads the PostgreSQL parser) and a run is one synchronous loop, so the engine is made once
 * per process, before any run, and shared: replicas only parse and plan with it (caches that are pure
 * functions of the statement text and the catalog), so sharing it keeps runs deterministic.
 */
import { Engine } from '../sql/engine.ts';

let engine: Promise<Engine> | null = null;

export function simEngine(): Promise<Engine> {
  engine ??= Engine.create();
  return engine;
}
