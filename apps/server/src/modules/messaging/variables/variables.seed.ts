import type { VariableValues } from '@lumi/contract';

/**
 * The catalogue a new installation starts with: the market variables the bot's messages use (issue 5,
 * "Variables"). The console's Preview and Test panels build their sample JSON from these names and
 * example values.
 */
export const SEEDED_VARIABLES: readonly VariableValues[] = [
  {
    variable_name: 'token_name',
    data_type: 'string',
    description: 'Name of the token',
    category: 'Token',
    example_value: 'Pepe',
    available_helpers: ['uppercase', 'lowercase', 'truncate', 'default'],
  },
  {
    variable_name: 'token_address',
    data_type: 'string',
    description: 'Contract address of the token',
    category: 'Token',
    example_value: '0x6982508145454Ce325dDbE47a25d4ec3d2311933',
    available_helpers: ['truncate', 'lowercase', 'uppercase', 'default'],
  },
  {
    variable_name: 'price_usd',
    data_type: 'number',
    description: 'Price in US dollars',
    category: 'Market',
    example_value: '0.00001234',
    available_helpers: ['formatCurrency', 'formatNumber', 'default'],
  },
  {
    variable_name: 'market_cap',
    data_type: 'number',
    description: 'Market capitalisation in US dollars',
    category: 'Market',
    example_value: '5200000000',
    available_helpers: ['formatNumber', 'formatCurrency', 'default'],
  },
  {
    variable_name: 'volume_24h',
    data_type: 'number',
    description: 'Trading volume over the last 24 hours, in US dollars',
    category: 'Market',
    example_value: '1500000',
    available_helpers: ['formatNumber', 'formatCurrency', 'default'],
  },
  {
    variable_name: 'price_change_24h',
    data_type: 'number',
    description: 'Price change over the last 24 hours, in percent',
    category: 'Market',
    example_value: '5.5',
    available_helpers: ['formatPercentage', 'default'],
  },
  {
    variable_name: 'holders',
    data_type: 'integer',
    description: 'Number of wallets holding the token',
    category: 'On-chain',
    example_value: '250000',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'trending_rank',
    data_type: 'integer',
    description: 'Position in the trending list (1 is the top)',
    category: 'On-chain',
    example_value: '1',
    available_helpers: ['default'],
  },
  {
    variable_name: 'timestamp',
    data_type: 'datetime',
    description: 'When the data was taken (ISO 8601 or Unix seconds)',
    category: 'General',
    example_value: '2026-11-22T09:40:00Z',
    available_helpers: ['formatTimeAgo', 'default'],
  },
];
