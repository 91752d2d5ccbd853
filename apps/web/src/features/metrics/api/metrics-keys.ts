/** Query keys of the metrics feature; mutations invalidate by these. */
export const metricsKeys = {
  all: ['metrics'] as const,
  botHealth: ['metrics', 'bot-health'] as const,
  llmUsage: (days: number) => ['metrics', 'llm-usage', days] as const,
  cache: ['metrics', 'cache'] as const,
  marketData: ['metrics', 'market-data'] as const,
  geminiUsage: (hours: number) => ['metrics', 'gemini-usage', hours] as const,
  integrations: ['metrics', 'integrations'] as const,
  tokenBudgets: ['metrics', 'token-budgets'] as const,
  modelPrices: ['metrics', 'model-prices'] as const,
  deliverySummary: ['metrics', 'delivery-summary'] as const,
  /** The time-range panels, keyed by timeRangeKey: a relative range keeps its key as time moves on. */
  llmLatency: (range: string) => ['metrics', 'llm', 'latency', range] as const,
  llmErrors: (range: string) => ['metrics', 'llm', 'errors', range] as const,
  llmFeatures: (range: string) => ['metrics', 'llm', 'features', range] as const,
  llmTopChats: (range: string) => ['metrics', 'llm', 'top-chats', range] as const,
  llmTopUsers: (range: string) => ['metrics', 'llm', 'top-users', range] as const,
  changeMarkers: (range: string) => ['metrics', 'changes', range] as const,
  llmCalls: (range: string, filters: string) => ['metrics', 'llm', 'calls', range, filters] as const,
  llmCall: (id: string) => ['metrics', 'llm', 'call', id] as const,
  /** Outside 'metrics': refreshing the dashboards must not read a call's content again (each read is audited). */
  llmCallContent: (id: string) => ['llm-call-content', id] as const,
};
