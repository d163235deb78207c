// The AgentImportStore contract against the PostgreSQL on this machine (a fresh database for this file).
import { usePgDatabase } from '../../test-support/pg-database';
import { describeAgentImportContract } from '../agent-import-store-suite';
import { openPgStore } from './pg-store';

const db = usePgDatabase();

describeAgentImportContract('PostgreSQL', async () => {
  await db.reset();
  return openPgStore({ url: await db.url() });
});
