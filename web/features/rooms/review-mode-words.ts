// What switching a room's review mode does, in words for its confirmation (decisions-web.md §28):
// it changes the room for everyone in it, so the confirmation says who is here.
import type { PresentOperator } from '@shared/contract/operators';
import { displayName, namesInWords } from '@web/lib/operators/operator-words';

export interface ReviewModeWords {
  readonly title: string;
  readonly what: string;
  readonly who: string;
  readonly confirm: string;
}

export function reviewModeWords(
  turnOn: boolean,
  here: readonly PresentOperator[] | undefined,
  me: string | null,
): ReviewModeWords {
  const others = (here ?? []).filter((o) => o.did !== me);
  const who =
    here === undefined
      ? 'It applies to every facilitator and every agent in this room.'
      : others.length === 0
        ? 'No other operator has this room open now; it applies to every facilitator and every agent in it all the same.'
        : `${others.length === 1 ? '1 other operator has' : `${others.length} other operators have`} this room open (${namesInWords(others.map(displayName))}); it applies to them, to every other facilitator and to every agent in the room.`;
  return turnOn
    ? {
        title: 'Turn on review mode for everyone in this room?',
        what: 'From now on every agent’s message waits in a review queue until a facilitator approves it; nothing reaches the room on its own.',
        who,
        confirm: 'Turn on review mode',
      }
    : {
        title: 'Turn off review mode for everyone in this room?',
        what: 'From now on agents’ messages that pass the gateway’s rules reach the room at once, with no facilitator approving them.',
        who,
        confirm: 'Turn off review mode',
      };
}
