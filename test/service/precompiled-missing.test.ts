/** The precompiled service validators load once per process; a build without them is a named error, not a crash. */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../src/runtime/code-cache.js');
  vi.resetModules();
});

async function shapeCheckWith(requireBundle: (file: string) => unknown) {
  vi.resetModules();
  vi.doMock('../../src/runtime/code-cache.js', () => ({ requireBundle }));
  return import('../../src/service/shape-check.js');
}

describe('loading the precompiled service validators', () => {
  it('loads the module once, whatever is checked after', async () => {
    const requireBundle = vi.fn((file: string) => {
      expect(file.replaceAll('\\', '/')).toMatch(/\/generated\/validators\/service-shapes\.cjs$/);
      return { shapes: { a: () => true }, resources: { phoneAuthenticationMethod: () => true } };
    });
    const { shapeProblem, resourceProblem } = await shapeCheckWith(requireBundle);
    expect(shapeProblem('a', {})).toBeUndefined();
    expect(shapeProblem('a', {})).toBeUndefined();
    expect(resourceProblem('phoneAuthenticationMethod', {})).toBeUndefined();
    expect(requireBundle).toHaveBeenCalledTimes(1);
  });

  it('a missing module is E_SCHEMA_MISSING with the first line of the reason', async () => {
    const { shapeProblem, resourceProblem } = await shapeCheckWith(() => {
      throw new Error("Cannot find module 'service-shapes.cjs'\nRequire stack:\n- x");
    });
    const expected = {
      code: 'E_SCHEMA_MISSING',
      message: `The precompiled service validators cannot be loaded; run "npm run build" (Cannot find module 'service-shapes.cjs')`,
    };
    expect(() => shapeProblem('messageMove', {})).toThrow(expect.objectContaining(expected));
    expect(() => resourceProblem('phoneAuthenticationMethod', {})).toThrow(expect.objectContaining(expected));
  });

  it('a reason that is not an Error is shown as text', async () => {
    const { shapeProblem } = await shapeCheckWith(() => {
      throw 'no file';
    });
    expect(() => shapeProblem('messageMove', {})).toThrow(
      'The precompiled service validators cannot be loaded; run "npm run build" (no file)',
    );
  });
});
