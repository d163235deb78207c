import { describe, expect, it } from 'vitest';
import { Metadata, OsnapId } from './fields';

describe('OSNAP fields', () => {
  it('ids: the spec examples, UUIDs and did:key fit; empty, spaced and huge ids do not', () => {
    for (const id of [
      'agent-123',
      'f287b6e8-8a67-4c10-9a45-12a05a8f1b87',
      'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    ]) {
      expect(OsnapId.safeParse(id).success).toBe(true);
    }
    for (const id of ['', 'agent 123', 'x'.repeat(257)]) expect(OsnapId.safeParse(id).success).toBe(false);
  });

  it('metadata: timestamp required in ISO 8601 UTC; priority low|medium|high; order a natural number', () => {
    expect(Metadata.safeParse({ timestamp: '2023-04-29T10:30:00Z', priority: 'low', order: 1 }).success).toBe(true);
    expect(Metadata.safeParse({}).success).toBe(false);
    expect(Metadata.safeParse({ timestamp: '2023-04-29T10:30:00+02:00' }).success).toBe(false);
    expect(Metadata.safeParse({ timestamp: '2023-04-29T10:30:00Z', order: -1 }).success).toBe(false);
  });
});
