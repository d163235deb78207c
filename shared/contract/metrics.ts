// GET /metrics: the Prometheus text exposition (server/routes/metrics.ts). Not JSON: the answer is
// declared as text with its media type, so /openapi.json lists it as what it is.
import { z } from 'zod';
import { operation } from './operation';

/** Prometheus text exposition format 0.0.4 (one `name{labels} value` line per series). */
export const MetricsExposition = z.string().describe('Prometheus text exposition format 0.0.4');

export const METRICS_OPERATIONS = [
  operation({
    method: 'get',
    path: '/metrics',
    errors: 'coded',
    summary: 'Prometheus metrics of this process',
    description:
      'Served only when METRICS_TOKEN is set, to `Authorization: Bearer <METRICS_TOKEN>`; otherwise 404 like any unknown path.',
    responses: {
      200: {
        description: 'The text exposition',
        schema: MetricsExposition,
        contentType: 'text/plain; version=0.0.4; charset=utf-8',
      },
    },
    refusals: { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND' },
  }),
];
