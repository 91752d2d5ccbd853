export * from './events.js';
export * from './metrics.js';
export * from './budgets.js';
export * from './latency.js';
export * from './otlp.js';
