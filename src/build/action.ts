/**
 * Builds the GitHub Action's committed bundle, action/dist/index.cjs: one self-contained CommonJS file (the
 * engine, the seven precompiled validators, fast-glob), so the action starts in a fraction of a second
 * without installing anything. Deterministic: the same sources give the same bytes, which the freshness test
 * (test/action/bundle.test.ts) checks by building again and comparing.
 *
 *   node dist/build/action.js [OUT_FILE]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { SPEC_FORMATS } from '../formats/formats.js';
import { BUILTIN_PROFILE_NAMES } from '../node/builtin-profiles.js';
import { unstampBundle } from '../runtime/code-cache.js';
import { SCHEMA_FILES } from '../xml/engine.js';
import { thirdPartyNotices } from './notices.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ACTION_BUNDLE = path.join(root, 'action/dist/index.cjs');

/** Seams that load code from beside the package at run time become modules that carry it inside. */
/**
 * libxml2-wasm as one ES module (it has top-level await, which a CommonJS bundle cannot hold), to be carried as
 * text and imported from a data: URL: its module and its lower layer (src/xml/engine.ts validates through both),
 * with `import.meta.url` a file URL (its loader makes a require from it, which a data: URL cannot give).
 */
async function libxml2Module(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    absWorkingDir: root,
    stdin: {
      contents: "export * as lib from 'libxml2-wasm';\nexport * as raw from 'libxml2-wasm/lib/libxml2.mjs';\n",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    metafile: true,
    define: { 'import.meta.url': JSON.stringify('file:///bomwright-action/libxml2-wasm.mjs') },
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

/**
 * The XML engine's assets (src/xml/engine-assets.ts) carried inside: libxml2-wasm and the schema files, gzipped
 * and in base64 (2.4 MB of text would otherwise add 4 MB to the bundle, its WebAssembly image escaped byte by byte).
 */
function engineAssets(libxml2: string): string {
  const dir = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
    'res/schema',
  );
  const packed = (text: string | Buffer) => gzipSync(text, { level: 9 }).toString('base64');
  const schemas = Object.fromEntries(SCHEMA_FILES.map((f) => [f, packed(readFileSync(path.join(dir, f)))]));
  return [
    "import { gunzipSync } from 'node:zlib';",
    `const LIBXML2 = ${JSON.stringify(packed(libxml2))};`,
    `const SCHEMAS = ${JSON.stringify(schemas)};`,
    'let imported;',
    'export function importLibxml2() {',
    "  imported ??= import('data:text/javascript;base64,' + gunzipSync(Buffer.from(LIBXML2, 'base64')).toString('base64'))",
    '    .then((m) => [m.lib, m.raw]);',
    '  return imported;',
    '}',
    'export function schemaFile(file) {',
    '  if (!Object.hasOwn(SCHEMAS, file)) throw new Error(`no schema ${file} in the bundle`);',
    "  return gunzipSync(Buffer.from(SCHEMAS[file], 'base64'));",
    '}',
  ].join('\n');
}

const selfContained = (libxml2: string): Plugin => ({
  name: 'self-contained',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]engine-assets\.js$/ }, () => ({
      path: 'engine-assets',
      namespace: 'bomwright-action',
    }));
    pluginBuild.onLoad({ filter: /^engine-assets$/, namespace: 'bomwright-action' }, () => ({
      contents: engineAssets(libxml2),
      loader: 'js',
      resolveDir: root,
    }));
    pluginBuild.onResolve({ filter: /[\\/]validator-modules\.js$/ }, () => ({
      path: 'validator-modules',
      namespace: 'bomwright-action',
    }));
    pluginBuild.onResolve({ filter: /[\\/]fast-glob\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node${path.sep}`)
        ? { path: 'fast-glob', namespace: 'bomwright-action' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /^validator-modules$/, namespace: 'bomwright-action' }, () => ({
      // Each validator's code as a string, compiled the first time a document of its format turns up: a string is
      // cheap to load, while 2 MB of functions would be parsed at every start, for formats a run never meets.
      contents: [
        "import { Script } from 'node:vm';",
        `const SOURCES = {${SPEC_FORMATS.map(
          (f) =>
            `${JSON.stringify(f.id)}: ${JSON.stringify(unstampBundle(readFileSync(path.join(root, 'generated/validators', `${f.id}.cjs`), 'utf8')))}`,
        ).join(',')}};`,
        'const loaded = new Map();',
        'export function loadValidatorModule(id) {',
        '  let exports = loaded.get(id);',
        '  if (exports !== undefined) return exports;',
        '  const source = SOURCES[id];',
        '  if (source === undefined) throw new Error(`no validator ${id}`);',
        '  const module = { exports: {} };',
        '  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\\n})`, { filename: `validators/${id}.cjs` });',
        '  wrapper.runInThisContext()(module.exports, require, module, __filename, __dirname);',
        '  loaded.set(id, module.exports);',
        '  return module.exports;',
        '}',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
    // The built-in profiles, carried as text, and the libraries profiles load on first use, bundled.
    pluginBuild.onResolve({ filter: /[\\/]builtin-profiles\.js$/ }, () => ({
      path: 'builtin-profiles',
      namespace: 'bomwright-action',
    }));
    // Imported as './libraries.js' from src/validate/profiles/: matched by the importer's folder, not the path.
    pluginBuild.onResolve({ filter: /^\.\/libraries\.js$/ }, (args) =>
      path.dirname(args.importer) === path.join(root, 'src/validate/profiles')
        ? { path: 'profile-libraries', namespace: 'bomwright-action' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /^builtin-profiles$/, namespace: 'bomwright-action' }, () => {
      const names = BUILTIN_PROFILE_NAMES;
      return {
        contents: [
          `const TEXTS = {${names.map((n) => `${JSON.stringify(n)}: ${JSON.stringify(readFileSync(path.join(root, 'profiles', `${n}.json`), 'utf8'))}`).join(',')}};`,
          `export const BUILTIN_PROFILE_NAMES = ${JSON.stringify(names)};`,
          'export function readBuiltinProfile(name) { return Object.hasOwn(TEXTS, name) ? TEXTS[name] : undefined; }',
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      };
    });
    pluginBuild.onLoad({ filter: /^profile-libraries$/, namespace: 'bomwright-action' }, () => ({
      contents: [
        "import spdx from 'spdx-expression-parse';",
        "import { PackageURL } from 'packageurl-js';",
        "import semver from 'semver';",
        "import { RE2JS } from 're2js';",
        "import { makeProfileLibraries } from './src/validate/profiles/library-api.ts';",
        'let loaded;',
        'export function profileLibraries() {',
        '  return (loaded ??= makeProfileLibraries({ spdx: () => spdx, PackageURL: () => PackageURL, semver: () => semver, RE2JS: () => RE2JS }));',
        '}',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
    // The XML mappings the build derived from the XSDs, carried as text.
    pluginBuild.onResolve({ filter: /[\\/]mapping-data\.js$/ }, () => ({
      path: 'xml-mapping-data',
      namespace: 'bomwright-action',
    }));
    pluginBuild.onLoad({ filter: /^xml-mapping-data$/, namespace: 'bomwright-action' }, () => ({
      contents: `const TEXT = ${JSON.stringify(readFileSync(path.join(root, 'generated/xml-mapping.json'), 'utf8'))};\nexport function readXmlMappings() { return TEXT; }`,
      loader: 'js',
      resolveDir: root,
    }));
    pluginBuild.onLoad({ filter: /^fast-glob$/, namespace: 'bomwright-action' }, () => ({
      contents: "export function loadFastGlob() { return require('fast-glob'); }",
      loader: 'js',
      resolveDir: root,
    }));
  },
});

export async function buildAction(outfile: string): Promise<void> {
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  mkdirSync(path.dirname(outfile), { recursive: true });
  const libxml2 = await libxml2Module();
  const result = await build({
    absWorkingDir: root,
    metafile: true,
    entryPoints: [path.join(root, 'src/action/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // libxml2-wasm (an ES module with top-level await and a 1 MB WebAssembly image) is carried as text, imported
    // from a data: URL when the first XML document turns up.
    plugins: [selfContained(libxml2.code)],
    banner: {
      js: '// bomwright GitHub Action: generated by npm run build:action from src/action/main.ts; do not edit.\nconst __bundleUrl = require("node:url").pathToFileURL(__filename).href;',
    },
    define: {
      'import.meta.url': '__bundleUrl',
      // The bundle is its own worker entry, for the pool (see src/node/pool.ts) and the XML engine's thread.
      __BOMWRIGHT_WORKER_ENTRY__: JSON.stringify(`./${path.basename(outfile)}`),
      __BOMWRIGHT_XML_WORKER_ENTRY__: JSON.stringify(`./${path.basename(outfile)}`),
      __BOMWRIGHT_VERSION__: JSON.stringify(version),
    },
  });
  // A committed bundle redistributes its dependencies, those inside the precompiled validators included (ajv's
  // run-time helpers, the CycloneDX schemas): their licences go beside it.
  const validators = JSON.parse(readFileSync(path.join(root, 'generated/validators/carried.json'), 'utf8')) as string[];
  writeFileSync(
    path.join(path.dirname(outfile), 'THIRD-PARTY-NOTICES.txt'),
    thirdPartyNotices('index.cjs (the bomwright GitHub Action bundle)', 'npm run build:action', [
      ...Object.keys(result.metafile.inputs),
      ...libxml2.inputs,
      ...validators,
    ]),
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await buildAction(process.argv[2] === undefined ? ACTION_BUNDLE : path.resolve(process.argv[2]));
}
