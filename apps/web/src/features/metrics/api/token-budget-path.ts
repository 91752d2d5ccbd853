/** The path of one provider's budget; the provider name is free text, so it is encoded. */
export function tokenBudgetPath(provider: string): string {
  return `/config/token-budgets/${encodeURIComponent(provider)}`;
}
