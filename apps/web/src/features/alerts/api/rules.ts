import type { AlertRule, AlertRuleInput, AlertRuleListResponse, AlertRuleUpdate } from '@lumi/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ALERTS_PATH, ALERTS_POLL_MS, alertKeys } from './alert-keys';

const RULES_PATH = `${ALERTS_PATH}/rules`;

/** GET /alerts/rules: every rule with its state and latest evaluation. */
export function fetchRules(signal?: AbortSignal) {
  return api.get<AlertRuleListResponse>(RULES_PATH, { signal });
}

export function rulesQueryOptions() {
  return queryOptions({
    queryKey: alertKeys.rules,
    queryFn: ({ signal }) => fetchRules(signal),
    refetchInterval: ALERTS_POLL_MS,
  });
}

export function useRules() {
  return useQuery(rulesQueryOptions());
}

/** POST /alerts/rules, or PUT /alerts/rules/{id} when `id` names the rule to save. */
export function saveRule({ id, input }: { id?: number; input: AlertRuleInput }) {
  return id === undefined
    ? api.post<AlertRule>(RULES_PATH, input)
    : api.put<AlertRule>(`${RULES_PATH}/${id}`, input);
}

/** PUT /alerts/rules/{id} with only the fields to change (the enabled switch). */
export function updateRule({ id, update }: { id: number; update: AlertRuleUpdate }) {
  return api.put<AlertRule>(`${RULES_PATH}/${id}`, update);
}

export function deleteRule(id: number) {
  return api.delete<unknown>(`${RULES_PATH}/${id}`);
}

/** Every change can move a rule's state, the summary and the contact points' rule counts. */
function useInvalidateAlerts() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: alertKeys.all });
}

export function useSaveRule() {
  return useMutation({ mutationFn: saveRule, onSuccess: useInvalidateAlerts() });
}

export function useUpdateRule() {
  return useMutation({ mutationFn: updateRule, onSuccess: useInvalidateAlerts() });
}

export function useDeleteRule() {
  return useMutation({ mutationFn: deleteRule, onSuccess: useInvalidateAlerts() });
}
