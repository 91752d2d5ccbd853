import type { MessageType, Template } from '@lumi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '../../api/messaging-keys';

export interface TemplateListFilters {
  channelId: number | null;
  messageType: MessageType | null;
}

/** GET /v1/messaging/templates: by name, filtered by channel and message type on the server. */
export function fetchTemplates({ channelId, messageType }: TemplateListFilters, signal?: AbortSignal) {
  return api.get<Template[]>(`${MESSAGING_PATH}/templates`, {
    query: { channel_id: channelId, message_type: messageType },
    signal,
  });
}

export function templatesQueryOptions(filters: TemplateListFilters) {
  return queryOptions({
    queryKey: messagingKeys.templateList(filters),
    queryFn: ({ signal }) => fetchTemplates(filters, signal),
    // Keep the current list on screen while another filter loads, instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

export function useTemplates(filters: TemplateListFilters) {
  return useQuery(templatesQueryOptions(filters));
}
