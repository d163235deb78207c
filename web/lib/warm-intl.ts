// The first Intl.DateTimeFormat a page builds loads the ICU locale data: 15–40 ms on one task
// here, which landed inside the room's first render (bench/ui, docs/benchmarks.md). main.tsx
// builds one in a boot step of its own, so later formatters are cheap.
export function warmIntl(): void {
  void new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(0);
}
