// Flat config. Type-aware rules (no-floating-promises) need the TS program, so every linted
// file must be in tsconfig.json's "include".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_PREFIX = {
  group: [
    'fs',
    'path',
    'os',
    'child_process',
    'crypto',
    'http',
    'https',
    'net',
    'events',
    'url',
    'util',
    'stream',
    'readline',
    'assert',
  ],
  message: 'Use the node: prefix.',
};

const CORE_PATTERNS = [
  NODE_PREFIX,
  {
    group: ['**/extension/**', '**/extension'],
    message: 'src/core must not import src/extension: core is the layer both front ends stand on.',
  },
  {
    group: ['**/cli/**', '**/cli'],
    message: 'src/core must not import src/cli: core is the layer both front ends stand on.',
  },
];

const VSCODE_IN_CORE = {
  name: 'vscode',
  message: 'src/core must not import vscode; add a port in src/core/ports.ts and implement it in src/extension.',
};

/** Edges inside core that must not exist (ARCHITECTURE.md, "Code map"); each block repeats the core rules. */
const CORE_EDGES = [
  {
    files: ['src/core/config/**/*.ts'],
    group: ['**/gateway/**', '**/gateway'],
    message: 'src/core/config must not import src/core/gateway: admission and loading come before any gateway.',
  },
  {
    files: ['src/core/connection/**/*.ts'],
    group: ['**/apps/**', '**/apps'],
    message: 'src/core/connection must not import src/core/apps: shared wire names live in src/core/app-ids.ts.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'test/e2e/.artifacts/**',
      'bench/.tmp/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // State helpers live in a namespace next to their union (ARCHITECTURE.md, "Invariants").
      '@typescript-eslint/no-namespace': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'fs',
                'path',
                'os',
                'child_process',
                'crypto',
                'http',
                'https',
                'net',
                'events',
                'url',
                'util',
                'stream',
                'readline',
                'assert',
              ],
              message: 'Use the node: prefix.',
            },
          ],
        },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The core layer runs in the CLI and in plain-Node tests: it must never reach for the editor.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [VSCODE_IN_CORE],
          patterns: CORE_PATTERNS,
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name='require'][arguments.0.value='vscode'], ImportExpression[source.value='vscode']",
          message: 'src/core must not import vscode.',
        },
      ],
    },
  },
  ...CORE_EDGES.map(({ files, group, message }) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE_IN_CORE], patterns: [...CORE_PATTERNS, { group, message }] }],
    },
  })),
  {
    // The CLI is a second front end over core; it never reaches into the editor layer.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/cli runs without an editor.' }],
          patterns: [
            NODE_PREFIX,
            {
              group: ['**/extension/**', '**/extension'],
              message: 'src/cli must not import src/extension; move shared code to src/core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
