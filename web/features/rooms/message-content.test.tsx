// How agent-written content renders, as the browser would receive it (server-side markup): text
// only, links only for http(s). The gateway already refuses other artifact_link URLs (AOR §6.7,
// shared/aor/payloads.ts), so these are the console's own line of defence for anything that
// reaches it another way (another gateway, old history).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageContent } from './message-content';

const link = (url: unknown, label?: string) => {
  const envelope = {
    type: 'result',
    payload: { task_id: 't', message_type: 'artifact_link', content: { url, ...(label ? { label } : {}) } },
  };
  return renderToStaticMarkup(<MessageContent envelope={envelope} raw={JSON.stringify(envelope)} />);
};

describe('MessageContent', () => {
  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    'file:///etc/passwd',
    'not a url',
    42,
  ])('marks %j as a blocked link, shown as text, never an <a>', (url) => {
    const html = link(url, 'open me');
    expect(html).not.toContain('<a');
    expect(html).toContain('Link blocked');
    expect(html).toContain('is not an http(s) address');
    expect(html).not.toMatch(/<script|onerror=|<img/i);
  });

  it('makes an http(s) URL a link with its host beside it, opened without opener or referrer', () => {
    const html = link('https://trusted.example@evil.example/login', '<b>Report</b>');
    expect(html).toContain('href="https://trusted.example@evil.example/login"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('(evil.example)');
    expect(html).toContain('&lt;b&gt;Report&lt;/b&gt;');
  });

  it('collapses a 100 KB text to its start with a toggle, keeping the page light', () => {
    const html = renderToStaticMarkup(
      <MessageContent envelope={{ type: 'result', payload: { content: { text: 'w'.repeat(100_000) } } }} raw="" />,
    );
    expect(html).toContain('Show all (100,000 characters)');
    expect(html.length).toBeLessThan(2_000);
  });

  it('renders markup in text, bullets and questions as text', () => {
    const render = (payload: object) =>
      renderToStaticMarkup(<MessageContent envelope={{ type: 'result', payload }} raw="" />);
    expect(render({ message_type: 'progress', content: { text: '<img src=x onerror=alert(1)>' } })).toContain(
      '&lt;img src=x onerror=alert(1)&gt;',
    );
    const bullets = render({ message_type: 'finding', content: { bullets: ['<svg onload=alert(1)>'] } });
    expect(bullets).toContain('&lt;svg onload=alert(1)&gt;</span></li>');
    expect(bullets).not.toContain('<svg');
    expect(
      render({ message_type: 'clarifying_question', content: { question: '"><script>alert(1)</script>' } }),
    ).toContain('&quot;&gt;&lt;script&gt;');
  });
});
