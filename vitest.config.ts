import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/fresh-build.ts'],
    testTimeout: 20_000,
    // CLI tests spawn processes; two cores are all CI has.
    maxWorkers: 2,
  },
});
