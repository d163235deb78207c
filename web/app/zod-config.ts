// The shared schemas run in the browser under a CSP without 'unsafe-eval'. Tell zod not to probe
// for `new Function` (a CSP violation report on every load) and to validate without compiling.
// Imported first by main.tsx, so it holds before any module parses anything.
import { z } from 'zod';

z.config({ jitless: true });
