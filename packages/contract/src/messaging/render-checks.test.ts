import { describe, expect, it } from 'vitest';
import { blockingProblems, describeTemplateProblem } from './render-checks.js';
import type { RenderProblem, RenderResult } from './rendering.js';

const missing: RenderProblem = {
  severity: 'warning',
  source: 'template',
  message: "'announcement' is not in the data, so {{announcement}} renders as nothing",
  line: 1,
  column: 4,
};
const empty: RenderProblem = {
  severity: 'error',
  source: 'message',
  message: 'The message is empty once formatting is removed, and Telegram refuses empty messages',
  line: null,
  column: null,
};
const markup: RenderProblem = {
  severity: 'error',
  source: 'message',
  message: "Telegram would refuse this message (can't parse entities): <b> is never closed",
  line: 1,
  column: 1,
  template_position: { line: 2, column: 5 },
};

const result = (problems: RenderProblem[], length: number): RenderResult => ({
  success: !problems.some((p) => p.severity === 'error'),
  rendered: '',
  length,
  warnings: [],
  problems,
});

describe('blockingProblems', () => {
  it.each<[string, RenderProblem[], number, RenderProblem[]]>([
    ['an empty message with every variable given', [empty], 0, [empty]],
    ['an empty message only because a variable has no data', [missing, empty], 0, []],
    ['markup Telegram refuses, whatever the data', [missing, markup], 3, [markup]],
    ['warnings alone', [missing], 3, []],
  ])('%s', (_name, problems, length, expected) => {
    expect(blockingProblems(result(problems, length))).toEqual(expected);
  });
});

describe('describeTemplateProblem', () => {
  it('names the spot in the template, where there is one', () => {
    expect(describeTemplateProblem(markup)).toBe(`Line 2, column 5: ${markup.message}`);
    expect(describeTemplateProblem(missing)).toBe(`Line 1, column 4: ${missing.message}`);
    expect(describeTemplateProblem(empty)).toBe(empty.message);
    expect(describeTemplateProblem({ ...markup, template_position: undefined })).toBe(markup.message);
  });
});
