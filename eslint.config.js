// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// shared/ is the pure protocol core: it may not reach a framework,
// the DOM, Node, storage engines or the other halves of the project.
const sharedForbidden = {
  paths: [
    'fs',
    'path',
    'crypto',
    'url',
    'os',
    'http',
    'https',
    'net',
    'events',
    'stream',
    'buffer',
    'util',
    'child_process',
    'worker_threads',
    'process',
  ].map((name) => ({ name, message: 'shared/ is framework-free: no Node modules.' })),
  patterns: [
    { group: ['node:*'], message: 'shared/ is framework-free: no node: modules.' },
    {
      group: [
        'react',
        'react/*',
        'react-dom',
        'react-dom/*',
        'hono',
        'hono/*',
        '@hono/*',
        'mqtt',
        'mqtt/*',
        'aedes',
        'aedes/*',
        'zustand',
        'zustand/*',
        '@tanstack/*',
        'better-sqlite3',
        'pg',
        'pg/*',
        '@radix-ui/*',
        'ws',
      ],
      message: 'shared/ is framework-free: no UI, HTTP, MQTT or storage frameworks.',
    },
    {
      group: [
        '@web/*',
        '@server/*',
        '@agents/*',
        '**/web/**',
        '**/server/**',
        '**/agents/**',
        '../../web*',
        '../../server*',
        '../../agents*',
      ],
      message: 'shared/ may not import from web/, server/ or agents/.',
    },
  ],
};

// The server's layers (server/README.md "Layers", docs/decisions-server.md §47): each
// folder of server/ is one part, the files at its root and the other top-level folders are areas.
const SERVER_DOMAIN =
  '{auth,cluster,crypto,external,gateway,http,inbox,metrics,mqtt,negotiation,oacop,relay,rooms,webhooks}';
const serverElements = [
  { type: 'server', pattern: 'server/*', capture: ['part'], partialMatch: false },
  { type: 'area', pattern: '*', capture: ['area'], partialMatch: false },
];
const serverPart = (part) => ({ element: { type: 'server', captured: { part } } });
const area = (name) => ({ element: { type: 'area', captured: { area: name } } });
/** The composition: the process entry points and the runtime, which put every part together. */
const composition = [
  serverPart('{cli,runtime}'),
  { element: { type: 'area', captured: { area: 'server' }, fileInternalPath: '{main,app,cli}.ts' } },
];
const serverPolicies = [
  // The log is below everything: every part may write to it, and it knows only pino.
  { from: serverPart('logging'), disallow: { to: [serverPart('!logging'), area('{server,agents,web,shared}')] } },
  // The store is the bottom of the server: it knows storage engines, shared/ and the log, nothing above.
  // open-store.ts is the composition's engine choice from the configuration.
  {
    from: { element: { type: 'server', captured: { part: 'store' }, fileInternalPath: '!open-store.ts' } },
    disallow: { to: [serverPart('!{store,logging}'), area('{server,agents,web}')] },
  },
  // Domain code never reaches up to the routes, the demo or the composition.
  { from: serverPart(SERVER_DOMAIN), disallow: { to: [serverPart('{routes,demo}'), ...composition] } },
  // Routes are HTTP over the domain; the demo's routes sit with the demo, mounted by the composition.
  { from: serverPart('routes'), disallow: { to: [serverPart('demo'), ...composition] } },
  // agents/ is what third parties use: shared/ and npm packages only.
  { from: area('agents'), disallow: { to: [{ element: { type: 'server' } }, area('!{agents,shared}')] } },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Type-aware rules that find bugs: promises nobody awaits or whose rejection is lost, switches
    // over a union that miss a member, non-Error throws and rejections, objects
    // stringified as "[object Object]", methods torn from their object. Left out on purpose:
    // the no-unsafe-* family, require-await and no-unnecessary-type-assertion (style, not bugs).
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default` does not excuse a missing member: a new message kind must be handled on purpose.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      // `never` appears in messages of branches a type guard calls impossible; it prints fine.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNever: true }],
      '@typescript-eslint/restrict-plus-operands': 'error',
      '@typescript-eslint/unbound-method': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-duplicate-type-constituents': 'error',
      '@typescript-eslint/no-unsafe-unary-minus': 'error',
      '@typescript-eslint/no-unsafe-enum-comparison': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts', 'shared/**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', sharedForbidden] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, boundaries },
    settings: {
      'boundaries/elements': [{ type: 'feature', pattern: 'web/features/*', capture: ['feature'] }],
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // bulletproof-react: features do not import each other; shared code goes in web/lib
      // or web/components, composition happens in web/app.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: {
                to: { element: { type: 'feature', captured: { feature: '!{{ from.element.captured.feature }}' } } },
              },
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'agents/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': serverElements,
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', policies: serverPolicies }] },
  },
  {
    // An agent's tests talk to a real server, which they may start from server/test-support only.
    files: ['agents/**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': serverElements,
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            { from: area('agents'), disallow: { to: [serverPart('!test-support'), area('!{agents,shared}')] } },
          ],
        },
      ],
    },
  },
);
