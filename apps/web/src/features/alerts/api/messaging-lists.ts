import { useQuery } from '@tanstack/react-query';
import { channelsQueryOptions, templatesQueryOptions, topicsQueryOptions } from '@/lib/messaging-lists';

/** The channels, topics and templates a Telegram contact point chooses from (the Messages screen's cache). */
export function useChannelOptions() {
  return useQuery(channelsQueryOptions());
}

export function useTopicOptions(channelId: number | null) {
  return useQuery({ ...topicsQueryOptions(channelId ?? 0), enabled: channelId !== null });
}

/** The alert templates (message type `alert`): the ones made to carry an alert's variables. */
export function useAlertTemplateOptions() {
  return useQuery(templatesQueryOptions({ channelId: null, messageType: 'alert' }));
}
