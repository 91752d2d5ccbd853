import type { ParseMode, Template } from '@lumi/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { messagingKeys } from '@/lib/messaging-keys';
import { renderContent } from '../api/render-content';
import { renderTemplate } from '../api/render-template';
import type { SampleData } from '../../variables/lib/sample-data';
import { useDebouncedValue } from './use-debounced-value';

export const DEBOUNCE_MS = 400;
const RENDER_FRESH_MS = 30_000;

interface PreviewInput {
  template: Template | null;
  content: string;
  parseMode: ParseMode;
  data: SampleData;
}

/**
 * Renders the editor's content with the sample data shortly after either changes. Content as saved goes
 * through the template's own render call; unsaved content (a new template, an edit) through /render.
 */
export function useRenderedPreview({ template, content, parseMode, data }: PreviewInput) {
  const request = useMemo(() => ({ content, parseMode, data }), [content, parseMode, data]);
  const settled = useDebouncedValue(request, DEBOUNCE_MS);
  const saved =
    template !== null &&
    settled.content === template.template_content &&
    settled.parseMode === template.parse_mode;

  const query = useQuery({
    // A saved template's key carries its version, so a new save is rendered afresh.
    queryKey: [
      ...messagingKeys.render,
      saved ? { template: template.id, version: template.version } : { content: settled.content },
      settled.parseMode,
      settled.data,
    ],
    queryFn: ({ signal }) =>
      saved
        ? renderTemplate(template.id, settled.data, signal)
        : renderContent(
            { template_content: settled.content, parse_mode: settled.parseMode, data: settled.data },
            signal,
          ),
    enabled: settled.content.trim() !== '',
    placeholderData: keepPreviousData,
    // The same content and data render the same (but for formatTimeAgo's "now"): the Preview panel and
    // the editor's save check often ask for one rendering, which is then made once.
    staleTime: RENDER_FRESH_MS,
    retry: false,
  });
  return { ...query, rendering: request !== settled || query.isFetching };
}
