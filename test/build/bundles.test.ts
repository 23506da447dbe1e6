import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, SAMPLES, tempDir } from '../helpers.js';

describe('what a validate run loads', () => {
  it('is the fast path’s bundle and the one validator the document needs, and no module outside them', () => {
    const dir = tempDir();
    // Records every script compiled through vm.Script (bundles) and every module required from disk.
    const preload = path.join(dir, 'trace.cjs');
    writeFileSync(
      preload,
      `
      const vm = require('node:vm');
      const Module = require('node:module');
      const seen = [];
      const Script = vm.Script;
      vm.Script = class extends Script { constructor(source, options) { super(source, options); seen.push('bundle ' + options.filename); } };
      const load = Module._load;
      Module._load = function (request, parent, isMain) {
        if (!request.startsWith('node:') && !Module.isBuiltin(request) && !isMain) seen.push('module ' + request);
        return load.apply(this, arguments);
      };
      process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(path.join(dir, 'seen.json'))}, JSON.stringify(seen)));
      `,
    );
    const run = spawnSync(
      process.execPath,
      ['--require', preload, BIN, 'validate', path.join(SAMPLES, 'valid-full-1.6.json')],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(0);
    const seen = (JSON.parse(readFileSync(path.join(dir, 'seen.json'), 'utf8')) as string[]).map((s) =>
      s.replace(ROOT + path.sep, ''),
    );
    // The recogniser of the fast path's command lines, the loader, the fast path (src/cli/fast.ts), not the CLI.
    expect(seen).toEqual([
      'module ../dist/runtime/fast-args.cjs',
      'module ../dist/runtime/code-cache.cjs',
      'bundle dist/bundle/fast.cjs',
      'bundle generated/validators/cyclonedx-1.6.cjs',
    ]);
  });
});

describe('what a service run loads', () => {
  it('is undici’s Agent and request API, not its index (fetch, WebSocket, cookies, caches, mocks)', () => {
    const bundle = readFileSync(path.join(ROOT, 'dist/bundle/service.cjs'), 'utf8');
    expect(bundle.includes('llhttp')).toBe(true);
    for (const unused of ['MockAgent', 'getGlobalDispatcher', 'RetryAgent', 'parseSetCookie', 'MemoryCacheStore'])
      expect(bundle.includes(unused), unused).toBe(false);
  });
});
