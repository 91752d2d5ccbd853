import type { ParseMode, RenderResult } from '@lumi/contract';
import type { TemplatesService } from '../templates/templates.service.js';
import { renderTemplate } from './template-renderer.js';

/** Previews (issue 5, "Rendering"): a saved template, or content that is not saved yet. */
export class RenderingService {
  constructor(
    private readonly templates: TemplatesService,
    private readonly now: () => number = Date.now,
  ) {}

  async renderSaved(id: number, data: Record<string, unknown>): Promise<RenderResult> {
    const template = await this.templates.get(id);
    return renderTemplate(template.template_content, template.parse_mode, data, { now: this.now });
  }

  renderContent(content: string, parseMode: ParseMode, data: Record<string, unknown>): RenderResult {
    return renderTemplate(content, parseMode, data, { now: this.now });
  }
}
