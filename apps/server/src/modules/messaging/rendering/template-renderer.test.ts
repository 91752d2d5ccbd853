import type { ParseMode } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from './template-renderer.js';

const now = () => Date.parse('2026-11-22T12:00:00.000Z');
const sample = {
  token_name: 'Pepe',
  token_address: '0x6982508145454Ce325dDbE47a25d4ec3d2311933',
  price_usd: 0.00001234,
  market_cap: 5_200_000_000,
  volume_24h: 1_500_000,
  price_change_24h: 5.5,
  holders: 250_000,
  trending_rank: 1,
  timestamp: '2026-11-22T11:55:00.000Z',
};

describe('renderTemplate', () => {
  it('renders a template with every helper', () => {
    const content = [
      '<b>{{uppercase token_name}}</b> #{{trending_rank}}',
      'Price: {{formatCurrency price_usd}} ({{formatPercentage price_change_24h}})',
      'MC {{formatNumber market_cap}} · Vol {{formatNumber volume_24h}} · {{formatNumber holders}} holders',
      '<code>{{truncate token_address 10}}</code> {{lowercase "ABC"}} {{default missing "n/a"}}',
      'Updated {{formatTimeAgo timestamp}}',
    ].join('\n');
    const result = renderTemplate(content, 'HTML', { ...sample, missing: null }, { now });
    expect(result).toEqual({
      success: true,
      rendered: [
        '<b>PEPE</b> #1',
        'Price: $0.00001234 (+5.50%)',
        'MC 5.2B · Vol 1.5M · 250K holders',
        '<code>0x69825081...</code> abc n/a',
        'Updated 5m ago',
      ].join('\n'),
      length: expect.any(Number),
      warnings: [],
      problems: [],
    });
    expect(result.length).toBe(result.rendered.replace(/<\/?(b|code)>/g, '').length);
  });

  describe('escapes substituted values for the parse mode, never the template markup', () => {
    it.each([
      ['HTML', '<b>{{v}}</b>', 'A<B> & "C"', '<b>A&lt;B&gt; &amp; "C"</b>'],
      [
        'HTML',
        '<a href="{{v}}">link</a>',
        'https://x.test/?a=1&b="2"',
        '<a href="https://x.test/?a=1&amp;b=&quot;2&quot;">link</a>',
      ],
      ['HTML', '<code>{{v}}</code>', 'x < y', '<code>x &lt; y</code>'],
      ['MarkdownV2', '*{{v}}* is up', 'Pepe 2.0 (beta)!', '*Pepe 2\\.0 \\(beta\\)\\!* is up'],
      ['MarkdownV2', '`{{v}}`', 'a`b.c\\d', '`a\\`b.c\\\\d`'],
      ['MarkdownV2', '```\n{{v}}\n```', 'x_y*z `q`', '```\nx_y*z \\`q\\`\n```'],
      ['MarkdownV2', '[chart]({{v}})', 'https://x.test/a_(b).html', '[chart](https://x.test/a_(b\\).html)'],
      ['MarkdownV2', '{{formatPercentage v}}', -2, '\\-2\\.00%'],
      ['Markdown', '{{v}}', 'snake_case *x*', 'snake\\_case \\*x\\*'],
      ['Markdown', '*{{v}}*', '2*2=4', '*2*\\**2=4*'],
      ['Markdown', '`{{v}}`', 'a`b', '`a`\\``b`'],
    ] as const)('%s: %j with %j', (mode, content, v, rendered) => {
      const result = renderTemplate(content, mode, { v });
      expect(result.rendered).toBe(rendered);
      expect(result.success, result.error).toBe(true);
    });

    it('leaves {{{…}}} unescaped, as markup', () => {
      const result = renderTemplate('{{{v}}} {{v}}', 'HTML', { v: '<i>x</i>' });
      expect(result.rendered).toBe('<i>x</i> &lt;i&gt;x&lt;/i&gt;');
    });

    it('escapes values inside blocks', () => {
      const content =
        '{{#each items}}<b>{{name}}</b>{{#unless @last}}, {{/unless}}{{/each}}{{#if flag}} & more{{/if}}';
      const result = renderTemplate(content, 'HTML', {
        items: [{ name: 'a<b' }, { name: 'c&d' }],
        flag: true,
      });
      expect(result.rendered).toBe('<b>a&lt;b</b>, <b>c&amp;d</b> & more');
    });
  });

  it.each([
    [null, ''],
    [undefined, ''],
    [0, '0'],
    [false, 'false'],
    [[1, 2], '[1,2]'],
    [{ a: 1 }, '{"a":1}'],
  ])('renders the value %j as %j', (v, text) => {
    expect(renderTemplate('x{{v}}', 'HTML', { v }).rendered).toBe(`x${text}`);
  });

  it('reports what Telegram would refuse as a problem of the rendered message, where it is', () => {
    const result = renderTemplate('Hi\n<b>{{v}}', 'HTML', { v: 'x' });
    expect(result.success).toBe(false);
    expect(result.problems[0]).toMatchObject({ severity: 'error', source: 'message', line: 2, column: 1 });
    expect(result.error).toBe(
      "Rendered message line 2, column 1: Telegram would refuse this message (can't parse entities): <b> is never closed: add </b>",
    );
  });

  it('does not reach into prototypes', () => {
    expect(renderTemplate('x{{constructor.name}}{{v.__proto__}}', 'HTML', { v: {} }).rendered).toBe('x');
  });

  describe('template errors with line and column', () => {
    it.each([
      ['Hi\n  {{formatNumbr price}}', 2, 5, "Unknown helper 'formatNumbr'. Available: formatNumber"],
      ['{{uppercase (shout name)}}', 1, 14, "Unknown helper 'shout'"],
      ['{{#repeat 3}}x{{/repeat}}', 1, 4, "Unknown block helper 'repeat'. Available: if, unless, each, with"],
      ['{{log "x"}}', 1, 3, "Unknown helper 'log'"],
      ['a\n{{> header}}', 2, 1, 'Partials'],
      ['Hi {{name', 1, 6, "Template syntax error: cannot read 'name' (is a '}}' missing?)"],
      ['line\nHi {{name}}}', 2, 10, "Template syntax error: unexpected '}}}'"],
      ['{{#if x}}\nopen', 2, 5, 'the template ends inside'],
      ['{{#if x}}\n  a {{/each}}', 1, 4, 'Template error: {{#if}} is closed by {{/each}}'],
    ])('%j → line %i, column %i', (content, line, column, message) => {
      const result = renderTemplate(content, 'HTML', {});
      expect(result.success).toBe(false);
      expect(result.rendered).toBe('');
      expect(result.problems[0]).toMatchObject({ severity: 'error', source: 'template', line, column });
      expect(result.error).toContain(`Template line ${line}, column ${column}: `);
      expect(result.error).toContain(message);
    });

    it('reports a failure while running the template', () => {
      const result = renderTemplate('{{#each}}x{{/each}}', 'HTML', {});
      expect(result.success).toBe(false);
      expect(result.error).toContain('Must pass iterator to #each');
    });
  });

  it('warns about top-level variables missing from the data, but still renders', () => {
    const content = '{{token_name}} {{formatNumber holders}} {{#each list}}{{item}}{{/each}} {{holders}}';
    const result = renderTemplate(content, 'HTML', { token_name: 'Pepe', list: [] });
    expect(result.success).toBe(true);
    expect(result.rendered).toBe('Pepe   ');
    expect(result.warnings).toEqual([
      "Template line 1, column 31: 'holders' is not in the data, so {{holders}} renders as nothing",
    ]);
  });

  describe("checks the result against Telegram's rules", () => {
    it('reports markup Telegram would refuse, with its place in the message', () => {
      const result = renderTemplate('<b>{{v}}\n<i>x</b>', 'HTML', { v: 'ok' });
      expect(result.success).toBe(false);
      expect(result.rendered).toBe('<b>ok\n<i>x</b>');
      expect(result.error).toBe(
        "Rendered message line 2, column 5: Telegram would refuse this message (can't parse entities): Tags are not properly nested: expected </i>, found </b>",
      );
    });

    it('reports a reserved MarkdownV2 character in the template itself', () => {
      const result = renderTemplate('Price: {{formatCurrency v}}.', 'MarkdownV2', { v: 1.5 });
      expect(result.rendered).toBe('Price: $1\\.50.');
      expect(result.error).toContain(
        "line 1, column 14: Telegram would refuse this message (can't parse entities): Character '.' is reserved",
      );
    });

    it('reports a message over 4096 characters and an empty one', () => {
      const long = renderTemplate('<b>{{v}}</b>', 'HTML', { v: 'x'.repeat(4097) });
      expect(long).toMatchObject({ success: false, length: 4097 });
      expect(long.error).toContain('at most 4096');
      expect(renderTemplate('<b>{{v}}</b>', 'HTML', { v: 'x'.repeat(4096) })).toMatchObject({
        success: true,
        length: 4096,
      });
      expect(renderTemplate('{{v}}', 'HTML', { v: '  ' }).error).toContain('empty');
    });
  });
});

