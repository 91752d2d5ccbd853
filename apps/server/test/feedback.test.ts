import type { FeedbackSummary } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, useTestApp } from './helper.js';
import { adminGet, botKey, ingest } from './telemetry-helper.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');

/** Feedback events (docs/bot-developers/ingestion.md, "Feedback"), through the worker too. */
const storages = [false, true].flatMap((ingestWorker) =>
  dialects.map((dialect) => ({
    name: `${dialect}${ingestWorker ? ' (ingest worker)' : ''}`,
    dialect,
    ingestWorker,
  })),
);

describe.each(storages)('feedback on $name', ({ dialect, ingestWorker }) => {
  const t = useTestApp(dialect, { ingestWorker, app: { now: () => NOW } });
  const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();
  const feedback = (id: string, values: object) => ({
    type: 'feedback',
    id,
    ts: at(5),
    chat_id: '-1001234567890',
    message_id: 42,
    user_id: '7',
    ...values,
  });

  it('stores reactions and scores once each and counts them per template, feature and revision', async () => {
    const key = await botKey(t);
    const batch = [
      feedback('a', { reaction: '👍', template: 'Daily digest', feature: 'digest', config_revision: 'r3' }),
      feedback('b', { reaction: '👍', template: 'Daily digest', feature: 'digest', config_revision: 'r4' }),
      feedback('c', { reaction: '👎', score: -1, template: 'Daily digest', config_revision: 'r4' }),
      feedback('d', { score: 5, feature: 'reply' }),
      feedback('e', { template: 'Nothing given' }),
      feedback('f', { reaction: '👍', message_id: -3 }),
    ];
    const first = await ingest(t.app, key, batch);
    expect(first).toMatchObject({ accepted: 4, duplicates: 0 });
    expect(first.rejected.map((r) => [r.index, r.detail])).toEqual([
      [4, 'reaction: Give a reaction, a score or both'],
      [5, expect.stringMatching(/^message_id: /)],
    ]);
    // A retried batch is stored once.
    expect(await ingest(t.app, key, batch.slice(0, 4))).toMatchObject({ accepted: 0, duplicates: 4 });

    const byTemplate = await adminGet<FeedbackSummary>(t, '/api/metrics/feedback?by=template&days=1');
    expect(byTemplate.rows).toEqual([
      { key: 'Daily digest', events: 3, reactions: { '👍': 2, '👎': 1 }, scores: 1, score_avg: -1 },
      { key: null, events: 1, reactions: {}, scores: 1, score_avg: 5 },
    ]);
    const byRevision = await adminGet<FeedbackSummary>(t, '/api/metrics/feedback?by=config_revision');
    expect(byRevision.rows.map((r) => [r.key, r.events])).toEqual([
      ['r4', 2],
      ['r3', 1],
      [null, 1],
    ]);
    const byFeature = await adminGet<FeedbackSummary>(t, '/api/metrics/feedback?by=feature');
    expect(Object.fromEntries(byFeature.rows.map((r) => [r.key, r.events]))).toEqual({
      digest: 2,
      reply: 1,
      null: 1,
    });
  });
});
