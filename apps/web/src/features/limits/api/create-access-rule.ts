import type { AccessRule, AccessRuleValues } from '@lumi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useInvalidateLimits } from './invalidate-limits';
import { ACCESS_RULES_PATH } from './list-access-rules';

/** POST /limits/access-rules: ban a chat or user, or exempt it from every limit (409: it has an entry). */
export function createAccessRule(input: AccessRuleValues) {
  return api.post<AccessRule>(ACCESS_RULES_PATH, input);
}

export function useCreateAccessRule() {
  return useMutation({ mutationFn: createAccessRule, onSuccess: useInvalidateLimits() });
}
