import { JSON_LIMITS, JSON_LIMIT_MESSAGES } from '@lumi/contract';

export interface JsonShapeLimits {
  maxDepth: number;
  maxObjectKeys: number;
  maxArrayItems: number;
}

/**
 * Whether a JSON text stays within `limits` (contract JSON_LIMITS): how deeply it nests arrays and
 * objects, and how many keys an object or items a list holds. Read without parsing and without recursion,
 * in one pass that stops at the first excess, so a hostile body is refused before it costs a parse, a
 * validation of 70,000 keys, or a stack. A member is counted by the commas of its container (valid JSON
 * has one fewer than members); the parser refuses whatever is not valid JSON afterwards.
 *
 * Answers the refusal's message, or null when the text is within the limits.
 */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits = JSON_LIMITS): string | null {
  // Per open container: 1 for an object, 0 for a list, and the commas met at its level.
  const isObject: number[] = [];
  const commas: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (isObject.length >= limits.maxDepth) return JSON_LIMIT_MESSAGES.depth;
      isObject.push(c === 0x7b ? 1 : 0);
      commas.push(0);
    } else if (c === 0x5d || c === 0x7d) {
      isObject.pop();
      commas.pop();
    } else if (c === 0x2c && commas.length > 0) {
      const top = commas.length - 1;
      const members = commas[top]! + 2;
      commas[top] = members - 1;
      if (isObject[top] === 1 ? members > limits.maxObjectKeys : members > limits.maxArrayItems) {
        return isObject[top] === 1 ? JSON_LIMIT_MESSAGES.objectKeys : JSON_LIMIT_MESSAGES.arrayItems;
      }
    }
  }
  return null;
}
