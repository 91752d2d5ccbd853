// Prints the figures of `npm run bench` (scripts/bench.mjs) and whether each target of issue #3 is met.
import os from 'node:os';

const fmt = (n) => Math.round(n).toLocaleString('en');
const say = (text = '') => process.stdout.write(`${text}\n`);
const mark = (ok) => (ok ? 'met' : 'NOT met');

function reportIngest({ ingest, batches, batchSize, ingestConnections, targets }) {
  say(
    `Ingestion: ${fmt(batches)} batches of ${batchSize} llm_call events, ${ingestConnections} concurrent requests`,
  );
  for (const r of ingest) {
    say(
      `  ${r.label.padEnd(11)} ${fmt(r.perSecond).padStart(7)} events/s  (batch p50 ${r.p50.toFixed(0)} ms, ` +
        `p99 ${r.p99.toFixed(0)} ms)  target >= ${fmt(targets.ingestPerSecond)}/s: ${mark(r.perSecond >= targets.ingestPerSecond)}`,
    );
  }
}

/** The first row of `d.rows` is the bare route, the yardstick of every ratio. */
function reportDashboards(d, { connections, duration, rounds, targets }) {
  say(
    `Dashboards on ${d.label}: ${fmt(d.loaded.events)} llm_call events, ${fmt(d.loaded.rollupRows)} rollup rows ` +
      `(loaded in ${d.loaded.loadSeconds.toFixed(0)} s); ${connections} connections, ${duration} s each in ${rounds} rounds`,
  );
  const bare = d.rows[0].perSecond;
  say(
    `  ${'endpoint'.padEnd(40)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'req/s'.padStart(8)} ${'of bare'.padStart(8)}`,
  );
  for (const row of d.rows) {
    const ratio = row.perSecond / bare;
    const verdict =
      row === d.rows[0] || row.reference
        ? ''
        : `  p99 <= ${targets.p99Ms} ms: ${mark(row.p99 <= targets.p99Ms)}; >= ${targets.ratio * 100} % of bare: ${mark(ratio >= targets.ratio)}`;
    say(
      `  ${row.name.padEnd(40)} ${`${row.p50} ms`.padStart(6)} ${`${row.p99} ms`.padStart(6)} ` +
        `${fmt(row.perSecond).padStart(8)} ${`${Math.round(ratio * 100)} %`.padStart(8)}${verdict}`,
    );
    if (row === d.rows[0])
      say(`  ${''.padEnd(40)} (its ${row.slices.length} slices: ${row.slices.map(fmt).join(', ')} req/s)`);
    if (row.sameBody) {
      say(
        `  ${''.padEnd(40)} (the bare route sending the same ${fmt(row.bytes)} bytes: ${fmt(row.sameBody)} req/s; ` +
          `this endpoint does ${Math.round((row.perSecond / row.sameBody) * 100)} % of that)`,
      );
    }
  }
}

export function report(results) {
  say('');
  say(
    `=== Results (Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)} at the end)`,
  );
  say('');
  reportIngest(results);
  for (const d of results.dashboards) {
    say('');
    reportDashboards(d, results);
  }
}
