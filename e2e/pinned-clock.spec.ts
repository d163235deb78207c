// In a run pinned to another instant (scripts/pinned-clocks.sh; decisions-server.md §69) the
// journey's own process, the browser and the server all read the pinned time, running on from
// it: without that, a pinned run would test nothing. Outside a pinned run there is nothing to check.
import { expect, test } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

const pinned = process.env.SWITCHBOARD_TEST_CLOCK;

test.skip(!pinned, 'checked only in a run pinned to another instant (scripts/pinned-clocks.sh)');

let demo: DemoConsole;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser);
});

test.afterAll(async () => {
  await demo?.close();
});

test('this process, the browser and the server read the pinned time', async () => {
  const instant = Date.parse(pinned!.split('@')[0]!);
  // The run began at the instant and has been going for less than an hour.
  const here = Date.now();
  expect(here).toBeGreaterThanOrEqual(instant);
  expect(here - instant).toBeLessThan(3_600_000);
  // The browser's clock was installed at this process's time and runs at the same rate.
  const inBrowser = await demo.page.evaluate(() => Date.now());
  expect(Math.abs(inBrowser - Date.now())).toBeLessThan(10_000);
  // The demo room's messages are stamped by the server's clock as they arrive.
  await expect
    .poll(async () => {
      const answer = await demo.page.request.get('/api/rooms/demo/messages?limit=20');
      const { messages } = (await answer.json()) as { messages: { receivedAt: number }[] };
      const newest = Math.max(...messages.map((m) => m.receivedAt));
      return Math.abs(newest - Date.now()) < 60_000;
    })
    .toBe(true);
});
