import { describe, expect, it } from 'vitest';
import { RENDER_LIMITS, RenderBudget, RenderBusyError, RenderLimitError } from './render-budget.js';
import { renderTemplate } from './template-renderer.js';

const list = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `item ${i}`, tags: ['a', 'b'] }));

function limitOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RenderLimitError);
    return (error as RenderLimitError).message;
  }
  throw new Error('The rendering was not stopped');
}

/** A budget whose clock stands still, so a test of another limit cannot hit the time limit on a busy machine. */
const untimed = () => ({ budget: new RenderBudget(RENDER_LIMITS, { wall: () => 0, cpu: () => 0 }) });

describe('render limits', () => {
  it('stops nested loops over long lists at the iteration limit', () => {
    // The attack the render limits were made for: 200 × 200 iterations of a body that repeats the list again.
    const rows = Array.from({ length: 200 }, (_, i) => i);
    const content = '{{#each rows}}{{#each ../rows}}{{#each ../../rows}}{{this}}{{/each}}{{/each}}{{/each}}';
    expect(limitOf(() => renderTemplate(content, 'HTML', { rows }, untimed()))).toMatch(
      /^(The template ran more than 10,000 loop iterations|The message passed 16,384 characters)/,
    );
  });

  it('stops a loop as soon as its output passes the limit', () => {
    const content = `{{#each items}}${'x'.repeat(1000)}{{/each}}`;
    const message = limitOf(() => renderTemplate(content, 'HTML', { items: list(100) }, untimed()));
    expect(message).toBe(
      'The message passed 16,384 characters while rendering (Telegram takes 4,096); rendering was stopped. Check loops ({{#each}}) over long lists.',
    );
  });

  it('counts substituted values, escaped and raw alike', () => {
    const big = 'y'.repeat(5000);
    expect(limitOf(() => renderTemplate('{{big}}{{big}}{{big}}{{big}}', 'HTML', { big }, untimed()))).toMatch(
      /^The message passed/,
    );
    expect(
      limitOf(() => renderTemplate('{{{big}}}{{{big}}}{{{big}}}{{{big}}}', 'HTML', { big }, untimed())),
    ).toMatch(/^The message passed/);
  });

  it('stops a rendering that works past its CPU time', () => {
    let now = 0;
    const clock = () => (now += 1);
    const budget = new RenderBudget(RENDER_LIMITS, { wall: clock, cpu: () => now });
    const content = '{{#each items}}{{name}}{{/each}}';
    expect(limitOf(() => renderTemplate(content, 'HTML', { items: list(100) }, { budget }))).toBe(
      'Rendering took longer than 25 ms and was stopped; simplify the template or send less data.',
    );
  });

  it('lets a rendering slowed only by a busy machine finish within the CPU limit', () => {
    // Each step takes 10 ms of wall time but 0.1 ms of this thread's CPU: the other processes' time.
    let wall = 0;
    let cpu = 0;
    const budget = new RenderBudget(RENDER_LIMITS, {
      wall: () => (wall += 10),
      cpu: () => (cpu += 0.1),
    });
    const result = renderTemplate(
      '{{#each items}}{{name}} {{/each}}',
      'HTML',
      { items: list(100) },
      { budget },
    );
    expect(result.success).toBe(true);
    expect(wall).toBeGreaterThan(RENDER_LIMITS.cpuMilliseconds * 10);
  });

  it("gives up a rendering the machine keeps too long as busy (503), not as the template's fault", () => {
    let wall = 0;
    const budget = new RenderBudget(RENDER_LIMITS, { wall: () => (wall += 100), cpu: () => 0 });
    let caught: unknown;
    try {
      renderTemplate('{{#each items}}{{name}}{{/each}}', 'HTML', { items: list(100) }, { budget });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RenderBusyError);
    expect(caught).toMatchObject({ statusCode: 503, headers: { 'retry-after': '2' } });
  });

  it('reads the CPU clock only once the wall time passed the CPU limit', () => {
    let reads = 0;
    const budget = new RenderBudget(RENDER_LIMITS, {
      wall: () => 0,
      cpu: () => {
        reads += 1;
        return 0;
      },
    });
    renderTemplate('{{#each items}}{{name}}{{/each}}', 'HTML', { items: list(100) }, { budget });
    expect(reads).toBe(1);
  });

  it('renders loops and values within the limits as before', () => {
    const content = '{{#each items}}{{name}}{{#each tags}} #{{this}}{{/each}}\n{{/each}}{{{raw}}}';
    const result = renderTemplate(content, 'HTML', { items: list(50), raw: '<b>end</b>' }, untimed());
    expect(result.success).toBe(true);
    expect(result.rendered.split('\n')).toHaveLength(51);
    expect(result.rendered.endsWith('<b>end</b>')).toBe(true);
  });

  it('refuses a template with too many expressions before compiling it', () => {
    expect(limitOf(() => renderTemplate('{{a}}'.repeat(1001), 'HTML', { a: 1 }))).toBe(
      'The template has more than 1,000 {{…}} expressions; split it into shorter messages.',
    );
    expect(renderTemplate('{{a}}'.repeat(1000), 'HTML', { a: 1 }, untimed()).success).toBe(true);
  });
});
