// Decides the openings of deals FIRST … LAST under VARIANT with the app's decider, one JSON line
// per deal (result, card sets entered, milliseconds). One process, so one core.
import { decideDeal, VARIANTS } from '../app/core/decider.js';

const [variant, first, last] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const rules = VARIANTS[variant];
if (!rules) throw new Error(`unknown variant ${variant}`);
for (let n = first; n <= last; n++) {
  const started = process.hrtime.bigint();
  const r = decideDeal(n, { rules });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(JSON.stringify({ deal: n, result: r.result, nodes: r.nodes, ms }));
}
