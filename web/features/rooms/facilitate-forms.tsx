// Speak in the room (with @agent completion), and assign a task with its mic grant
// (assign-task-form.tsx). Observers see the forms disabled.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { fitsLimit } from '@shared/contract/text-limits';
import { CharCounter } from '@web/components/ui/char-counter';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';
import { say } from '@web/lib/mqtt/publish';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { completeMention, matchAgents, mentionAt } from './mention-complete';
import { roomErrorInWords } from '@web/lib/room-words';

export { AssignTaskForm } from './assign-task-form';

/** Text put into the say box from elsewhere (Reply to a question); `n` makes a repeat count. */
export interface SayDraft {
  readonly text: string;
  readonly n: number;
}

/**
 * Speaks as the facilitator on public (AOR §5.1), with `@agent` completion from the agents present:
 * a combobox whose list opens on "@", moves with the arrow keys and takes a choice with Enter or
 * Tab. Answering a clarifying question (§6.2 "User replies with say") is a say that mentions the
 * asker; Reply on the question fills that in here.
 */
export function SayBox({
  roomId,
  did,
  disabled,
  draft,
}: {
  roomId: string;
  did: string;
  disabled: boolean;
  draft?: SayDraft | null;
}) {
  const agents = useQuery(roomAgentsQuery(roomId));
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const send = useMutation({ mutationFn: (t: string) => say(roomId, did, t), onSuccess: () => setText('') });

  useEffect(() => {
    if (!draft || !input.current) return;
    setText(draft.text);
    setCaret(draft.text.length);
    input.current.focus();
    input.current.setSelectionRange(draft.text.length, draft.text.length);
  }, [draft]);

  const at = mentionAt(text, caret);
  const ids = useMemo(() => (agents.data ?? []).map((a) => a.agentId), [agents.data]);
  const options = at && dismissed !== at.start ? matchAgents(ids, at.query) : [];
  const open = options.length > 0 && !disabled;
  const current = Math.min(active, Math.max(0, options.length - 1));

  const choose = (agentId: string) => {
    if (!at) return;
    const done = completeMention(text, caret, at, agentId);
    setText(done.text);
    setCaret(done.caret);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(done.caret, done.caret));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((current + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      choose(options[current]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setDismissed(at?.start ?? null);
    }
  };

  const track = (el: HTMLInputElement) => setCaret(el.selectionStart ?? el.value.length);
  // Counted and refused here, before anything goes to the broker, which refuses the same (§26).
  const fits = fitsLimit('message', text.trim());
  const listId = `${id}-mentions`;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() && fits) send.mutate(text.trim());
      }}
      className="flex flex-wrap items-end gap-2"
    >
      <div className="relative min-w-0 flex-1">
        <label htmlFor={`${id}-say`} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Say in the room
        </label>
        <input
          ref={input}
          id={`${id}-say`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? `${listId}-${current}` : undefined}
          aria-describedby={`${id}-say-hint ${id}-say-count`}
          aria-invalid={fits ? undefined : true}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
          value={text}
          placeholder="Type @ to mention an agent"
          disabled={disabled}
          autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            track(e.target);
            setActive(0);
            setDismissed(null);
          }}
          onSelect={(e) => track(e.currentTarget)}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissed(at?.start ?? null)}
          onFocus={() => setDismissed(null)}
        />
        <p id={`${id}-say-hint`} className="sr-only">
          Type @ and the start of an agent id to mention it; arrow keys choose, Enter or Tab takes the choice.
        </p>
        <ul
          id={listId}
          role="listbox"
          aria-label="Agents to mention"
          hidden={!open}
          className="absolute bottom-full left-0 z-20 mb-1 max-h-56 w-72 overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {options.map((agentId, i) => (
            <li
              key={agentId}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === current}
              // mousedown, not click: the input keeps focus, and its blur does not close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(agentId);
              }}
              className={`cursor-pointer px-3 py-1 font-mono text-xs ${i === current ? 'bg-teal-700 text-white' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
            >
              @{agentId}
            </li>
          ))}
        </ul>
      </div>
      <Button type="submit" disabled={disabled || !text.trim() || !fits} busy={send.isPending}>
        Say
      </Button>
      <div className="basis-full text-right">
        <CharCounter kind="message" text={text.trim()} id={`${id}-say-count`} />
      </div>
      {send.isError ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {roomErrorInWords(send.error)}
        </p>
      ) : null}
    </form>
  );
}
