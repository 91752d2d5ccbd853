/** Query keys of the messaging endpoints; a prefix invalidates everything below it. */
export const messagingKeys = {
  channels: ['messaging', 'channels'] as const,
  topics: (channelId: number) => ['messaging', 'channels', channelId, 'topics'] as const,
  templates: ['messaging', 'templates'] as const,
  templateList: (filters: { channelId: number | null; messageType: string | null }) =>
    ['messaging', 'templates', 'list', filters] as const,
  versions: (templateId: number) => ['messaging', 'templates', templateId, 'versions'] as const,
  testHistory: (templateId: number) => ['messaging', 'templates', templateId, 'test-history'] as const,
  variables: ['messaging', 'variables'] as const,
  render: ['messaging', 'render'] as const,
};

export const MESSAGING_PATH = '/v1/messaging';
