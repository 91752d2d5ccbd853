import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './csv.js';

describe('csvField', () => {
  it.each([
    [null, ''],
    ['', ''],
    [42, '42'],
    [-7, '-7'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rlf\r\n', '"cr\rlf\r\n"'],
    ['Ünïcødé 🎉 日本語', 'Ünïcødé 🎉 日本語'],
    // Formulas (OWASP CSV Injection): prefixed with a single quote, then quoted as any other text.
    ['=1+2', "'=1+2"],
    ['+SUM(A1:A2)', "'+SUM(A1:A2)"],
    ['-2+3+cmd', "'-2+3+cmd"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['=1,2', `"'=1,2"`],
    // Plain numbers are not formulas.
    ['-100123', '-100123'],
    ['+5', '+5'],
    ['-1.5', '-1.5'],
    ['-1.5e3', "'-1.5e3"],
    // Only the first character counts.
    ['a=1', 'a=1'],
    [' =1', ' =1'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('csvRecord', () => {
  it('joins fields with commas and ends with CRLF', () => {
    expect(csvRecord(['id', 1, null, 'a,b'])).toBe('id,1,,"a,b"\r\n');
  });
});
