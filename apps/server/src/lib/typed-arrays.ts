type NumberArray = Float64Array | Int32Array | Uint8Array;

/**
 * A copy of `array` with at least `length` places, and never fewer than twice its own (so that growing one
 * place at a time copies each value a bounded number of times); the new places hold `fill`.
 */
export function grown<T extends NumberArray>(array: T, length = array.length * 2, fill = 0): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(length, array.length * 2));
  if (fill !== 0) bigger.fill(fill, array.length);
  bigger.set(array);
  return bigger;
}
