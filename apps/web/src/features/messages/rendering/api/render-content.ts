import type { RenderContentBody, RenderResult } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';

/**
 * POST /v1/messaging/render: content that is not saved yet (issue 5's extension, so the preview works
 * while creating and editing). The editor's preview query (hooks/use-rendered-preview) calls it.
 */
export function renderContent(body: RenderContentBody, signal?: AbortSignal) {
  return api.post<RenderResult>(`${MESSAGING_PATH}/render`, body, { signal });
}
