import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/fresh-build.ts'],
    // A timeout is there to catch a hang, not a slow or busy machine: one CI run spent over 20 s on seven
    // short CLI processes (each writes and fsyncs a file) while the kill loops ran beside it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CLI tests spawn processes; two cores are all CI has.
    maxWorkers: 2,
  },
});
