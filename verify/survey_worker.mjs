// The survey's door into the app's decider: one long-lived Node process per survey worker.
// It only imports app/core/decider.js (which imports app/core/engine.js); it adds no rules of its own.
//   request: {"id": 1, "deals": [1, 2, 3], "rules": {...}, "maxNodes": 20000000}
//            (or "positions": [...] instead of "deals": answered by list index)
//   answer:  {"id": 1, "ok": true, "results": {"1": {"result": "won", "line": [...], "nodes": 4290, "ms": 2.1}, ...},
//            "maxRssKb": 51234}
//         or {"id": 1, "ok": false, "error": "..."}
import { createInterface } from 'node:readline';
import { decide, decideDeal } from '../app/core/decider.js';

// Deals by number, or (for the tests) positions, answered under their list index.
function decideAll({ deals = [], positions = [], rules = {}, maxNodes = null }) {
  const results = {};
  const jobs = deals.length ? deals.map((n) => [n, () => decideDeal(n, options)]) : positions.map((p, i) => [i, () => decide(p, options)]);
  const options = { rules, maxNodes: maxNodes ?? Infinity };
  for (const [n, run] of jobs) {
    const started = process.hrtime.bigint();
    const r = run();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    results[n] = { result: r.result, line: r.line, nodes: r.nodes, ms: Math.round(ms * 1000) / 1000 };
  }
  return results;
}

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
// The survey stopped reading (a disagreement ended it, or it was interrupted): its own error line
// says why, so the answer nobody reads ends this process quietly, not with a stack trace of EPIPE.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let id = null;
  try {
    const request = JSON.parse(line);
    id = request.id;
    const results = decideAll(request);
    out({ id, ok: true, results, maxRssKb: process.resourceUsage().maxRSS });
  } catch (e) {
    out({ id, ok: false, error: String(e && e.stack ? e.stack : e) });
  }
});
