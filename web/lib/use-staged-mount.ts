// Mounts a heavy screen in stages, one commit each, so no single task renders and lays out all of
// it (no long task while a room opens, decisions-web.md §7). Each next stage is a transition started
// after the previous one committed: React renders it interruptibly, and the browser gets a task
// boundary (input, paint) between stages. Returns the stage reached, from 0 to `last`.
import { startTransition, useEffect, useState } from 'react';

export function useStagedMount(last: number): number {
  const [stage, setStage] = useState(0);
  useEffect(() => {
    if (stage < last) startTransition(() => setStage(stage + 1));
  }, [stage, last]);
  return stage;
}
