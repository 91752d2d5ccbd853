import { useQuery } from '@tanstack/react-query';
import { templatesQueryOptions, type TemplateListFilters } from '@/lib/messaging-lists';

export function useTemplates(filters: TemplateListFilters) {
  return useQuery(templatesQueryOptions(filters));
}
