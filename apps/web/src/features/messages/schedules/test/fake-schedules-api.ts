import { API_PREFIX } from '@lumi/contract';
import type { Delivery, Schedule, Template } from '@lumi/contract';
import { fakeApi, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import { MESSAGING_PATH } from '@/lib/messaging-keys';
import { delivery, template as messagingTemplate } from '../../test/fake-messaging-api';

/** The schedules endpoints as the server answers them, for the Schedules view's tests. */

const stamp = '2026-11-25T08:00:00.000Z';

/** A template as the schedules' tests name it. */
export function template(id: number, name = `Template ${id}`): Template {
  return messagingTemplate(id, { template_name: name, template_content: '{{total_tokens}}' });
}

export function schedule(id: number, overrides: Partial<Schedule> = {}): Schedule {
  return {
    id,
    name: `Schedule ${id}`,
    template_id: 1,
    template_name: 'Template 1',
    channel_id: null,
    topic_id: null,
    recurrence: { kind: 'daily', time: '09:00' },
    timezone: 'UTC',
    data_source: 'fixed',
    data: {},
    ends_at: null,
    max_runs: null,
    enabled: true,
    version: 1,
    next_run_at: '2026-11-26T09:00:00.000Z',
    run_count: 0,
    last_result: null,
    created_at: stamp,
    updated_at: stamp,
    updated_by: 'admin',
    ...overrides,
  };
}

/** A delivery a schedule made (one of its runs). */
export function run(id: number, overrides: Partial<Delivery> = {}): Delivery {
  return delivery(id, { source: 'schedule', requested_by: 'Schedule 1', schedule_id: 1, ...overrides });
}

export const PREVIEW_RUNS = [
  '2026-11-26T09:00:00.000Z',
  '2026-11-27T09:00:00.000Z',
  '2026-11-28T09:00:00.000Z',
  '2026-11-29T09:00:00.000Z',
  '2026-11-30T09:00:00.000Z',
];

export function fakeSchedulesApi({
  schedules = [],
  templates = [template(1)],
  runs = [],
  routes = {},
}: {
  schedules?: Schedule[];
  templates?: Template[];
  runs?: Delivery[];
  routes?: FakeRoutes;
}) {
  return fakeApi(
    {
      'GET /schedules': () => jsonResponse({ schedules }),
      'GET /templates': () => jsonResponse(templates),
      'GET /schedules/:id/runs': () => jsonResponse({ deliveries: runs, next_cursor: null }),
      'POST /schedules/preview': ({ body }) => {
        const { recurrence } = body as { recurrence: { kind: string } };
        return jsonResponse({ cron: '0 9 * * *', description: recurrence.kind, runs: PREVIEW_RUNS });
      },
      ...routes,
    },
    { base: `${API_PREFIX}${MESSAGING_PATH}` },
  );
}
