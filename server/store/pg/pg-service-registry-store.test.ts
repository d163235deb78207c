// The ServiceRegistryStore contract against the PostgreSQL on this machine (a fresh database for this file).
import { usePgDatabase } from '../../test-support/pg-database';
import { describeServiceRegistryContract } from '../service-registry-store-suite';
import { openPgStore } from './pg-store';

const db = usePgDatabase();

describeServiceRegistryContract('PostgreSQL', async () => {
  await db.reset();
  return openPgStore({ url: await db.url() });
});
