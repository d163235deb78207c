// Reading a room's public timeline two ways, to compare them: what the (virtualized) timeline
// shows, and what the server stored.
import type { Page } from '@playwright/test';

/** Every message id the timeline shows, in its order, read by scrolling it top to bottom. */
export function shownMessageIds(page: Page): Promise<string[]> {
  return page.getByTestId('timeline-scroller').evaluate(async (el) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const byIndex = new Map<number, string>();
    el.scrollTop = 0;
    await frame();
    for (let guard = 0; guard < 500; guard++) {
      for (const li of el.querySelectorAll<HTMLElement>('li[data-index]'))
        byIndex.set(Number(li.dataset.index), li.dataset.messageId ?? '');
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      el.scrollTop += el.clientHeight / 2;
      await frame();
    }
    el.scrollTop = el.scrollHeight;
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  });
}

/** The room's public messages as the server stored them, in order (the newest 500). */
export function storedMessageIds(page: Page, roomId: string): Promise<string[]> {
  return page.evaluate(async (room) => {
    const res = await fetch(`/api/rooms/${room}/messages?topic=public&limit=500`);
    const body = (await res.json()) as { messages: { messageId: string }[] };
    return body.messages.map((m) => m.messageId);
  }, roomId);
}
