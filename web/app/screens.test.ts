import { describe, expect, it } from 'vitest';
import { GO_TO, NAV_TABS, SCREENS } from './screens';
import { idle, matchKey, SHORTCUTS } from './shortcut-keys';

const screens = Object.values(SCREENS);

describe('screens', () => {
  it('gives each screen its own address', () => {
    const paths = screens.map((s) => s.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('shows the tabs in the list’s order, each once', () => {
    expect(NAV_TABS.map((t) => t.label)).toEqual([
      'Inbox',
      'Rooms',
      'Agents',
      'Directory',
      'Threads',
      'Negotiations',
      'Log',
      'Scheduling',
      'Tasks',
      'Activity',
      'Services',
      'Demo',
    ]);
    expect(NAV_TABS.map((t) => t.to)).toEqual([
      '/',
      '/rooms',
      '/fleet',
      '/directory',
      '/threads',
      '/negotiations',
      '/transparency-log',
      '/scheduling',
      '/tasks',
      '/activity',
      '/settings/services',
      '/demo',
    ]);
  });

  it('keeps the tabs and the go-to keys on screens that need no parameters and sit behind the sign-in', () => {
    for (const s of screens.filter((s) => 'nav' in s || 'goTo' in s)) {
      expect(s.path).not.toContain('$');
      expect(s.access).toBe('operator');
    }
  });

  it('lists every go-to key behind ?, and each key opens its screen', () => {
    const keys = GO_TO.map((g) => g.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const { key, path, what } of GO_TO) {
      expect(SHORTCUTS).toContainEqual({ keys: ['g', key], what, scope: 'anywhere' });
      expect(matchKey(matchKey(idle, 'g', 0).state, key, 10).action).toEqual({ goTo: path });
    }
  });
});
