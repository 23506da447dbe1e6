import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SAMPLES } from '../helpers.js';

describe('the built package, imported the way a user would', () => {
  it('exposes the library API from "bomwright" (ESM) with types', () => {
    const script = `
      import { validate, sign, verify, init, bump, normalize, diff, parseKeyMaterial, RULES } from 'bomwright';
      import { readFileSync } from 'node:fs';
      import { generateKeyPairSync } from 'node:crypto';
      const doc = JSON.parse(readFileSync(${JSON.stringify(path.join(SAMPLES, 'valid-full-1.6.json'))}, 'utf8'));
      const result = await validate(JSON.stringify(doc));
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const [key] = parseKeyMaterial(privateKey.export({ type: 'pkcs8', format: 'pem' }), 'test key');
      const signed = sign(doc, { key, targets: ['root'] });
      const verified = verify(signed).reports.every((r) => r.verdict === 'valid');
      const created = init({ component: { name: 'x', version: '1' }, toolVersion: 'test' });
      const bumped = bump(created).document.version;
      const same = diff(doc, normalize(doc)).identical;
      console.log(JSON.stringify({ valid: result.valid, verified, bumped, same, rules: Object.keys(RULES).length > 20 }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ valid: true, verified: true, bumped: 2, same: true, rules: true });
  });

  it('exposes the emulator from "bomwright/emulator", for users\' own tests', () => {
    const script = `
      import { startEmulator } from 'bomwright/emulator';
      const emulator = await startEmulator({ port: 0 });
      const token = await emulator.token();
      const reply = await fetch(emulator.url + '/v1.0/me/authentication/phoneMethods', { headers: { Authorization: 'Bearer ' + token } });
      const body = await reply.json();
      await emulator.close();
      console.log(JSON.stringify({ status: reply.status, methods: body.value.length }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ status: 200, methods: 3 });
  });

  it('declares its entry points, types and bin', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.exports['./service']).toEqual({
      types: './dist/service/index.d.ts',
      default: './dist/service/index.js',
    });
    expect(pkg.exports['./emulator']).toEqual({
      types: './dist/emulator/index.d.ts',
      default: './dist/emulator/index.js',
    });
    expect(pkg.bin).toEqual({ bomwright: 'bin/bomwright.cjs' });
    expect(readFileSync(path.join(ROOT, 'dist/index.d.ts'), 'utf8')).toContain('validate');
  });
});

describe('the licence', () => {
  it('is the full Apache-2.0 text that package.json names', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('Apache-2.0');
    const text = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//);
    // All nine sections and the appendix: the full text, not a pointer to it.
    for (let section = 1; section <= 9; section++) expect(text).toMatch(new RegExp(`^\\s+${section}\\. [A-Z]`, 'm'));
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text).toContain('APPENDIX: How to apply the Apache License to your work.');
  });
});

