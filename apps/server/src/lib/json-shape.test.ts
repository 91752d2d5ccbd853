import { JSON_LIMIT_MESSAGES, JSON_LIMITS } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './json-shape.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const limits = (maxDepth: number, maxObjectKeys = 100, maxArrayItems = 100) => ({
  maxDepth,
  maxObjectKeys,
  maxArrayItems,
});
const keys = (n: number) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
const items = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i));

describe('jsonShapeProblem', () => {
  it.each([
    ['{}', 1, null],
    ['{"a":{"b":[1,2,{"c":3}]}}', 4, null],
    ['{"a":{"b":[1,2,{"c":3}]}}', 3, JSON_LIMIT_MESSAGES.depth],
    [nested(64), 64, null],
    [nested(65), 64, JSON_LIMIT_MESSAGES.depth],
    [nested(100_000), 64, JSON_LIMIT_MESSAGES.depth],
  ])('%#: depth limit %i', (text, depth, expected) => {
    expect(jsonShapeProblem(text, limits(depth))).toBe(expected);
  });

  it('counts the keys of each object and the items of each list on their own level', () => {
    const shape = limits(8, 3, 4);
    expect(jsonShapeProblem('{"a":1,"b":2,"c":3}', shape)).toBeNull();
    expect(jsonShapeProblem('{"a":1,"b":2,"c":3,"d":4}', shape)).toBe(JSON_LIMIT_MESSAGES.objectKeys);
    expect(jsonShapeProblem('[1,2,3,4]', shape)).toBeNull();
    expect(jsonShapeProblem('[1,2,3,4,5]', shape)).toBe(JSON_LIMIT_MESSAGES.arrayItems);
    // Members of nested containers count toward their own container, not the outer one.
    expect(jsonShapeProblem('{"a":[1,2,3,4],"b":{"x":1,"y":2,"z":3},"c":[{"p":1,"q":2}]}', shape)).toBeNull();
    expect(jsonShapeProblem('[[1,2],[3,4],[5,6],[7,8]]', shape)).toBeNull();
    expect(jsonShapeProblem('[{"a":1},{"b":2},[],[],{}]', shape)).toBe(JSON_LIMIT_MESSAGES.arrayItems);
  });

  it('uses the contract limits by default', () => {
    expect(jsonShapeProblem(keys(JSON_LIMITS.maxObjectKeys))).toBeNull();
    expect(jsonShapeProblem(keys(JSON_LIMITS.maxObjectKeys + 1))).toBe(JSON_LIMIT_MESSAGES.objectKeys);
    expect(jsonShapeProblem(items(JSON_LIMITS.maxArrayItems))).toBeNull();
    expect(jsonShapeProblem(items(JSON_LIMITS.maxArrayItems + 1))).toBe(JSON_LIMIT_MESSAGES.arrayItems);
  });

  it('ignores brackets and commas inside strings, escaped quotes included', () => {
    const shape = limits(1, 2, 2);
    expect(jsonShapeProblem(JSON.stringify({ s: '[[[[{{{{,,,,' }), shape)).toBeNull();
    expect(jsonShapeProblem(JSON.stringify({ s: 'say \\"[[,[[\\"', t: '"{{,{' }), shape)).toBeNull();
    expect(jsonShapeProblem('{"s":"\\\\","t":[[]]}', limits(2))).toBe(JSON_LIMIT_MESSAGES.depth);
  });
});
