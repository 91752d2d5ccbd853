export * from './constants.js';
export * from './conditions.js';
export * from './rules.js';
export * from './next-steps.js';
export * from './contact-points.js';
export * from './silences.js';
export * from './history.js';
