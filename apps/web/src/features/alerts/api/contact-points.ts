import type {
  AlertNotification,
  AlertNotificationListResponse,
  ContactPoint,
  ContactPointCreated,
  ContactPointInput,
  ContactPointListResponse,
  ContactPointUpdate,
} from '@lumi/contract';
import { ALERT_LIMITS } from '@lumi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import { ALERTS_PATH, ALERTS_POLL_MS, alertKeys } from './alert-keys';

const CONTACT_POINTS_PATH = `${ALERTS_PATH}/contact-points`;

/** GET /alerts/contact-points: every contact point with the number of rules that notify it. */
export function fetchContactPoints(signal?: AbortSignal) {
  return api.get<ContactPointListResponse>(CONTACT_POINTS_PATH, { signal });
}

export function useContactPoints() {
  return useQuery({ queryKey: alertKeys.contactPoints, queryFn: ({ signal }) => fetchContactPoints(signal) });
}

/** POST /alerts/contact-points; a webhook's answer carries its signing secret, this once. */
export function createContactPoint(input: ContactPointInput) {
  return api.post<ContactPointCreated>(CONTACT_POINTS_PATH, input);
}

/** PUT /alerts/contact-points/{id}: the type stays. */
export function updateContactPoint({ id, update }: { id: number; update: ContactPointUpdate }) {
  return api.put<ContactPoint>(`${CONTACT_POINTS_PATH}/${id}`, update);
}

/** DELETE /alerts/contact-points/{id}: refused (409, with a detail) while rules notify it. */
export function deleteContactPoint(id: number) {
  return api.delete<unknown>(`${CONTACT_POINTS_PATH}/${id}`);
}

/** POST /alerts/contact-points/{id}/test: sends a test notification and answers with it. */
export function testContactPoint(id: number) {
  return api.post<AlertNotification>(`${CONTACT_POINTS_PATH}/${id}/test`);
}

export function fetchNotifications(id: number, cursor: number | undefined, signal?: AbortSignal) {
  return api.get<AlertNotificationListResponse>(`${CONTACT_POINTS_PATH}/${id}/notifications`, {
    query: { cursor, limit: ALERT_LIMITS.notificationsDefault },
    signal,
  });
}

/** The recent notifications of a contact point, newest first, with Load more. */
export function useNotifications(id: number) {
  return useCursorPages({
    queryKey: alertKeys.notifications(id),
    fetchPage: (cursor, signal) => fetchNotifications(id, cursor, signal),
    refetchInterval: ALERTS_POLL_MS,
  });
}

function useInvalidateAlerts() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: alertKeys.all });
}

export function useCreateContactPoint() {
  return useMutation({ mutationFn: createContactPoint, onSuccess: useInvalidateAlerts() });
}

export function useUpdateContactPoint() {
  return useMutation({ mutationFn: updateContactPoint, onSuccess: useInvalidateAlerts() });
}

export function useDeleteContactPoint() {
  return useMutation({ mutationFn: deleteContactPoint, onSuccess: useInvalidateAlerts() });
}

export function useTestContactPoint() {
  return useMutation({ mutationFn: testContactPoint, onSuccess: useInvalidateAlerts() });
}
