// The shared schemas run in the browser under a CSP without 'unsafe-eval'. zod must not probe for
// `new Function` (a CSP violation report on every load) and must validate without compiling.
// zod reads its configuration from `globalThis.__zod_globalConfig` and creates it only when
// absent, so setting it before zod is evaluated holds wherever the bundler puts zod and the
// schemas. This module imports nothing, is main.tsx's first import and a chunk of its own
// (vite.config.ts), so it runs before any chunk that builds a schema.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
