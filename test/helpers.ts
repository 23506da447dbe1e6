import { execFileSync, spawn } from 'node:child_process';
import { afterAll, expect } from 'vitest';
import { BomwrightError, type ErrorCode } from '../src/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin/bomwright.cjs');
export const SAMPLES = path.join(ROOT, 'samples');

/**
 * `../shared` beside the project: the spec and the third-party vectors, read in place. A mutation-testing sandbox
 * (a sandbox folder under .stryker-tmp) is a copy of the project, so it looks beside the project it was copied from.
 */
export const SHARED = (() => {
  const marker = /[\\/]\.stryker-tmp[^\\/]*[\\/]/.exec(ROOT);
  const project = marker === null ? ROOT : ROOT.slice(0, marker.index);
  return path.join(project, '../shared');
})();

/** The third-party vectors in ../shared/conformance. */
export const CONFORMANCE = path.join(SHARED, 'conformance');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would: a separate process, optional stdin, its own working directory. */
export function runCli(
  args: string[],
  options: { cwd?: string; input?: string | Uint8Array; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

export function tempDir(prefix = 'bomwright-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A maker of temp folders that are all removed once the test file ends. Call it at a file's top level. */
export function tempDirs(prefix?: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDir(prefix);
    made.push(dir);
    return dir;
  };
}

/** A minimal valid document of the given version. */
export function minimalBom(specVersion = '1.6', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const cbom = specVersion.includes('-cbom-');
  return {
    bomFormat: cbom ? 'CBOM' : 'CycloneDX',
    specVersion,
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    ...extra,
  };
}

/** Runs `run`, expecting it to throw a BomwrightError with `code`; returns the error. */
export function expectErrorCode(run: () => unknown, code: ErrorCode): BomwrightError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(BomwrightError);
  expect((caught as BomwrightError).code).toBe(code);
  return caught as BomwrightError;
}

/** Runs git in `dir` with a fixed identity (tests make their own repositories). */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}
