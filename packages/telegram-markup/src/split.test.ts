import { describe, expect, it } from 'vitest';
import type { TelegramMessageEntity } from './message-entities.js';
import { parseMarkup } from './parse.js';
import { splitFormattedText, type FormattedText } from './split.js';

const texts = (parts: FormattedText[]) => parts.map((part) => part.text);

/** What an entity is apart from where it is: its type and data. */
const kind = ({ offset: _offset, length: _length, ...rest }: TelegramMessageEntity) =>
  JSON.stringify(Object.entries(rest).sort());

/** Each part's entities put back at their place in the whole text, the pieces of an entity joined. */
function rejoined(parts: FormattedText[]): TelegramMessageEntity[] {
  const whole: TelegramMessageEntity[] = [];
  let start = 0;
  for (const part of parts) {
    for (const entity of part.entities) {
      const continued =
        entity.offset === 0 && whole.find((e) => e.offset + e.length === start && kind(e) === kind(entity));
      if (continued) continued.length += entity.length;
      else whole.push({ ...entity, offset: start + entity.offset });
    }
    start += part.text.length;
  }
  return whole;
}

describe('splitFormattedText', () => {
  it('keeps a text that fits as the one part', () => {
    const message = { text: 'short', entities: [{ type: 'bold' as const, offset: 0, length: 5 }] };
    expect(splitFormattedText(message)).toEqual([message]);
  });

  it('cuts after a paragraph first, then after a line, then after a word', () => {
    const paragraphs = 'one two\nthree\n\nfour five six';
    expect(texts(splitFormattedText({ text: paragraphs, entities: [] }, { maxLength: 20 }))).toEqual([
      'one two\nthree\n\n',
      'four five six',
    ]);
    const lines = 'one two\nthree four five';
    expect(texts(splitFormattedText({ text: lines, entities: [] }, { maxLength: 20 }))).toEqual([
      'one two\n',
      'three four five',
    ]);
    const words = 'one two three four five';
    expect(texts(splitFormattedText({ text: words, entities: [] }, { maxLength: 20 }))).toEqual([
      'one two three four ',
      'five',
    ]);
  });

  it('cuts a word longer than a part where the part is full, never inside a surrogate pair', () => {
    expect(texts(splitFormattedText({ text: 'abcdefghij', entities: [] }, { maxLength: 4 }))).toEqual([
      'abcd',
      'efgh',
      'ij',
    ]);
    // 'ab' and two rockets (two UTF-16 units each): a cut at 5 would halve the second rocket.
    expect(texts(splitFormattedText({ text: 'ab🚀🚀🚀', entities: [] }, { maxLength: 5 }))).toEqual([
      'ab🚀',
      '🚀🚀',
    ]);
  });

  it.each(['custom_emoji', 'text_mention', 'date_time'] as const)('never cuts inside a %s', (type) => {
    const data = {
      custom_emoji: { custom_emoji_id: '5368324170671202286' },
      text_mention: { user: { id: 42 } },
      date_time: { unix_time: 1647531900, date_time_format: 'wDT' },
    }[type];
    const entity = { type, offset: 8, length: 7, ...data } as TelegramMessageEntity;
    const parts = splitFormattedText({ text: 'one two three four', entities: [entity] }, { maxLength: 12 });
    expect(texts(parts)).toEqual(['one two ', 'three four']);
    expect(parts[1]!.entities).toEqual([{ ...entity, offset: 0 }]);
  });

  it('cuts an unsplittable entity only when it is longer than a part', () => {
    const emoji = { type: 'custom_emoji' as const, offset: 0, length: 6, custom_emoji_id: '1' };
    const parts = splitFormattedText({ text: 'abcdef', entities: [emoji] }, { maxLength: 4 });
    expect(parts).toEqual([
      { text: 'abcd', entities: [{ ...emoji, length: 4 }] },
      { text: 'ef', entities: [{ ...emoji, length: 2 }] },
    ]);
  });

  it('reopens the entities a cut goes through, nested ones too, in the next part', () => {
    const parsed = parseMarkup(
      'HTML',
      '<b>bold <i>both <a href="https://t.me/lumi">link</a></i> end</b>\n<pre><code class="language-ts">let a = 1;\nlet b = 2;</code></pre>',
    );
    const parts = splitFormattedText(
      { text: parsed.text, entities: parsed.messageEntities },
      { maxLength: 13 },
    );
    expect(texts(parts)).toEqual(['bold both ', 'link end\n', 'let a = 1;\n', 'let b = 2;']);
    expect(parts.map((part) => part.entities)).toEqual([
      [
        { type: 'bold', offset: 0, length: 10 },
        { type: 'italic', offset: 5, length: 5 },
      ],
      [
        { type: 'bold', offset: 0, length: 8 },
        { type: 'text_link', offset: 0, length: 4, url: 'https://t.me/lumi' },
        { type: 'italic', offset: 0, length: 4 },
      ],
      [{ type: 'pre', offset: 0, length: 11, language: 'ts' }],
      [{ type: 'pre', offset: 0, length: 10, language: 'ts' }],
    ]);
    expect(rejoined(parts)).toEqual(parsed.messageEntities);
  });

  it('splits a 20,000-character message into parts Telegram takes', () => {
    const paragraph = (n: number) =>
      `<b>Paragraph ${n}</b>\n${'lorem <i>ipsum</i> 🚀 dolor <tg-emoji emoji-id="1">👍👍</tg-emoji> sit '.repeat(12)}\n\n`;
    const markup = Array.from({ length: 60 }, (_, n) => paragraph(n)).join('');
    const parsed = parseMarkup('HTML', markup);
    expect(parsed.error).toBeNull();
    expect(parsed.text.length).toBeGreaterThan(20_000);

    const parts = splitFormattedText({ text: parsed.text, entities: parsed.messageEntities });
    expect(parts.length).toBeGreaterThanOrEqual(5);
    expect(parts.map((part) => part.text).join('')).toBe(parsed.text);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(4096);
      expect(part.text.length).toBeGreaterThan(2048);
      for (const entity of part.entities) {
        expect(entity.offset + entity.length).toBeLessThanOrEqual(part.text.length);
        if (entity.type === 'custom_emoji') expect(entity.length).toBe(4);
      }
    }
    // Every part but the last ends with a paragraph.
    expect(parts.slice(0, -1).every((part) => part.text.endsWith('\n\n'))).toBe(true);
    expect(rejoined(parts)).toEqual(parsed.messageEntities);
  });

  it('refuses a part length that cannot hold a surrogate pair', () => {
    expect(() => splitFormattedText({ text: 'abc', entities: [] }, { maxLength: 1 })).toThrow(RangeError);
  });
});
