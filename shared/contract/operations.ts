// Every operation the server answers; server/routes/openapi.test.ts checks that each route
// registered in the app is one of them.
import { ACTIVITY_OPERATIONS } from './activity';
import { AGENT_OPERATIONS } from './agents';
import { AUTH_OPERATIONS } from './auth';
import { CONSOLE_OPERATIONS } from './console';
import { DIRECTORY_IMPORT_OPERATIONS } from './directory-imports';
import { INBOX_OPERATIONS } from './inbox';
import { METRICS_OPERATIONS } from './metrics';
import { NEGOTIATION_OPERATIONS } from './negotiation';
import type { Operation } from './operation';
import { OPERATOR_ADMIN_OPERATIONS, OPERATOR_OPERATIONS } from './operators';
import { RELAY_OPERATIONS } from './relay';
import { ROOM_OPERATIONS } from './rooms';
import { WEBHOOK_OPERATIONS } from './webhooks';

export const OPERATIONS: readonly Operation[] = [
  ...RELAY_OPERATIONS,
  ...NEGOTIATION_OPERATIONS,
  ...AUTH_OPERATIONS,
  ...OPERATOR_OPERATIONS,
  ...OPERATOR_ADMIN_OPERATIONS,
  ...ACTIVITY_OPERATIONS,
  ...ROOM_OPERATIONS,
  ...CONSOLE_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...DIRECTORY_IMPORT_OPERATIONS,
];