describe('where a problem of the rendered message was written in the template', () => {
  const positionOf = (content: string, data: Record<string, unknown>, parseMode: ParseMode = 'HTML') => {
    const result = renderTemplate(content, parseMode, data);
    const problem = result.problems.find((p) => p.severity === 'error' && p.source === 'message');
    return problem?.template_position ?? null;
  };

  it.each<[string, string, Record<string, unknown>, { line: number; column: number }]>([
    [
      'a wrong closing tag after a value',
      '<b>bold {{token_symbol}}</i>',
      { token_symbol: 'PEPE' },
      { line: 1, column: 25 },
    ],
    ['the same with a long value', '<b>{{name}} </i>', { name: 'x'.repeat(40) }, { line: 1, column: 13 }],
    [
      'on a later line',
      'Price: {{price}}\n<b>{{name}}\n<i>x</b>',
      { price: 1, name: 'n' },
      { line: 3, column: 5 },
    ],
    ['an unclosed tag, at its start', 'line one\n<b>{{a}}', { a: 'v' }, { line: 2, column: 1 }],
    [
      'inside a loop body',
      '{{#each items}}<b>{{this}}</i>{{/each}}',
      { items: ['a', 'b'] },
      { line: 1, column: 27 },
    ],
  ])('%s', (_name, content, data, expected) => {
    expect(positionOf(content, data)).toEqual(expected);
  });

  it('has no position for markup a raw value ({{{…}}}) brought, nor for the message as a whole', () => {
    expect(positionOf('ok {{{raw}}}', { raw: '<b>x' })).toBeNull();
    const result = renderTemplate('<b>{{a}}</b>', 'HTML', {});
    const empty = result.problems.find((p) => p.source === 'message' && p.severity === 'error');
    expect(empty).toMatchObject({ line: null, column: null });
    expect(empty).not.toHaveProperty('template_position');
  });
});
