// OperatorPresence's bounds, on a hand-moved clock: the table never holds more than MAX_ENTRIES
// heartbeats, dropping expired ones on the next beat and then the oldest.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/manual-clock';
import { EXPIRES_MS, MAX_ENTRIES, OperatorPresence, PLACES_PER_SESSION } from './operator-presence';

const who = (n: number) => ({ did: `did:key:z${n}`, name: null, role: 'observer' as const });

describe('OperatorPresence', () => {
  it('holds at most MAX_ENTRIES heartbeats, forgetting the oldest first', () => {
    const clock = manualClock();
    const presence = new OperatorPresence(clock);
    const sessions = Math.ceil((MAX_ENTRIES + 10) / PLACES_PER_SESSION);
    let beats = 0;
    for (let s = 0; s < sessions; s += 1)
      for (let p = 0; p < PLACES_PER_SESSION && beats < MAX_ENTRIES + 10; p += 1, beats += 1) {
        clock.advance(1);
        presence.beat(`s${s}`, `/rooms/r${p}`, who(s));
      }
    expect(presence.size).toBe(MAX_ENTRIES);
    // The very first heartbeats (session 0's) went; the newest stayed.
    expect(presence.list('/rooms/r0').map((o) => o.did)).not.toContain('did:key:z0');
    expect(presence.list('/rooms/r1').map((o) => o.did)).toContain(`did:key:z${sessions - 1}`);
  });

  it('drops expired heartbeats on the next beat, and keeps the live ones', () => {
    const clock = manualClock();
    const presence = new OperatorPresence(clock);
    for (let s = 0; s < 1000; s += 1) presence.beat(`old${s}`, '/rooms/a', who(s));
    clock.advance(EXPIRES_MS / 2);
    presence.beat('live', '/rooms/a', who(-2));
    expect(presence.size).toBe(1001);
    clock.advance(EXPIRES_MS / 2 + 1);
    // Listing hides the expired at once; the table drops them on the next beat.
    expect(presence.size).toBe(1001);
    expect(presence.list('/rooms/a').map((o) => o.did)).toEqual(['did:key:z-2']);
    presence.beat('fresh', '/rooms/b', who(-1));
    expect(presence.size).toBe(2);
    expect(presence.list('/rooms/b')).toHaveLength(1);
  });
});
