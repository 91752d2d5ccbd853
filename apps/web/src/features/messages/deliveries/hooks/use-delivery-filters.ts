import { DELIVERY_STATUSES, type DeliveryStatus } from '@lumi/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { idFromUrl, useUrlFilterSetters } from '@/lib/url-filters';
import { isDeliveryRange, type DeliveryRange } from '../lib/delivery-ranges';

/** The delivery log's filters, as they sit in the URL (?status=failed&channel=2&template=5&range=24h). */
export interface DeliveryFilters {
  status: DeliveryStatus | null;
  channelId: number | null;
  templateId: number | null;
  range: DeliveryRange | null;
}

export const DELIVERY_PARAMS = {
  status: 'status',
  channelId: 'channel',
  templateId: 'template',
  range: 'range',
  /** The delivery whose details are open. */
  open: 'delivery',
} as const;

const { open: _open, ...FILTER_PARAMS } = DELIVERY_PARAMS;

function asStatus(value: string | null): DeliveryStatus | null {
  return DELIVERY_STATUSES.find((status) => status === value) ?? null;
}

/**
 * The filters and the open delivery, kept in the URL so a reload or a shared link (the Overview card's, a
 * Send now toast's) opens the same view. Unknown values count as no filter.
 */
export function useDeliveryFilters() {
  const [params, setParams] = useSearchParams();
  const status = params.get(DELIVERY_PARAMS.status);
  const channel = params.get(DELIVERY_PARAMS.channelId);
  const template = params.get(DELIVERY_PARAMS.templateId);
  const range = params.get(DELIVERY_PARAMS.range);
  const filters = useMemo<DeliveryFilters>(
    () => ({
      status: asStatus(status),
      channelId: idFromUrl(channel),
      templateId: idFromUrl(template),
      range: isDeliveryRange(range) ? range : null,
    }),
    [status, channel, template, range],
  );
  const openId = idFromUrl(params.get(DELIVERY_PARAMS.open));

  const { setFilter, clearFilters } = useUrlFilterSetters<DeliveryFilters>(FILTER_PARAMS);

  /**
   * Opening details is a step of its own in the history, so Back closes them; closing replaces the entry,
   * so Back does not open them again.
   */
  const setOpenId = useCallback(
    (id: number | null) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (id === null) updated.delete(DELIVERY_PARAMS.open);
          else updated.set(DELIVERY_PARAMS.open, String(id));
          return updated;
        },
        { replace: id === null },
      ),
    [setParams],
  );

  return { filters, setFilter, clearFilters, openId, setOpenId };
}
