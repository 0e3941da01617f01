#!/usr/bin/env node
// `pesto` command: runs the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';
register();
await import('../cli/pesto.ts');
