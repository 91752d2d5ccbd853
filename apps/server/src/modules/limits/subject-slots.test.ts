import { describe, expect, it } from 'vitest';
import { idOf, SubjectSlots } from './subject-slots.js';

describe('idOf', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    ['-1001234567890', -1001234567890],
    ['999999999999999', 999_999_999_999_999],
    ['-999999999999999', -999_999_999_999_999],
  ])('reads %j as a number', (subject, id) => {
    expect(idOf(subject)).toBe(id);
  });

  // Each of these written as String writes a number would be another subject's key: kept by name.
  it.each([
    '',
    '-',
    '-0',
    '007',
    '+1',
    ' 1',
    '1 ',
    '1e3',
    '1.5',
    '0x1f',
    '9007199254740993',
    '1000000000000000',
  ])('keeps %j by name', (subject) => {
    expect(idOf(subject)).toBeNaN();
  });
});

describe('SubjectSlots', () => {
  it('finds every subject it placed, by kind, also once its tables grew, and in an image of it', () => {
    const slots = SubjectSlots.empty();
    const placed: [kind: 'chat' | 'user' | 'feature', subject: string, at: number][] = [];
    for (let i = 0; i < 5_000; i += 1) {
      placed.push(['chat', `-100${i * 7919}`, placed.length * 10]);
      if (i % 5 === 0) placed.push(['user', `${i}`, placed.length * 10]);
    }
    placed.push(['feature', '42', placed.length * 10], ['chat', '007', placed.length * 10]);
    for (const [kind, subject, at] of placed) slots.set(kind, subject, at);
    // Placing one again moves it rather than adding it.
    slots.set('chat', '-1000', 123);
    expect(slots.size).toBe(placed.length);

    const copy = SubjectSlots.from(slots.image());
    for (const found of [slots, copy]) {
      for (const [kind, subject, at] of placed) {
        expect(found.get(kind, subject), `${kind} ${subject}`).toBe(subject === '-1000' ? 123 : at);
      }
      expect(found.get('user', '-1000')).toBeUndefined();
      expect(found.get('chat', '42')).toBeUndefined();
      expect(found.get('chat', '7')).toBeUndefined();
      expect(found.get('feature', '0')).toBeUndefined();
    }
    // The image is a copy.
    copy.set('chat', '-5', 50);
    expect(slots.get('chat', '-5')).toBeUndefined();
  });
});
