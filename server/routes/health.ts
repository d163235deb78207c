import { Hono } from 'hono';
import { VERSION } from '../version';

export const healthRoutes = new Hono().get('/', (c) => c.json({ ok: true as const, version: VERSION }, 200));
