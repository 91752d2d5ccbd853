import type { Recurrence } from '@lumi/contract';
import { MESSAGING_PATH } from '@/lib/messaging-keys';

/** Query keys of the schedules endpoints; `all` invalidates every one of them. */
export const scheduleKeys = {
  all: ['messaging', 'schedules'] as const,
  list: ['messaging', 'schedules', 'list'] as const,
  runs: (id: number) => ['messaging', 'schedules', id, 'runs'] as const,
  preview: (recurrence: Recurrence, timezone: string) =>
    ['messaging', 'schedules', 'preview', recurrence, timezone] as const,
};

export const SCHEDULES_PATH = `${MESSAGING_PATH}/schedules`;
