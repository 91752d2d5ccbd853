import type { RenderResult } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';

/**
 * POST /v1/messaging/templates/{id}/render: the saved template with sample data, checked against
 * Telegram's rules. The editor's preview query (hooks/use-rendered-preview) calls it.
 */
export function renderTemplate(templateId: number, data: Record<string, unknown>, signal?: AbortSignal) {
  return api.post<RenderResult>(`${MESSAGING_PATH}/templates/${templateId}/render`, { data }, { signal });
}
