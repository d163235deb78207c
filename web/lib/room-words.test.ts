import { describe, expect, it } from 'vitest';
import { REJECT_REASONS } from '@shared/aor/reject-reasons';
import { ApiError } from '@web/lib/api/http';
import { rejectReasonInWords, relativeTime, revokeReasonInWords, roomErrorInWords, safeLinkHost } from './room-words';

describe('room words', () => {
  it('says every reject reason in words', () => {
    expect(rejectReasonInWords('no_mic_grant')).toBe('had no mic for this task');
    for (const reason of REJECT_REASONS) expect(rejectReasonInWords(reason)).not.toContain('_');
    expect(rejectReasonInWords('weird')).toBe('rejected (weird)');
  });

  it('opens only http(s) links', () => {
    expect(safeLinkHost('https://example.com/a')).toBe('example.com');
    expect(safeLinkHost('http://x.test:8080/')).toBe('x.test:8080');
    expect(safeLinkHost('javascript:alert(1)')).toBeNull();
    expect(safeLinkHost('data:text/html,hi')).toBeNull();
    expect(safeLinkHost('nope')).toBeNull();
    expect(safeLinkHost(42)).toBeNull();
  });

  it('gives relative times', () => {
    expect(relativeTime(0, 500)).toBe('just now');
    expect(relativeTime(0, 12_000)).toBe('12 seconds ago');
    expect(relativeTime(0, 5 * 60_000)).toBe('5 minutes ago');
    expect(relativeTime(0, 3 * 3_600_000)).toBe('3 hours ago');
  });

  it('turns coded errors into words', () => {
    expect(roomErrorInWords(new ApiError(403, 'FORBIDDEN', 'x'))).toMatch(/Only facilitators/);
    expect(roomErrorInWords(new ApiError(409, 'CONFLICT', 'A room "ops" already exists.'))).toBe(
      'A room "ops" already exists.',
    );
    // Neither the code nor zod's wording reaches the sentence.
    const tooLong = new ApiError(400, 'INVALID_REQUEST', 'Invalid body: name Too big', {
      issues: [{ path: 'name', message: 'Too big: expected string to have <=80 characters' }],
    });
    expect(roomErrorInWords(tooLong)).toBe('The name is too long (at most 80 characters).');
    expect(roomErrorInWords(new ApiError(418, 'TEAPOT', 'The kettle is cold.'))).toBe('The kettle is cold.');
  });

  it('says a normal end of a task as one, not as a rejection with its code', () => {
    expect(revokeReasonInWords('task_complete')).toBe('the task is done');
    expect(revokeReasonInWords('mic_grant_expired')).toBe('the mic for this task had expired');
    expect(revokeReasonInWords('all_hands_meeting')).toBe('all hands meeting');
    expect(revokeReasonInWords('Enough for today.')).toBe('Enough for today.');
  });
});
