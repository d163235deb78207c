import { describe, expect, it } from 'vitest';
import { THREAD_STATUSES } from '@shared/agora/thread-state';
import { ApiError } from '@web/lib/api/http';
import { pricingWords, relayErrorWords, threadStatusWords } from './agora-words';

describe('agora words', () => {
  it('says every thread state in words, and why an ERROR thread ended', () => {
    for (const status of THREAD_STATUSES) expect(threadStatusWords(status).detail).not.toBe('');
    expect(threadStatusWords('ERROR', { type: 'timeout', phase: 'no_result' }).detail).toBe(
      'Timed out: the accepted agent did not deliver a result in time.',
    );
    expect(threadStatusWords('ERROR', { type: 'error_message', code: 'INTENT_NOT_SUPPORTED' }).detail).toBe(
      'Ended by an ERROR message (INTENT_NOT_SUPPORTED).',
    );
    expect(threadStatusWords('ERROR', { type: 'cancelled' }).detail).toBe('The client cancelled it.');
  });

  it('says each pricing model', () => {
    expect(pricingWords({ model: 'metered', currency: 'USD', metered_unit: 'character', metered_rate: 0.00001 })).toBe(
      '0.00001 USD per character',
    );
    expect(pricingWords({ model: 'fixed', currency: 'USD', amount: 0.02 })).toBe('0.02 USD per request');
    expect(pricingWords({ model: 'free' })).toBe('Free');
    expect(pricingWords(undefined)).toBe('No pricing declared');
  });

  it('says a relay refusal in words and always keeps its code and reason', () => {
    const refused = new ApiError(409, 'INVALID_REQUEST', 'server words', { reason: 'duplicate_accept' });
    expect(relayErrorWords(refused)).toBe(
      'An offer in this thread was already accepted. (INVALID_REQUEST, duplicate_accept)',
    );
    expect(relayErrorWords(new ApiError(400, 'TIMEOUT', 'ts too old', { reason: 'timestamp_too_old' }))).toMatch(
      /clock.*\(TIMEOUT, timestamp_too_old\)$/,
    );
    expect(relayErrorWords(new ApiError(400, 'INVALID_REQUEST', 'Something new.', { reason: 'brand_new' }))).toBe(
      'Something new. (INVALID_REQUEST, brand_new)',
    );
    expect(relayErrorWords(new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached.'))).toBe(
      'The server cannot be reached. (NETWORK_ERROR)',
    );
  });
});
