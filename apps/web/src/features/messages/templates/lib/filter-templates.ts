import type { Template } from '@lumi/contract';

/** Spec section 2, Messages: the search is client-side, case-insensitive, on the template name. */
export function filterTemplatesByName(templates: readonly Template[], search: string): Template[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...templates];
  return templates.filter((template) => template.template_name.toLocaleLowerCase().includes(needle));
}
