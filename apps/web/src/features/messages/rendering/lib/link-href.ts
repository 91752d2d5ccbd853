/**
 * Where a link in a message may lead in the preview: web, mail and Telegram links only, so a template
 * cannot put a javascript: or data: URL into the console. Telegram itself reads 'example.com' as http.
 */
export function safeLinkHref(url: string): string | null {
  const trimmed = url.trim();
  if (!trimmed) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return /^[\w-]+(\.[\w-]+)+/.test(trimmed) ? `http://${trimmed}` : null;
  return ['http', 'https', 'mailto', 'tg'].includes(scheme) ? trimmed : null;
}
