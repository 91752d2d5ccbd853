import { LIMIT_MESSAGES } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { limit } from '../test/fake-limits-api';
import { NEW_LIMIT, limitFormOf, limitFormSchema, toLimitInput, type LimitFormValues } from './limit-form';

const now = Date.parse('2026-11-25T08:00:00.000Z');
const messages = (values: LimitFormValues) =>
  Object.fromEntries(
    (limitFormSchema(() => now).safeParse(values).error?.issues ?? []).map((issue) => [
      issue.path.join('.'),
      issue.message,
    ]),
  );

describe('the limit form', () => {
  it('names a missing subject and a missing amount at once', () => {
    expect(messages({ ...NEW_LIMIT, scope: 'chat' })).toEqual({
      subject: LIMIT_MESSAGES.subjectRequired,
      amount: LIMIT_MESSAGES.amountPositive,
    });
  });

  it.each([
    ['a raise without its end', { raise_amount: 10 }, { raise_until: LIMIT_MESSAGES.raiseBoth }],
    [
      'an end without its raise',
      { raise_until: '2099-01-01T10:00' },
      { raise_amount: LIMIT_MESSAGES.raiseBoth },
    ],
    [
      'a raise below the limit',
      { raise_amount: 4, raise_until: '2099-01-01T10:00' },
      { raise_amount: LIMIT_MESSAGES.raiseAbove },
    ],
    [
      'a raise that has ended',
      { raise_amount: 10, raise_until: '2020-01-01T10:00' },
      { raise_until: LIMIT_MESSAGES.raiseEnded },
    ],
    ['a chat id that is not one', { scope: 'chat', subject: 'general' }, { subject: LIMIT_MESSAGES.chatId }],
    ['a cost below a millionth of a dollar', { amount: 0.0000004 }, { amount: LIMIT_MESSAGES.costMin }],
    [
      'a note with a text-direction override',
      { note: 'flood \u202Eevil' },
      {
        note: 'Remove the text-direction control (found U+202E): it makes the text read in another order than it was written',
      },
    ],
    ['a valid raise', { raise_amount: 10, raise_until: '2099-01-01T10:00' }, {}],
  ] as const)('checks %s', (_name, change, expected) => {
    expect(messages({ ...NEW_LIMIT, amount: 5, ...change })).toEqual(expected);
  });

  it('sends the raise’s end as an instant and no subject for each chat', () => {
    expect(
      toLimitInput({ ...NEW_LIMIT, subject: '-100123', amount: 5, raise_until: '2099-01-01T10:00' }),
    ).toEqual(
      expect.objectContaining({
        subject: null,
        amount: 5,
        raise_until: new Date('2099-01-01T10:00').toISOString(),
      }),
    );
  });

  it('keeps a raise’s end to the second, so a raise in its last minute saves unchanged', () => {
    const end = '2026-11-25T09:00:58.000Z';
    const raised = limit(1, { raise_amount: 10, raise_until: end });
    const form = limitFormOf(raised, Date.parse('2026-11-25T09:00:30.000Z'));
    expect(form.raise_until).toMatch(/:58$/);
    expect(toLimitInput(form).raise_until).toBe(end);
    const schema = limitFormSchema(() => Date.parse('2026-11-25T09:00:30.000Z'));
    expect(schema.safeParse(form).success).toBe(true);
    expect(
      limitFormOf(limit(1, { raise_amount: 10, raise_until: '2026-11-25T09:00:00.000Z' }), now).raise_until,
    ).not.toMatch(/:\d\d:\d\d$/);
  });

  it('fills an existing limit’s form, keeping a raise only while it lasts', () => {
    const raised = limit(1, { raise_amount: 10, raise_until: '2026-11-25T09:00:00.000Z' });
    expect(limitFormOf(raised, now)).toMatchObject({ scope: 'chat', subject: '-100123', raise_amount: 10 });
    expect(limitFormOf(raised, now).raise_until).not.toBe('');
    expect(limitFormOf(raised, Date.parse('2026-11-25T10:00:00.000Z'))).toMatchObject({
      raise_amount: null,
      raise_until: '',
    });
  });
});
