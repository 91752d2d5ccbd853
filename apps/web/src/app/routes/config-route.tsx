import { ConfigPage } from '@/features/config/components/config-page';

/** /config: Configuration Management, the items that shape the bot. */
export function ConfigRoute() {
  return <ConfigPage />;
}
