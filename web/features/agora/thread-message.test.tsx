// The timeline row as the browser receives it (server-side markup): agent-written markup is
// escaped text, and a failed verdict is never worded as verified.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { agentA, client, signed } from '@shared/agora/test-support/fixtures';
import { ThreadMessage } from './thread-message';
import { timelineEntry } from './thread-timeline';

/** Names come from the console's query cache (decisions-web.md §29): an empty one here. */
const render = (element: ReactElement) =>
  renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>);

const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
const entry = timelineEntry({
  seq: 1,
  cursor: 'cur_1',
  receivedAt: 0,
  envelope: signed('OFFER', { from: agentA, to: client, payload: { plan: hostile } }),
});

describe('ThreadMessage', () => {
  it('renders agent-written markup as text, in the facts and in the raw envelope', () => {
    const html = render(
      <ThreadMessage
        entry={entry}
        verdict={{ status: 'verified', signer: agentA.did }}
        mine={false}
        accepted={false}
      />,
    );
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('✓ Verified');
  });

  it('says a failed signature in words and never calls it verified; its Accept is disabled', () => {
    const html = render(
      <ThreadMessage
        entry={entry}
        verdict={{
          status: 'failed',
          reason: 'signature_invalid',
          words: 'the signature does not verify against sender.id',
        }}
        mine={false}
        accepted={false}
        onAccept={() => undefined}
      />,
    );
    expect(html).toContain('Signature does not verify: the signature does not verify against sender.id');
    expect(html).not.toContain('Verified');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>.*Accept this offer/);
  });

  it('shows "Checking signature…" until a verdict exists', () => {
    expect(render(<ThreadMessage entry={entry} verdict={undefined} mine={false} accepted={false} />)).toContain(
      'Checking signature…',
    );
  });

  it('marks an envelope the bridge did not trust unverifiable, even when its signature verifies here, and disables its Accept', () => {
    const html = render(
      <ThreadMessage
        entry={entry}
        verdict={{ status: 'verified', signer: agentA.did }}
        mine={false}
        accepted={false}
        onAccept={() => undefined}
        bridge={{
          kind: 'untrusted',
          words:
            'Unverifiable: the bridge did not trust it, its time was more than 5 minutes old when it arrived here (timestamp_too_old).',
        }}
      />,
    );
    expect(html).toContain('data-verdict="unverifiable"');
    expect(html).not.toContain('✓ Verified');
    expect(html).toContain('(timestamp_too_old)');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>.*Accept this offer/);
  });
});
