// Every operation the server answers; server/routes/openapi.test.ts checks that each route
// registered in the app is one of them.
import { AUTH_OPERATIONS } from './auth';
import { CONSOLE_OPERATIONS } from './console';
import { NEGOTIATION_OPERATIONS } from './negotiation';
import type { Operation } from './operation';
import { RELAY_OPERATIONS } from './relay';
import { ROOM_OPERATIONS } from './rooms';
import { WEBHOOK_OPERATIONS } from './webhooks';

export const OPERATIONS: readonly Operation[] = [
  ...RELAY_OPERATIONS,
  ...NEGOTIATION_OPERATIONS,
  ...AUTH_OPERATIONS,
  ...ROOM_OPERATIONS,
  ...CONSOLE_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
];
