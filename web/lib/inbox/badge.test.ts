import { describe, expect, it } from 'vitest';
import { countLabel, faviconDataUrl, faviconSvg, titleWithCount } from './badge';
import { claimedBy, summaryLine } from './inbox-words';

describe('tab title and favicon count', () => {
  it('puts the count before the title, and nothing at zero', () => {
    expect(titleWithCount(0)).toBe('Switchboard');
    expect(titleWithCount(3)).toBe('(3) Switchboard');
    expect(titleWithCount(10_000)).toBe('(99+) Switchboard');
    expect(countLabel(99)).toBe('99');
  });

  it('draws a badge with the count only when something waits', () => {
    expect(faviconSvg(0)).not.toContain('<text');
    expect(faviconSvg(7)).toContain('>7</text>');
    expect(faviconSvg(250)).toContain('>99+</text>');
    expect(faviconDataUrl(7).startsWith('data:image/svg+xml,')).toBe(true);
    expect(decodeURIComponent(faviconDataUrl(7).slice('data:image/svg+xml,'.length))).toBe(faviconSvg(7));
  });
});

describe('inbox words', () => {
  const item = { claim: { did: 'did:key:zAna', name: 'Ana', until: 2_000 } };
  it('names who else is deciding, while the claim lasts', () => {
    expect(claimedBy(item as never, 'did:key:zMe', 1_000)).toBe('Ana is deciding…');
    expect(claimedBy(item as never, 'did:key:zAna', 1_000)).toBeNull();
    expect(claimedBy(item as never, 'did:key:zMe', 2_000)).toBeNull();
  });
  it('says the quiet console in one line', () => {
    expect(summaryLine({ roomsActive: 1, agentsOnline: 3, rejectsLastHour: 0 })).toBe(
      '1 room active · 3 agents online · 0 rejects in the last hour',
    );
  });
});
