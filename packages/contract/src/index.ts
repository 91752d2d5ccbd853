export * from './alerts.js';
export * from './api-keys.js';
export * from './audit.js';
export * from './auth.js';
export * from './config-items.js';
export * from './errors.js';
export * from './fields.js';
export * from './llm-dimensions.js';
export * from './messaging/index.js';
export * from './permissions.js';
export * from './roles.js';
export * from './telemetry.js';
export * from './text.js';
export * from './users.js';

export const API_PREFIX = '/api';
export const CONSOLE_BASE = '/admin';
