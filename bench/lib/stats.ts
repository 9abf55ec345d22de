/** Small statistics and reporting helpers shared by every benchmark. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function summarize(samples: number[]): { p50: number; p99: number; mean: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { p50: percentile(s, 50), p99: percentile(s, 99), mean, n: s.length };
}

/** One reported figure: what was measured, its baseline in the same run, and the ratio. */
export interface Figure {
  group: string;
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** value / baseline.value */
  ratio?: number;
  target?: string;
  met?: boolean;
}

export function figure(
  group: string,
  name: string,
  value: number,
  unit: string,
  baseline?: { name: string; value: number },
  target?: Target,
): Figure {
  const ratio = baseline && baseline.value > 0 ? value / baseline.value : undefined;
  return {
    group,
    name,
    value,
    unit,
    baseline,
    ratio,
    target: target?.text,
    met: target ? target.ok(value, ratio) : undefined,
  };
}

type Target = { text: string; ok: (value: number, ratio: number | undefined) => boolean };

/** A goal on the ratio to the same-run baseline, where lower is better (latency, time, memory). */
export function ratioAtMost(limit: number, what = 'host/bare'): Target {
  return { text: `${what} ≤ ${limit}`, ok: (_v, r) => r !== undefined && r <= limit };
}

/** A goal on the ratio to the same-run baseline, where higher is better (throughput). */
export function ratioAtLeast(limit: number, what = 'host/bare'): Target {
  return { text: `${what} ≥ ${limit}`, ok: (_v, r) => r !== undefined && r >= limit };
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(3);
}

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => [
    f.group,
    f.name,
    `${fmt(f.value)} ${f.unit}`,
    f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)} ${f.unit}` : '',
    f.ratio !== undefined ? f.ratio.toFixed(2) : '',
    f.target ? `${f.target} ${f.met ? 'ok' : 'MISSED'}` : '',
  ]);
  const head = ['group', 'measure', 'value', 'baseline (same run)', 'ratio', 'target'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

export async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}
