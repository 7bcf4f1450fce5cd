// `npm run bench -- --compare A.json B.json`: whether two runs saved with --save agree, as issue
// 35 asks of two full runs on one commit: each figure's paired median (ours − the floor) within
// 25 ms of the other run's.
import { FIGURES, pairedOf, type BenchFigures } from './report';

export const AGREE_MS = 25;

export function printComparison(...runs: [{ file: string; figures: BenchFigures }, { file: string; figures: BenchFigures }]): void {
  const [a, b] = runs;
  console.log(`A: ${a.file} (${a.figures.environment})\nB: ${b.file} (${b.figures.environment})\n`);
  let met = 0;
  let compared = 0;
  for (const sessionA of a.figures.sessions) {
    const sessionB = b.figures.sessions.find((s) => s.latencyMs === sessionA.latencyMs);
    if (!sessionB) continue;
    for (const figure of FIGURES) {
      const [pa, pb] = [pairedOf(sessionA, figure.of), pairedOf(sessionB, figure.of)];
      if (!Number.isFinite(pa.difference) || !Number.isFinite(pb.difference)) continue;
      const apart = Math.abs(pa.difference - pb.difference);
      const ok = apart <= AGREE_MS;
      compared += 1;
      if (ok) met += 1;
      const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(1)} ms`;
      console.log(
        `  ${ok ? 'PASS' : 'MISS'}  ${figure.name}, +${sessionA.latencyMs} ms: A ${signed(pa.difference)} (${pa.pairs} pairs), B ${signed(pb.difference)} (${pb.pairs} pairs), ${apart.toFixed(1)} ms apart`,
      );
    }
  }
  console.log(`  ${met} of ${compared} paired medians within ${AGREE_MS} ms of the other run's.`);
}
