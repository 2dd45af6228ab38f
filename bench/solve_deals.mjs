// Solves the openings of deals FIRST … LAST with the app's solver; one JSON line per deal, with
// the wall-clock seconds and the CPU seconds of this process (fairer on a busy machine).
import { openingPosition } from '../app/core/engine.js';
import { solve } from '../app/core/solver.js';

const [first, last] = process.argv.slice(2).map(Number);
for (let n = first; n <= last; n++) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const r = solve(openingPosition(n));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const cpu_seconds = (used.user + used.system) / 1e6;
  console.log(JSON.stringify({ deal: n, max_removed: r.max_removed, shortest: r.shortest, positions: r.positions, seconds, cpu_seconds }));
}
