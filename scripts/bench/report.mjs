// Prints the figures of `npm run bench` (scripts/bench.mjs) and whether each target (docs/benchmarks.md) is met.
import os from 'node:os';
import { fmt, say } from './print.mjs';

const mark = (ok) => (ok ? 'met' : 'NOT met');

function reportIngest({ ingest, batches, batchSize, ingestConnections, targets }) {
  say(
    `Ingestion: ${fmt(batches)} batches of ${batchSize} llm_call events, ${ingestConnections} concurrent requests`,
  );
  for (const r of ingest) {
    // The target (docs/benchmarks.md) is for SQLite, the embedded default; PostgreSQL's figure is for comparison.
    const verdict =
      r.label === 'SQLite'
        ? `target >= ${fmt(targets.ingestPerSecond)}/s: ${mark(r.perSecond >= targets.ingestPerSecond)}`
        : '(the target is for SQLite)';
    say(
      `  ${r.label.padEnd(11)} ${fmt(r.perSecond).padStart(7)} events/s  (batch p50 ${r.p50.toFixed(0)} ms, ` +
        `p99 ${r.p99.toFixed(0)} ms)  ${verdict}`,
    );
  }
}

/**
 * The first row of `d.rows` is the bare route with its small constant body. Each dashboard is judged against
 * the bare route returning that dashboard's own answer as its constant body: the same bytes, so the ratio
 * shows what the server adds (sign-in check, cache, validation, serialization), not what moving the answer
 * costs, which the answer's shape fixes. The ratio to the small body is printed beside it.
 */
