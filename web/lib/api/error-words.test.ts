import { describe, expect, it } from 'vitest';
import { errorCode, errorInWords, fieldInWords, issueInWords, serviceProblemInWords } from './error-words';
import { ApiError } from './http';

const invalid = (...issues: { path: string; message: string }[]) =>
  new ApiError(400, 'INVALID_REQUEST', `Invalid body: ${issues[0]?.path} ${issues[0]?.message}`, { issues });

describe('error words', () => {
  it('names fields in words', () => {
    expect(fieldInWords('baseUrl')).toBe('base URL');
    expect(fieldInWords('terms.price_per_call')).toBe('price per call');
    expect(fieldInWords('bullets.3')).toBe('bullets');
    expect(fieldInWords('')).toBe('');
  });

  it('says zod v4 issues as sentences, with the limit', () => {
    const say = (path: string, message: string) => issueInWords({ path, message });
    expect(say('name', 'Too big: expected string to have <=80 characters')).toBe(
      'The name is too long (at most 80 characters).',
    );
    expect(say('reason', 'Too small: expected string to have >=1 characters')).toBe('The reason is empty.');
    expect(say('goal', 'Too small: expected string to have >=3 characters')).toBe(
      'The goal is too short (at least 3 characters).',
    );
    expect(say('tags', 'Too big: expected array to have <=8 items')).toBe('The tags has too many entries (at most 8).');
    expect(say('maxMessages', 'Too small: expected number to be >=1')).toBe(
      'The max messages is too small (at least 1).',
    );
    expect(say('url', 'Invalid URL')).toBe('The URL is not a web address (https://…).');
    expect(say('kind', 'Invalid option: expected one of "relay"|"negotiation"')).toBe(
      'The kind must be one of relay, negotiation.',
    );
    expect(say('did', 'Invalid input: expected string, received undefined')).toBe('The DID is missing.');
    expect(say('', 'Invalid input: expected object, received array')).toBe('The request has the wrong kind of value.');
    expect(say('x', 'Something odd')).toBe('The x is not valid.');
  });

  it('turns an INVALID_REQUEST into its issues, and keeps the code for a tooltip only', () => {
    const error = invalid({ path: 'name', message: 'Too big: expected string to have <=80 characters' });
    expect(errorInWords(error)).toBe('The name is too long (at most 80 characters).');
    expect(errorInWords(error)).not.toMatch(/Invalid body|Too big|INVALID_REQUEST/);
    expect(errorCode(error)).toBe('INVALID_REQUEST');
    expect(errorInWords(new ApiError(400, 'INVALID_REQUEST', 'Invalid body: (root) nope'))).toBe(
      'The server refused the input as malformed.',
    );
    expect(errorInWords(new ApiError(404, 'NOT_FOUND', 'There is no such room.'))).toBe('There is no such room.');
  });

  it('says what is wrong with a card that is not an A2A Agent Card, field by field', () => {
    const error = new ApiError(422, 'CARD_INVALID', 'What x sent is not an A2A Agent Card: skills …', {
      reason: 'not_a_card',
      issues: [{ path: 'skills', message: 'Invalid input: expected array, received undefined' }],
    });
    expect(errorInWords(error)).toBe(
      'The address answered, but not with an A2A Agent Card this console imports. The skills is missing.',
    );
  });

  it('says a network failure in words, in any engine’s phrasing', () => {
    for (const message of ['fetch failed', 'Failed to fetch', 'NetworkError when attempting to fetch resource.'])
      expect(errorInWords(new TypeError(message))).toBe(
        'The server cannot be reached. Check the connection and try again.',
      );
    expect(serviceProblemInWords('fetch failed')).toBe('It cannot be reached.');
    expect(serviceProblemInWords('connect ECONNREFUSED 127.0.0.1:9')).toBe('It cannot be reached.');
    expect(serviceProblemInWords('answered 503')).toBe('answered 503');
    expect(errorInWords('a string')).toBe('Something went wrong.');
  });
});
