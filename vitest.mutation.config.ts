import { defineConfig } from 'vitest/config';

/**
 * The tests mutation testing runs (npm run mutation): those that exercise the sources in-process. Tests that run
 * the built CLI, the Action bundle or the package as a subprocess cannot see a mutated source, so they are left
 * out, and so is the build-stamp check (a mutant is a source the build never saw).
 */
export default defineConfig({
  test: {
    include: [
      'test/json/**/*.test.ts',
      'test/jsf/**/*.test.ts',
      'test/author/**/*.test.ts',
      'test/compare/**/*.test.ts',
      'test/document/**/*.test.ts',
      'test/validate/**/*.test.ts',
      'test/format/**/*.test.ts',
      'test/formats/**/*.test.ts',
      'test/xml/reader.test.ts',
      'test/xml/twins.test.ts',
      'test/xml/write.test.ts',
      'test/xml/real-documents.test.ts',
      'test/xml/validate.test.ts',
      'test/xml/hostile.test.ts',
      'test/xml/signature.test.ts',
      'test/xml/xsd.test.ts',
      'test/xml/engine-thread.test.ts',
      'test/xml/model.test.ts',
      'test/xml/write-shapes.test.ts',
      'test/node/write.test.ts',
      'test/node/shard.test.ts',
      'test/node/paths.test.ts',
      'test/cli/edge-units.test.ts',
      'test/cli/options-builders.test.ts',
      'test/api.test.ts',
      'test/readme.test.ts',
    ],
    env: { BOMWRIGHT_TEST_SCALE: '0.1' },
    testTimeout: 60_000,
    maxWorkers: 1,
  },
});
