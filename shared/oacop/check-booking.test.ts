import { describe, expect, it } from 'vitest';
import { checkBooking } from './check-booking';

const busy = [{ start: '2025-12-10T09:00:00Z', end: '2025-12-10T10:00:00Z' }];
const slot = (start: string, end: string) => ({ start: `2025-12-10T${start}:00Z`, end: `2025-12-10T${end}:00Z` });

describe('checkBooking (OACoP §8.2)', () => {
  it('accepts a free slot, touching bookings included', () => {
    expect(checkBooking({ busy, slot: slot('10:00', '11:00'), constraints: {} })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(
      checkBooking({ busy, slot: slot('08:00', '09:00'), constraints: { minDuration: 'PT1H', requiresCleaningGap: 0 } })
        .ok,
    ).toBe(true);
  });

  it('is OACOP_CONFLICT when the slot overlaps a booking', () => {
    expect(checkBooking({ busy, slot: slot('09:30', '10:30'), constraints: {} })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_CONFLICT', details: { reason: 'busy' } },
    });
  });

  it('is OACOP_CONFLICT when the cleaning gap is not kept', () => {
    expect(
      checkBooking({ busy, slot: slot('10:10', '11:00'), constraints: { requiresCleaningGap: 15 } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'OACOP_CONFLICT', details: { reason: 'cleaning_gap' } },
    });
    expect(
      checkBooking({ busy, slot: slot('07:00', '08:50'), constraints: { requiresCleaningGap: 15 } }),
    ).toMatchObject({ ok: false });
    expect(checkBooking({ busy, slot: slot('10:15', '11:00'), constraints: { requiresCleaningGap: 15 } }).ok).toBe(
      true,
    );
  });

  it('is OACOP_UNSUPPORTED_CONSTRAINT when the slot is shorter than minDuration', () => {
    expect(checkBooking({ busy, slot: slot('11:00', '11:20'), constraints: { minDuration: 30 } })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_UNSUPPORTED_CONSTRAINT', details: { constraint: 'minDuration' } },
    });
  });

  it.each([
    ['an unknown constraint', { capacity: 12 }],
    ['a malformed minDuration', { minDuration: 'P1M' }],
    ['a negative cleaning gap', { requiresCleaningGap: -5 }],
    ['a fractional cleaning gap', { requiresCleaningGap: 2.5 }],
  ])('is OACOP_UNSUPPORTED_CONSTRAINT for %s', (_what, constraints) => {
    expect(checkBooking({ busy, slot: slot('11:00', '12:00'), constraints })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_UNSUPPORTED_CONSTRAINT' },
    });
  });

  it('refuses a malformed slot or calendar', () => {
    expect(checkBooking({ busy, slot: slot('12:00', '11:00'), constraints: {} })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_UNSUPPORTED_CONSTRAINT' },
    });
    expect(
      checkBooking({ busy: [{ start: 'x', end: 'y' }], slot: slot('11:00', '12:00'), constraints: {} }),
    ).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
  });
});
