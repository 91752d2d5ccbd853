import type { RenderContentBody, RenderResult } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';

/**
 * POST /v1/messaging/render: content that is not saved yet (docs/bot-developers/deliveries.md,
 * "Message templates"), so the preview works while creating and editing, where spec section 2 shows it only
 * for a saved template. The editor's preview query (hooks/use-rendered-preview) calls it.
 */
export function renderContent(body: RenderContentBody, signal?: AbortSignal) {
  return api.post<RenderResult>(`${MESSAGING_PATH}/render`, body, { signal });
}
