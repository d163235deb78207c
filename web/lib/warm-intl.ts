// The first Intl.DateTimeFormat a page builds loads the ICU locale data: about 40 ms on one
// task here, which landed inside the room's first render (bench/ui, docs/benchmarks.md). Built
// once while the browser is idle, it is its own short task and later formatters are cheap.
export function warmIntlWhenIdle(): void {
  const warm = () => void new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(0);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 500 });
  else setTimeout(warm, 0);
}