function reportDashboards(d, { connections, duration, rounds, targets }) {
  say(
    `Dashboards on ${d.label}: ${fmt(d.loaded.events)} llm_call events, ${fmt(d.loaded.rollupRows)} rollup rows ` +
      `(loaded in ${d.loaded.loadSeconds.toFixed(0)} s); ${connections} connections, ${duration} s each in ${rounds} rounds`,
  );
  const bare = d.rows[0].perSecond;
  const pct = (ratio) => `${Math.round(ratio * 100)} %`;
  say(
    `  ${'endpoint'.padEnd(40)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'req/s'.padStart(8)} ` +
      `${'of bare'.padStart(8)} ${'of bare, same body'.padStart(19)}`,
  );
  for (const row of d.rows) {
    const same = row.sameBody ? row.perSecond / row.sameBody : null;
    const verdict =
      same === null
        ? ''
        : `  p99 <= ${targets.p99Ms} ms: ${mark(row.p99 <= targets.p99Ms)}; ` +
          `>= ${targets.ratio * 100} % of bare with the same body: ${mark(same >= targets.ratio)}`;
    const columns = [
      row.name.padEnd(40),
      `${row.p50} ms`.padStart(6),
      `${row.p99} ms`.padStart(6),
      fmt(row.perSecond).padStart(8),
      pct(row.perSecond / bare).padStart(8),
      (same === null ? '' : pct(same)).padStart(19),
    ];
    say(`  ${columns.join(' ')}${verdict}`.trimEnd());
    if (row === d.rows[0]) {
      say(`  ${''.padEnd(40)} (its ${row.slices.length} slices: ${row.slices.map(fmt).join(', ')} req/s)`);
    }
    if (row.sameBody) {
      say(
        `  ${''.padEnd(40)} (the bare route returning this endpoint's ${fmt(row.bytes)}-byte answer: ` +
          `${fmt(row.sameBody)} req/s, ${pct(row.sameBody / bare)} of its small-body figure)`,
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

/** Part `mixed`: the dashboards read while ingestion runs at a steady rate (scripts/bench.mjs). */
export function reportMixed(d, { connections, targets }) {
  const m = d.mixed;
  say('');
  say(
    `Mixed on ${d.label}: the dashboards while ingesting ${fmt(m.perSecond)} events/s (asked ${fmt(m.target)}; ` +
      `batch p99 ${m.batchP99.toFixed(0)} ms${m.skipped > 0 ? `, ${fmt(m.skipped)} batches skipped with 4 in flight` : ''}), ` +
      `${connections} connections; load average ${os.loadavg()[0].toFixed(2)}`,
  );
  say(`  ${'endpoint'.padEnd(40)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'req/s'.padStart(8)}`);
  for (const row of m.rows) {
    say(
      `  ${row.name.padEnd(40)} ${`${row.p50} ms`.padStart(6)} ${`${row.p99} ms`.padStart(6)} ` +
        `${fmt(row.perSecond).padStart(8)}  p99 <= ${targets.p99Ms} ms: ` +
        (row.perSecond > 0 ? mark(row.p99 <= targets.p99Ms) : 'NOT met (no request completed)'),
    );
  }
}

/** Part `calls`: the Calls list's first page per filter, beside its target (scripts/bench/calls.mjs). */
export function reportCalls(d, { targets }) {
  say('');
  say(
    `Calls on ${d.label} (${fmt(d.loaded.events)} calls): the first page of GET /api/metrics/llm/calls; ` +
      `load average ${os.loadavg()[0].toFixed(2)}`,
  );
  say(`  ${'filters, range'.padEnd(44)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'req/s'.padStart(7)}`);
  for (const row of d.calls) {
    const limit = row.combined ? targets.callsCombinedP99Ms : targets.callsOneP99Ms;
    say(
      `  ${row.name.padEnd(44)} ${`${row.p50} ms`.padStart(7)} ${`${row.p99} ms`.padStart(7)} ` +
        `${fmt(row.perSecond).padStart(7)}  p99 <= ${limit} ms: ${mark(row.p99 <= limit)}`,
    );
  }
}

/** Part `retention`: one retention run per database, as the server logged it (scripts/bench.mjs). */
export function reportRetention(runs, { perDay, retentionDays }) {
  say('');
  say(
    `Retention: ${fmt(perDay)} llm_call rows a day for ${retentionDays + 1} days, RETENTION_DAYS=${retentionDays} ` +
      `(the oldest day is past it)`,
  );
  for (const r of runs) {
    say(
      `  ${r.label.padEnd(11)} loaded ${fmt(r.loaded.events)} rows in ${r.loaded.loadSeconds.toFixed(0)} s; ` +
        // PostgreSQL drops the day's partition of every event table, the five others empty here.
        `the retention run removed ${fmt(r.removed)} events` +
        `${r.partitions > 0 ? ` (${fmt(r.partitions)} day partitions dropped)` : ''} in ${fmt(r.ms)} ms; ` +
        `${fmt(r.left)} rows left`,
    );
  }
}

/** Part `alerts`: evaluation passes of all rules, in ms (scripts/bench/alerts-pass.ts). */
export function reportAlerts(runs, { rules, passes, targets }) {
  const figures = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const max = sorted.at(-1);
    return {
      text: `median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms (first ${list[0].toFixed(1)} ms)`,
      met: max < targets.alertPassMs,
    };
  };
  say('');
  say(
    `Alerts: ${passes} evaluation passes one after the other of ${fmt(rules)} rules over every condition ` +
      `type; target under ${fmt(targets.alertPassMs)} ms a pass`,
  );
  for (const r of runs) {
    const engine = figures(r.passes);
    const whole = figures(r.whole.passes);
    const first = r.whole.first;
    say(
      `  ${r.label} (${fmt(r.events)} events and ${fmt(r.deliveries)} deliveries stored; ${r.holds} rules ` +
        `holding, ${r.clear} not, ${r.noData} without data):`,
    );
    say(
      `    engine (reads, conditions, silences, state machine): ${engine.text}, ${r.queries} queries a ` +
        `pass; target ${engine.met ? 'met' : 'NOT met'}`,
    );
    say(
      `    whole pass of the alerts job (the engine and each rule's writes; the first pass ${first.transitions} ` +
        `state changes and ${first.notifications} webhook notifications): ${whole.text}; ` +
        `target ${whole.met ? 'met' : 'NOT met'}`,
    );
  }
}

/** Part `cluster`: two instances on one PostgreSQL database beside one (scripts/bench.mjs). */
export function reportCluster(
  c,
  { batches, batchSize, ingestConnections, connections, duration, rounds, targets },
) {
  say('');
  say(
    `=== Cluster: two instances on one PostgreSQL database (${fmt(c.loaded.events)} llm_call events loaded)`,
  );
  say('');
  say(
    `Ingestion: ${fmt(batches)} batches of ${batchSize} llm_call events, ${ingestConnections} concurrent ` +
      `requests per instance`,
  );
  const [one] = c.ingest;
  for (const r of c.ingest) {
    const gain = r === one ? '' : `  (${(r.perSecond / one.perSecond).toFixed(2)} × one instance)`;
    say(
      `  ${(r.instances === 1 ? 'one instance' : 'two instances').padEnd(14)} ` +
        `${fmt(r.perSecond).padStart(7)} events/s  (batch p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms)${gain}`,
    );
  }
  say('');
  say(
    `Dashboards: ${connections} connections in all (split evenly over the instances), ${duration} s each in ` +
      `${rounds} rounds; with two instances p99 is the worse instance's`,
  );
  say(`  ${'endpoint'.padEnd(40)} ${'instances'.padStart(9)} ${'req/s'.padStart(8)} ${'p99'.padStart(7)}`);
  for (const row of c.dashboards) {
    say(
      `  ${row.name.padEnd(40)} ${String(row.instances).padStart(9)} ${fmt(row.perSecond).padStart(8)} ` +
        `${`${row.p99} ms`.padStart(7)}`,
    );
  }
  say('');
  const s = c.signOuts;
  say(
    `Sign-out seen by the other instance (${fmt(s.count)} sessions, LUMI_AUTH_CACHE_SECONDS=60): from the ` +
      `logout answer on A to the first 401 on B`,
  );
  say(
    `  p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms  ` +
      `p99 <= ${targets.signOutP99Ms} ms: ${mark(s.p99 <= targets.signOutP99Ms)}`,
  );
}

/** Part `deliveries`: accepting over HTTP and the sender's pace at a fake Bot API (scripts/bench/deliveries.mjs). */
export function reportDeliveries(
  runs,
  { batches, batchSize, batchConcurrency, singles, singleConcurrency, deliveries, chats, targets },
) {
  say('');
  say(
    `Deliveries accepted (a messages:send key; all due in an hour, so the sender sends none meanwhile): ` +
      `${fmt(batches)} batches of ${batchSize} with ${batchConcurrency} in flight, then ${fmt(singles)} ` +
      `single POSTs with ${singleConcurrency} in flight`,
  );
  for (const r of runs) {
    for (const [name, f] of [
      ['batches', r.accepting.batch],
      ['single', r.accepting.single],
    ]) {
      // The target (docs/benchmarks.md) is for SQLite, the embedded default; PostgreSQL's figure is for comparison.
      const verdict =
        r.label === 'SQLite'
          ? `target >= ${fmt(targets.acceptedPerSecond)}/s: ${mark(f.perSecond >= targets.acceptedPerSecond)}`
          : '(the target is for SQLite)';
      say(
        `  ${r.label.padEnd(11)} ${name.padEnd(8)} ${fmt(f.perSecond).padStart(6)} deliveries/s  ` +
          `(${fmt(f.deliveries)} in ${f.seconds.toFixed(1)} s; request p50 ${f.p50.toFixed(0)} ms, ` +
          `p99 ${f.p99.toFixed(0)} ms)  ${verdict}`,
      );
    }
    const { rejected } = r.accepting;
    if (rejected.count > 0)
      say(`  ${''.padEnd(11)} ${fmt(rejected.count)} refused: ${rejected.reasons.join('; ')}`);
  }
  say('');
  say(
    `Sender: ${fmt(deliveries)} deliveries over ${chats} chats, sent to a local fake Bot API without limits ` +
      `of its own; times as the fake received them`,
  );
  for (const r of runs) {
    const s = r.sending;
    say(
      `  ${r.label.padEnd(11)} ${s.steady.toFixed(1)} messages/s steady (${fmt(s.steadyMessages)} in ` +
        `${s.steadySeconds.toFixed(1)} s, first and last second left out; ${s.overall.toFixed(1)}/s over all ` +
        `${s.seconds.toFixed(1)} s)  target >= ${targets.sendingPerSecond}/s: ` +
        `${mark(s.steady >= targets.sendingPerSecond)}`,
    );
    say(
      `  ${''.padEnd(11)} busiest 1-second window: ${s.maxPerSecond} messages  <= ${targets.sendingMaxPerSecond}: ` +
        `${mark(s.maxPerSecond <= targets.sendingMaxPerSecond)} (the quickest ${targets.sendingMaxPerSecond + 1} ` +
        `arrived within ${fmt(s.overLimitMs)} ms); per chat: closest two ` +
        `${fmt(s.minChatGapMs)} ms apart, at most ${s.maxChatPerMinute} in any 60 s`,
    );
  }
}

/** Part `allowance`: checks at a steady rate, beside a bare route, and the ceiling (scripts/bench/allowance.mjs). */
export function reportAllowance(
  runs,
  { chats, users, limits, rate, seconds, connections, maxInFlight, ceilingConnections, targets },
) {
  const pct = (n, of) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;
  const ms = (n) => `${n.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ms`;
  const latency = ({ latency: l }) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)}`;
  const row = (name, text) => say(`    ${name.padEnd(13)} ${text}`);
  say('');
  say(
    `Allowance: POST /api/bot/allowance with ${fmt(limits)} limits and the month's usage of ${fmt(chats)} chats ` +
      `and ${fmt(users)} users, each check naming a chat, a user and a feature; ${fmt(rate)} checks/s sent at ` +
      `an even pace over ${connections} connections for ${seconds} s; load average ${os.loadavg()[0].toFixed(2)}`,
  );
  for (const r of runs) {
    const s = r.steady;
    const answered = s.allowed + s.denied;
    const failed = s.sent - answered;
    // The target holds only if the server kept up: every check sent, answered with 2xx, at the rate asked.
    const keptUp = s.skipped === 0 && failed === 0 && s.answeredPerSecond >= 0.98 * rate;
    const met = keptUp && s.latency.p99 <= targets.allowanceP99Ms;
    say(
      `  ${r.label} (${fmt(r.loaded.usageRows)} usage rows and ${fmt(r.loaded.limits)} limits loaded with SQL ` +
        `in ${r.loaded.loadSeconds.toFixed(0)} s, one more limit through the API; the server had the ` +
        `month's usage in memory ${r.loaded.inMemorySeconds.toFixed(1)} s after its start)`,
    );
    const skipped = s.skipped > 0 ? `; ${fmt(s.skipped)} not sent, ${fmt(maxInFlight)} being unanswered` : '';
    row(
      'the server',
      `${latency(s)}; ${fmt(s.answeredPerSecond)} answered/s${skipped}; ${fmt(failed)} without a 2xx answer  ` +
        `p99 <= ${targets.allowanceP99Ms} ms at ${fmt(rate)}/s: ${mark(met)}${keptUp ? '' : ' (it did not keep up)'}`,
    );
    for (const [detail, n] of Object.entries(s.failures).slice(0, 5)) row('', `${fmt(n)} × ${detail}`);
    for (const [message, n] of Object.entries(s.errors)) row('', `${fmt(n)} × ${message}`);
    row(
      'bare route',
      `${latency(r.bare)}; ${fmt(r.bare.answeredPerSecond)} answered/s (the same requests answered with a ` +
        `constant body by a bare Fastify route: what this machine and the load generator take)`,
    );
    const reasons = Object.entries(s.reasons)
      .sort(([, a], [, b]) => b - a)
      .map(([reason, n]) => `${reason} ${pct(n, answered)}`)
      .join(', ');
    row(
      'decisions',
      `${pct(s.allowed, answered)} allowed, ${pct(s.denied, answered)} denied (${reasons}); the checks left ` +
        `up to ${ms(s.lag.p99)} late at p99 (max ${ms(s.lag.max)})`,
    );
    if (s.cpu && r.bare.cpu) {
      const cpu = (n) => `${n.toFixed(2)} ms`;
      row(
        'cpu',
        `${cpu(s.cpu.process)} a check in the server (${cpu(s.cpu.main)} in its event loop's thread), ` +
          `${cpu(r.bare.cpu.process)} in the bare route: what the decision costs beyond HTTP`,
      );
    }
    if (s.stolen !== undefined && r.bare.stolen !== undefined) {
      row(
        'steal',
        `${pct(s.stolen, 1)} of the machine's CPU time went to other machines on its host while the server ` +
          `was measured, ${pct(r.bare.stolen, 1)} during the bare route (/proc/stat); the tail rises with it`,
      );
    }
    if (s.waited && r.bare.waited) {
      const waited = (w) => `${w.perSecond.toFixed(0)} ms a second (${pct(w.share, 1)} of its running time)`;
      row(
        'cpu wait',
        `the server's event-loop thread was ready but waiting for a CPU ${waited(s.waited)}, the bare ` +
          `route's ${waited(r.bare.waited)} (/proc/<pid>/task/<pid>/schedstat): requests queue meanwhile`,
      );
    }
    const c = r.ceiling;
    const refused = c.non2xx + c.errors > 0 ? `; ${fmt(c.non2xx)} not 2xx, ${fmt(c.errors)} errors` : '';
    row(
      'ceiling',
      `${fmt(c.perSecond)} checks/s with ${ceilingConnections} connections (p50 ${c.p50} ms, p99 ${c.p99} ms` +
        `${refused}); a figure, no target`,
    );
  }
}
