/**
 * Stand-in for node:assert inside the CLI bundle. yargs imports it only for two internal sanity checks, and
 * loading node:assert pulls in Node's colour and stderr set-up: ~5–10 ms of every run. Same behaviour for
 * those two calls: throw when the check fails.
 */
class AssertionError extends Error {
  override name = 'AssertionError';
}

export function strictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected))
    throw new AssertionError(message ?? `Expected ${String(actual)} to be ${String(expected)}`);
}

export function notStrictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (Object.is(actual, expected))
    throw new AssertionError(message ?? `Expected ${String(actual)} not to be ${String(expected)}`);
}

export default { strictEqual, notStrictEqual };
