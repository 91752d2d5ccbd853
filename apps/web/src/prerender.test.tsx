// @vitest-environment node
// Where the build renders the first views (vite-prerender.ts): no window, no document, no storage.
import { describe, expect, it } from 'vitest';
import { FIRST_VIEW_ADDRESSES, renderFirstView } from './prerender';

const HEADINGS: Record<(typeof FIRST_VIEW_ADDRESSES)[number], string> = {
  '/overview': 'System Overview',
  '/metrics': 'Metrics &amp; Analytics',
  '/metrics?tab=calls': 'Metrics &amp; Analytics',
  '/config': 'Configuration Management',
  '/messages': 'Message Templates',
  '/alerts': 'Alerts',
  '/alerts?rule=*': 'Alerts',
  '/limits': 'Limits',
  '/users': 'Users',
  '/admin': 'Administration',
  '/profile': 'Profile Settings',
};

describe("a signed-in screen's first view, rendered without a browser", () => {
  it.each(FIRST_VIEW_ADDRESSES)(
    '%s shows the top bar and the screen, not a loading page',
    async (address) => {
      const markup = await renderFirstView(address);
      expect(markup).toContain('Lumi Admin');
      expect(markup).toContain('aria-label="Main"');
      expect(markup).toMatch(new RegExp(`<h1[^>]*>${HEADINGS[address]}</h1>`));
    },
  );

  it("renders the tab its address names: the Metrics screen's Calls tab", async () => {
    const calls = await renderFirstView('/metrics?tab=calls');
    expect(calls).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*>Calls</);
    expect(await renderFirstView('/metrics')).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*>LLM Usage</);
  });

  it("renders an alert's link as the Alerts screen holding the rule's place, with the parts first-load.js fills", async () => {
    const link = await renderFirstView('/alerts?rule=*');
    expect(link).toMatch(new RegExp(`<h1[^>]*>${HEADINGS['/alerts']}</h1>`));
    for (const part of ['name', 'what', 'since', 'next-heading', 'next'])
      expect(link).toContain(`data-brief="${part}"`);
    expect(await renderFirstView('/alerts')).not.toContain('data-alert-brief');
  });
});
