import type { ConfigDomain } from '@lumi/contract';

/** Tab labels for the eight domains (spec section 2, Configuration Management). */
export const DOMAIN_LABELS: Record<ConfigDomain, string> = {
  personalities: 'Personalities',
  'feature-flags': 'Feature Flags',
  quirks: 'Quirks',
  moods: 'Moods',
  catchphrases: 'Catchphrases',
  memories: 'Memories',
  'response-styles': 'Response Styles',
  tasks: 'Tasks',
};
