// The WebhookStore contract against the PostgreSQL on this machine (a fresh database for this file).
import { usePgDatabase } from '../../test-support/pg-database';
import { describeWebhookContract } from '../webhook-store-suite';
import { openPgStore } from './pg-store';

const db = usePgDatabase();

describeWebhookContract('PostgreSQL', async () => {
  await db.reset();
  return openPgStore({ url: await db.url() });
});
