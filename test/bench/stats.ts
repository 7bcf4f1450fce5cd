// Paired figures: each sample of ours beside the floor's from the pair it was taken in, so that
// what moves both (the machine's load, the editor's own work) cancels in the difference.

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialCdf(k: number, n: number): number {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * A distribution-free interval for the median from order statistics: [x(k), x(n+1-k)], with the
 * largest k whose coverage is still ≥ 95% (at least k = 1; with fewer than 6 values the
 * coverage is then below 95% and says so).
 */
export function medianInterval(values: number[]): { low: number; high: number; coverage: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * binomialCdf(k, n) >= 0.95) k++;
  return { low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * binomialCdf(k - 1, n) };
}

export interface Paired {
  pairs: number;
  ours: number;
  floor: number;
  /** Median of the per-pair differences, ours − floor, and its interval. */
  difference: number;
  interval: { low: number; high: number; coverage: number };
  /** Median of ours over median of the floor. */
  ratio: number;
}

export function paired(ours: number[], floor: number[]): Paired {
  if (ours.length !== floor.length) throw new Error(`${ours.length} samples of ours against ${floor.length} of the floor: not paired.`);
  const differences = ours.map((value, i) => value - floor[i]!);
  return {
    pairs: ours.length,
    ours: median(ours),
    floor: median(floor),
    difference: median(differences),
    interval: medianInterval(differences),
    ratio: median(ours) / median(floor),
  };
}