describe('the published tarball', () => {
  it('carries the licence of every package bundled into it', () => {
    const notices = readFileSync(path.join(ROOT, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8');
    // The bundles' own imports (the CLI's parser, the client's HTTP stack, signing) and what the validators inline.
    for (const name of ['yargs', 'undici', 'jose', 'ajv', 'ajv-formats', '@cyclonedx/cyclonedx-library'])
      expect(notices).toMatch(new RegExp(`\\n${name.replace('/', '\\/')}@\\d[^\\n]* \\([^)]+\\)\\n\\n\\S`));
    // Loaded from node_modules at run time, so not carried and not listed.
    for (const name of ['fast-glob', 'packageurl-js', 'libxml2-wasm']) expect(notices).not.toContain(`\n${name}@`);
  });

  it('holds what runs and nothing else', () => {
    const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const [pack] = JSON.parse(run.stdout) as [{ files: { path: string }[]; size: number; unpackedSize: number }];
    const files = pack.files.map((f) => f.path);
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^SECURITY\.md$/,
      /^LICENSE$/,
      /^dist\/THIRD-PARTY-NOTICES\.txt$/,
      /^bin\/bomwright\.cjs$/,
      /^dist\/bundle\/(cli|fast|worker|xml-worker|emulator|service|libxml2)\.cjs$/,
      /^dist\/bundle\/help\.txt$/,
      /^dist\/runtime\/fast-args\.cjs$/,
      /^schema\/(emulator-seed|profile)\.schema\.json$/,
      /^profiles\/[\w.-]+\.json$/,
      /^dist\/runtime\/code-cache\.(cjs|js|d\.ts)$/,
      /^dist\/(?!build\/|cli\/|action\/)[\w/-]+\.(js|d\.ts)$/,
      /^generated\/validators\/[\w.-]+\.cjs$/,
      /^generated\/xml-mapping\.json$/,
    ];
    expect(files.filter((f) => !allowed.some((pattern) => pattern.test(f)))).toEqual([]);
    // What the library and the CLI need is there.
    for (const needed of [
      'LICENSE',
      'dist/THIRD-PARTY-NOTICES.txt',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/node/worker.js',
      'dist/bundle/cli.cjs',
      // The fast path of validate (src/cli/fast.ts), the recogniser of its command lines, and the built help.
      'dist/bundle/fast.cjs',
      'dist/runtime/fast-args.cjs',
      'dist/bundle/help.txt',
      'dist/bundle/worker.cjs',
      // The CLI's way to libxml2-wasm (CycloneDX XML), an ES module the vm-loaded bundles cannot import.
      'dist/bundle/libxml2.cjs',
      // The XML ↔ model mapping the build derives from the XSDs (src/build/xml-mapping.ts).
      'generated/xml-mapping.json',
      // libxml2's thread for a large XML document: from the CLI's bundles, and from the library.
      'dist/bundle/xml-worker.cjs',
      'dist/xml/engine-worker.js',
      'dist/bundle/emulator.cjs',
      'dist/emulator/index.js',
      'schema/emulator-seed.schema.json',
      // The built-in compliance profiles are data files, read at run time, and their format's schema.
      'schema/profile.schema.json',
      'profiles/ntia-2021.json',
      'profiles/cisa-2025.json',
      'profiles/cisa-2026.json',
      'profiles/bsi-2.0.json',
      'profiles/bsi-2.1.json',
      'profiles/cra.json',
    ])
      expect(files).toContain(needed);
    // Seven BOM formats, and the service's body shapes and resources (src/build/service-validators.ts).
    expect(files).toContain('generated/validators/service-shapes.cjs');
    expect(files.filter((f) => f.startsWith('generated/validators/'))).toHaveLength(8);
    // About 5.0 MB unpacked today: 2.9 MB for validation, signing and authoring (7.2 MB before build sources, caches
    // and unloaded code were left out), plus the emulator's and the service client's bundles (undici is most of
    // the latter), each loaded only by its own commands, and the rule pages (136 KB of text, twice: in the
    // library's dist/diagnostics and in the CLI bundle). About 5.65 MB with CycloneDX XML (about 40 kB: libxml2-wasm
    // and the XSDs are dependencies, not in the tarball), `bomwright merge`, the client's origin rule and the
    // emulator's OData and permission table. About 5.78 MB with XML signatures (about 70 kB of bomwright's own
    // code in the library and the CLI's bundles; xml-crypto and its DOM parser are dependencies, loaded on first
    // use). Compliance profiles add about 80 kB: the five profiles and their schema (data files), the evaluator, and
    // its share of the CLI bundle (issue 30); the licence notices of the bundled packages about 35 kB; 6.18 MB in all.
    // The fast path of validate (issue 33) adds its own bundle, about 0.42 MB: what validating needs, again, without
    // the command parser and the other commands, so that a validate run compiles only that; 6.6 MB in all. The
    // service's shapes and resources precompiled (165 kB) take ajv's compiler out of the CLI's and the service's
    // bundles (about 0.4 MB). The XML ↔ model mappings of the eight XML versions, derived from the XSDs at build
    // time, add 125 kB (generated/xml-mapping.json, members at their usual value left out). Version conversion
    // (issue 42: dist/author/convert*, its share of the CLI bundle, its README section) adds about 75 kB, 6.80 MB in
    // all; it reads the official JSON schemas where @cyclonedx/cyclonedx-library keeps them rather than shipping
    // copies (about 780 kB). The rest of that round (the one document reader and writer of both syntaxes, the XSD
    // content-model messages, the profiles' per-ecosystem versions and verdict digests, merge's provenance and input
    // signatures, the emulator's stubs and guards, the hook's entry) adds about 0.7 MB of code across the library and
    // the CLI, emulator and service bundles: 7.49 MB in all. The cap keeps about 2.5% of room, so a stray file still
    // fails here.
    expect(pack.unpackedSize).toBeLessThan(7_700_000);
  });
});
