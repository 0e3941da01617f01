// Lint: type-aware rules everywhere, plus determinism rules for the pure cores (DESIGN §2):
// no I/O modules, clocks, timers or randomness in protocol/, sql/, replica/core/, client/core/.
import tseslint from 'typescript-eslint';

const coreFolders = ['protocol/**/*.ts', 'sql/**/*.ts', 'replica/core/**/*.ts', 'client/core/**/*.ts'];
const coreTests = ['**/*.test.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'tmp/**', 'protocol/gen/**', 'data/**', '.pesto/**', 'bin/**', 'eslint.config.js'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use `as const` objects and unions, not enum (STYLE.md).' },
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (STYLE.md).' }],
    },
  },
  {
    files: coreFolders,
    ignores: coreTests,
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(node:)?(fs|fs/promises|net|tls|http|http2|https|dgram|child_process|worker_threads|timers|timers/promises|os|process|perf_hooks|cluster|readline|@grpc/.*|pg)$',
          message: 'Core folders are free of I/O, clocks and randomness (DESIGN §2); do it in a shell.',
        }],
      }],
      'no-restricted-globals': ['error',
        { name: 'Date', message: 'Time comes from the injected environment (DESIGN §2).' },
        { name: 'setTimeout', message: 'Timers are effects returned by the core (DESIGN §2).' },
        { name: 'setInterval', message: 'Timers are effects returned by the core (DESIGN §2).' },
        { name: 'setImmediate', message: 'Scheduling belongs to the shell (DESIGN §2).' },
        { name: 'performance', message: 'Time comes from the injected environment (DESIGN §2).' },
        { name: 'process', message: 'No process access in a core (DESIGN §2).' }],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'Randomness comes from the injected environment (DESIGN §2).' },
        { object: 'crypto', property: 'getRandomValues', message: 'Randomness comes from the injected environment.' }],
    },
  },
);
