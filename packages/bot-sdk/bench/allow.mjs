// The local check's cost: `lumi.allow()` with 10,000 limits loaded (docs/bot-developers/limits.md, "Local
// checks"). Prints nanoseconds per check over 1,000,000 checks (BENCH_CHECKS), in 3 rounds and their
// median, each check naming a chat, a user and a feature (7 limits apply to each; 1,000 of each, their usage
// read), against the SDK's stand-in of Lumi (test/fake-lumi.ts). A figure, not a test; target: under 10 µs.
//   cd packages/bot-sdk && node --import tsx bench/allow.mjs
import { createLumi } from '../src/index.ts';
import { FakeLumi } from '../test/fake-lumi.ts';

const CHECKS = Number(process.env.BENCH_CHECKS ?? 1_000_000);
const SUBJECTS = 1_000;

/** 10,000 limits: 8,000 on chats, 1,894 on users, 100 on features, 3 each-chat and 3 each-user defaults. */
function limits() {
  const metrics = ['requests', 'cost_usd', 'tokens'];
  const windows = ['minute', 'hour', 'day', 'month'];
  const made = [];
  const add = (scope, subject, i) =>
    made.push({
      id: made.length + 1,
      scope,
      subject,
      metric: metrics[i % 3],
      window: windows[i % 4],
      mode: i % 5 === 0 ? 'soft' : 'hard',
      amount: 1e9,
      amount_until: null,
    });
  for (let i = 0; i < 3; i += 1) add('each_chat', null, i);
  for (let i = 0; i < 3; i += 1) add('each_user', null, i);
  for (let i = 1; i <= 8_000; i += 1) add('chat', String(-i), i);
  for (let i = 1; i <= 1_894; i += 1) add('user', String(i), i);
  for (let i = 1; i <= 100; i += 1) add('feature', `feature-${i}`, i);
  return made;
}

const lumi = await FakeLumi.start();
lumi.limits = {
  limits: limits(),
  rules: [{ action: 'ban', subject_kind: 'user', subject: '999999', expires_at: null }],
  timezone: 'Europe/Berlin',
};
const client = createLumi({
  url: lumi.url,
  apiKey: 'lumi_test',
  limits: {},
  onError: (e) => console.warn(e.message),
});
await client.limits.load();

const inputs = Array.from({ length: SUBJECTS }, (_, i) => ({
  chatId: -(i + 1),
  userId: i + 1,
  feature: `feature-${(i % 100) + 1}`,
}));
for (const input of inputs) client.allow(input);
await client.limits.load(); // every subject's usage read
console.log(
  `limits loaded: ${client.limits.stats().limits}, subjects kept: ${client.limits.stats().subjects}`,
);

const run = (count) => {
  let allowed = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) if (client.allow(inputs[i % SUBJECTS]).allowed) allowed += 1;
  return { ns: Number(process.hrtime.bigint() - started) / count, allowed };
};
run(100_000); // warm-up: the JIT
const rounds = [1, 2, 3].map(() => run(CHECKS));
for (const { ns, allowed } of rounds) {
  console.log(
    `${CHECKS.toLocaleString('en-US')} checks, ${allowed.toLocaleString('en-US')} allowed: ${ns.toFixed(0)} ns per check`,
  );
}
const median = rounds.map((round) => round.ns).sort((a, b) => a - b)[1];
console.log(`median: ${median.toFixed(0)} ns per check`);
const example = client.allow(inputs[0]);
console.log(`an answer: ${JSON.stringify(example)}`);

await client.close(0);
await lumi.close();
