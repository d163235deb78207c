import { describe, expect, it } from 'vitest';
import type { ExternalNegotiation } from '@web/lib/api/external-negotiations';
import type { NegotiationSummary } from '@web/lib/api/negotiations-list';
import { mergeNegotiations } from './merged-list';

const summary = (id: string, state: NegotiationSummary['state'], lastActivity: string): NegotiationSummary => ({
  id,
  state,
  parties: ['did:key:zA', 'did:key:zB'],
  opened_by: 'did:key:zA',
  category: 'pricing',
  rounds: 1,
  max_rounds: 10,
  confidentiality: 'public',
  regulated_obligations: [],
  created_at: '2026-05-03T10:00:00.000Z',
  last_activity: lastActivity,
  latest_proposal_id: null,
  valid_until: null,
  expiring_soon: false,
  agreement_id: null,
  log_index: null,
  version: 1,
});
const source = {
  id: 'svc_1',
  name: 'Partner deals',
  readOnly: false,
  status: { state: 'up' as const, since: 0, lastOkAt: 0, lastError: null, failures: 0, nextRetryAt: null },
};
const external = (
  id: string,
  negotiation: NegotiationSummary | null,
  verified: boolean,
  reason: string | null = null,
): ExternalNegotiation => ({ id, source, negotiation, verified, reason });

describe('mergeNegotiations', () => {
  const builtin = [
    summary('neg_b2', 'PROPOSED', '2026-05-03T10:05:00.000Z'),
    summary('neg_b1', 'ACCEPTED', '2026-05-03T10:01:00.000Z'),
  ];
  const ext = [
    external('neg_x1', summary('neg_x1', 'ACCEPTED', '2026-05-03T10:03:00.000Z'), true),
    external('neg_x2', null, false, 'service_unavailable'),
    external('neg_x3', summary('neg_x3', 'PROPOSED', '2026-05-03T10:09:00.000Z'), false, 'history_mismatch'),
  ];

  it('orders both sources by last activity, and lists what could not be read last', () => {
    const rows = mergeNegotiations(builtin, ext, null);
    expect(rows.map((r) => r.key)).toEqual([
      'svc_1 neg_x3',
      'built-in neg_b2',
      'svc_1 neg_x1',
      'built-in neg_b1',
      'svc_1 neg_x2',
    ]);
    expect(rows[0]).toMatchObject({
      kind: 'read',
      verified: false,
      reason: 'history_mismatch',
      source: { name: 'Partner deals' },
    });
    expect(rows[1]).toMatchObject({ kind: 'read', verified: null, source: null });
    expect(rows[4]).toMatchObject({ kind: 'unread', id: 'neg_x2', reason: 'service_unavailable' });
  });

  it('filters external negotiations by state too, and drops the unread ones under a filter', () => {
    const accepted = mergeNegotiations([builtin[1]!], ext, 'ACCEPTED');
    expect(accepted.map((r) => r.key)).toEqual(['svc_1 neg_x1', 'built-in neg_b1']);
  });

  it('keeps the same id from two sources apart', () => {
    const rows = mergeNegotiations(
      [summary('neg_same', 'OPEN', '2026-05-03T10:00:00.000Z')],
      [external('neg_same', summary('neg_same', 'OPEN', '2026-05-03T10:00:00.000Z'), true)],
      null,
    );
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
  });
});
