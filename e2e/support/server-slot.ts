// Which of global-setup's servers a Playwright worker uses: the one of its parallel slot
// (TEST_PARALLEL_INDEX, set before the worker loads playwright.config.ts). global-setup publishes
// each server's addresses as SWITCHBOARD_URL_<slot> and so on; `useSlotServer` copies its slot's
// into the plain names the journeys and their helpers read.

/** What a journey needs to know of its server. */
export const SERVER_VARIABLES = [
  'SWITCHBOARD_URL',
  'SWITCHBOARD_ENROLL_URL',
  'SWITCHBOARD_DATA_DIR',
  'SWITCHBOARD_MQTT_URL',
] as const;

export const slotVariable = (name: (typeof SERVER_VARIABLES)[number], slot: number | string) => `${name}_${slot}`;

/** In a worker: points the plain variables at this worker's server. Elsewhere (the runner): nothing. */
export function useSlotServer(): void {
  const slot = process.env.TEST_PARALLEL_INDEX;
  if (slot === undefined) return;
  for (const name of SERVER_VARIABLES) {
    const value = process.env[slotVariable(name, slot)];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
