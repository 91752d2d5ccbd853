import { MESSAGE_TYPES, type MessageType } from '@lumi/contract';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

function isMessageType(value: string | null): value is MessageType {
  return MESSAGE_TYPES.some((type) => type === value);
}

/** The template list's search, channel and type filters, kept in the URL so a reload or a link keeps them. */
export function useTemplateFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const channelParam = Number.parseInt(params.get('channel') ?? '', 10);
  const channelId = Number.isInteger(channelParam) && channelParam > 0 ? channelParam : null;
  const type = params.get('type');
  const messageType = isMessageType(type) ? type : null;

  const setParam = useCallback(
    (name: string, value: string | null) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (value) updated.set(name, value);
          else updated.delete(name);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    search,
    channelId,
    messageType,
    setSearch: useCallback((value: string) => setParam('search', value), [setParam]),
    setChannelId: useCallback(
      (value: number | null) => setParam('channel', value ? String(value) : null),
      [setParam],
    ),
    setMessageType: useCallback((value: MessageType | null) => setParam('type', value), [setParam]),
  };
}
