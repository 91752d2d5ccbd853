/**
 * Messaging (docs/bot-developers/deliveries.md, "Message templates"): the contract of channels, templates,
 * variables, rendering and test sends.
 */
export * from './constants.js';
export * from './channels.js';
export * from './templates.js';
export * from './variables.js';
export * from './example-data.js';
export * from './rendering.js';
export * from './render-checks.js';
export * from './test-sends.js';
export * from './deliveries.js';
export * from './schedules.js';
