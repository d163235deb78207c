// A small bar chart: uPlot on a canvas, loaded on first use so it is not in any chunk a page
// needs before its content is on screen (docs/decisions-web.md §24). The canvas is hidden from
// readers; the figure says the same in words (its caption) and as a table (visually hidden).
// uPlot styles its elements through the CSSOM only, which the console's CSP allows.
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { useChartColors, type BarTone, type ChartColors } from './chart-theme';

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly tone?: BarTone;
}

export interface BarChartProps {
  /** The figure's accessible name and the table's caption. */
  readonly title: string;
  /** One visible line under the chart saying what it shows. */
  readonly summary: string;
  readonly bars: readonly Bar[];
  /** The table's column headers: what a label is, what a value counts. */
  readonly columns: readonly [string, string];
  /** The table's rows when not every bar (sixty empty minutes say nothing a reader needs). */
  readonly rows?: readonly Bar[];
  /** Label every nth bar on the axis; the table has them all. */
  readonly labelEvery?: number;
  /**
   * `across`: bars side by side under a time axis (many bars, a label now and then);
   * `stacked`: one row per bar with its label before it (a few categories, every one named).
   */
  readonly layout?: 'across' | 'stacked';
  readonly testId?: string;
}

const HEIGHT = 120;
const ROW = 22;
/** A stacked chart's height: a row per bar and its value axis. */
const heightOf = (layout: 'across' | 'stacked', bars: number) => (layout === 'across' ? HEIGHT : bars * ROW + 28);
const INTEGER_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];

let loading: Promise<typeof uPlot> | undefined;
/** uPlot and its stylesheet, fetched once, on the first chart. */
function loadUplot(): Promise<typeof uPlot> {
  loading ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([m]) => m.default);
  return loading;
}

function chartOptions(
  UPlot: typeof uPlot,
  bars: readonly Bar[],
  tones: readonly BarTone[],
  colors: ChartColors,
  width: number,
  labelEvery: number,
  layout: 'across' | 'stacked',
): uPlot.Options {
  const font = '11px system-ui, sans-serif';
  const stacked = layout === 'stacked';
  return {
    width,
    height: heightOf(layout, bars.length),
    legend: { show: false },
    cursor: { show: false },
    scales: {
      // Stacked: the bars' axis runs down the left, first bar on top.
      x: { time: false, range: () => [-0.5, bars.length - 0.5], ...(stacked ? { ori: 1, dir: -1 } : {}) },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)], ...(stacked ? { ori: 0 } : {}) },
    },
    axes: [
      {
        stroke: colors.text,
        font,
        ...(stacked ? { side: 3, size: 84, gap: 4 } : { size: 24 }),
        grid: { show: false },
        ticks: { show: false },
        splits: () => bars.flatMap((_, i) => (i % labelEvery === 0 ? [i] : [])),
        values: (_u, splits) => splits.map((i) => bars[i]?.label ?? ''),
      },
      {
        stroke: colors.text,
        font,
        ...(stacked ? { side: 2, size: 24 } : { size: 36 }),
        incrs: INTEGER_STEPS,
        grid: { stroke: colors.grid, width: 1 },
        ticks: { show: false },
        values: (_u, splits) => splits.map((v) => String(v)),
      },
    ],
    series: [
      {},
      ...tones.map((tone) => ({
        label: tone,
        fill: colors.tones[tone],
        stroke: colors.tones[tone],
        width: 0,
        points: { show: false },
        paths: UPlot.paths.bars!({ size: [0.7, stacked ? 16 : 48] }),
      })),
    ],
  };
}

export function BarChart({
  title,
  summary,
  bars,
  columns,
  rows = bars,
  labelEvery = 1,
  layout = 'across',
  testId,
}: BarChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const colors = useChartColors();
  // Drawn again when what it shows changes; a key, so a refetch with equal data draws nothing.
  const key = JSON.stringify(bars);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const shown: Bar[] = JSON.parse(key) as Bar[];
    const tones = (['ok', 'bad', 'neutral'] as const).filter((t) => shown.some((b) => (b.tone ?? 'neutral') === t));
    const data: uPlot.AlignedData = [
      shown.map((_, i) => i),
      ...tones.map((t) => shown.map((b) => ((b.tone ?? 'neutral') === t ? b.value : null))),
    ];
    let chart: uPlot | undefined;
    let gone = false;
    void loadUplot().then((UPlot) => {
      if (gone) return;
      chart = new UPlot(chartOptions(UPlot, shown, tones, colors, el.clientWidth, labelEvery, layout), data, el);
      // Which theme the canvas was drawn in, for the journeys that switch it.
      el.dataset.scheme = colors.scheme;
    });
    const height = heightOf(layout, shown.length);
    const resize = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      gone = true;
      resize.disconnect();
      chart?.destroy();
    };
  }, [key, colors, labelEvery, layout]);

  return (
    <figure aria-label={title} data-testid={testId} className="min-w-0">
      <div ref={box} aria-hidden className={`w-full overflow-hidden ${layout === 'across' ? 'h-[120px]' : ''}`} />
      <figcaption className="mt-1 text-xs text-slate-600 dark:text-slate-400">{summary}</figcaption>
      {/* A table grows to its content whatever its width, so the wrapper is what is hidden. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{columns[0]}</th>
              <th scope="col">{columns[1]}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                <td>{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
