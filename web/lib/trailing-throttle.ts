// Runs `action` for a key at most once per `everyMs`, and always once more after the last call
// of a burst (trailing), so the final state is never missed. Used to refresh a room's grants as
// approved messages spend their budget, without a request per message.
export function trailingThrottle(action: (key: string) => void, everyMs: number): (key: string) => void {
  const last = new Map<string, number>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  return (key) => {
    if (pending.has(key)) return;
    const wait = Math.max(0, (last.get(key) ?? -Infinity) + everyMs - Date.now());
    const run = () => {
      pending.delete(key);
      last.set(key, Date.now());
      action(key);
    };
    if (wait === 0) run();
    else pending.set(key, setTimeout(run, wait));
  };
}
