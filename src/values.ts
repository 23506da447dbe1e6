/** Small helpers over JSON values and message text, shared by every layer. */

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An own member's value: never one inherited from the prototype (`constructor`, `__proto__`). */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `text` cut to at most `max` characters, marked with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/** Compact JSON (strings as they are) cut to `max` characters, for messages. */
export function display(value: unknown, max = 80): string | undefined {
  if (value === undefined) return undefined;
  return truncate(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), max);
}

/**
 * Sets an own data member. Plain assignment of `__proto__` would replace the prototype instead; JSON.parse
 * makes it an ordinary member, so copies must too.
 */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
