import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation:service` runs against the service client and the emulator: the in-process ones (the
 * emulator started with startEmulator() on 127.0.0.1, the client calling it over real HTTP). Subprocess tests of
 * the built CLI cannot see a mutated source and are left out, as in vitest.mutation.config.ts.
 */
export default defineConfig({
  test: {
    // test/node/delta-link-file.test.ts is left out too: its second process runs dist/. The flows and the SDK
    // tests drive the client and the emulator in-process as well.
    include: [
      'test/emulator/**/*.test.ts',
      'test/service/**/*.test.ts',
      'test/flows/**/*.test.ts',
      'test/sdk/**/*.test.ts',
    ],
    // The slowest of these tests takes under 1 s (under 5 s instrumented). A mutant that makes the client wait forever (a retry delay
    // mutated) then fails its test here in 15 s, instead of reaching StrykerJS's own timeout, which restarts the
    // runner and has been seen to leave later mutants reported as surviving.
    testTimeout: 15_000,
    hookTimeout: 15_000,
    maxWorkers: 1,
  },
});
