import type { AccessSubjectKind, LimitValues } from '@lumi/contract';
import type { DenialFilters } from '../hooks/use-denial-filters';

/** Query keys of the limits endpoints; `all` invalidates every one of them after a change. */
export const limitKeys = {
  all: ['limits'] as const,
  list: ['limits', 'list'] as const,
  one: (id: number) => ['limits', 'one', id] as const,
  preview: (input: LimitValues) => ['limits', 'preview', input] as const,
  accessRules: ['limits', 'access-rules'] as const,
  denials: (filters: DenialFilters) => ['limits', 'denials', filters] as const,
  subject: (kind: AccessSubjectKind, subject: string) => ['limits', 'subjects', kind, subject] as const,
};

export const LIMITS_PATH = '/limits';

/** Usage moves with every call: the open list asks again this often (TanStack Query pauses in a hidden tab). */
export const LIMITS_POLL_MS = 30_000;
