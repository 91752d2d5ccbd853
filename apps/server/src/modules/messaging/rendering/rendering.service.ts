import type { ParseMode, RenderResult } from '@lumi/contract';
import type { Clock } from '../../../lib/time.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { sharedRenderPool, type RenderPool } from './render-pool.js';

/**
 * Rendering (docs/bot-developers/deliveries.md, "Message templates"): previews of a saved template or of
 * content not saved yet, and the text of every message Lumi sends. Renderings run in the render pool's
 * worker, within the render budget.
 */
export class RenderingService {
  constructor(
    private readonly templates: TemplatesService,
    private readonly now: Clock = Date.now,
    private readonly pool: RenderPool = sharedRenderPool,
  ) {}

  async renderSaved(id: number, data: Record<string, unknown>): Promise<RenderResult> {
    const template = await this.templates.get(id);
    return this.render(template.template_content, template.parse_mode, data);
  }

  render(content: string, parseMode: ParseMode, data: Record<string, unknown>): Promise<RenderResult> {
    return this.pool.render(content, parseMode, data, this.now());
  }
}
