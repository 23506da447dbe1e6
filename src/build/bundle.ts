/**
 * Start-up is most of a small validation's cost, and resolving, compiling and linking ~100 modules is most of
 * start-up. So the CLI ships as one CommonJS bundle and each precompiled validator as one bundle with its
 * run-time helpers inlined; both are loaded with a V8 code cache (src/runtime/code-cache.ts).
 * Build output only: nothing bundled is committed.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { stampBundle } from '../runtime/code-cache.js';
import { thirdPartyNotices } from './notices.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceDir = path.join(root, 'generated/validators-src');
const outDir = path.join(root, 'generated/validators');

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // The sources are ESM and use import.meta.url; in a CommonJS bundle it becomes the bundle's own URL.
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__bundleUrl' },
};

/**
 * yargs' text-width helper (string-width, three copies) builds an Intl.Segmenter and Unicode property
 * regular expressions (RGI_Emoji...) when loaded: ~20 ms of ICU work, a fifth of a CLI run, although only help
 * output measures text. Defer each copy's module body to its first call.
 */
const lazyStringWidth: Plugin = {
  name: 'lazy-string-width',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const lines = source.split('\n');
      const imports = lines.filter((line) => line.startsWith('import '));
      const body = lines.filter((line) => !line.startsWith('import ')).join('\n');
      const entry = 'export default function stringWidth(';
      if (!body.includes(entry) || /^export /m.test(body.replace(entry, ''))) {
        return {
          contents: source,
          warnings: [{ text: `lazy-string-width: unexpected shape of ${args.path}; start-up will be slower` }],
        };
      }
      const contents = [
        ...imports,
        'let loaded;',
        `function load() {\n${body.replace(entry, 'function stringWidth(')}\nreturn stringWidth;\n}`,
        'export default function lazyStringWidth(...args) { return (loaded ??= load())(...args); }',
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The service client uses undici's Agent and its request API only. undici's index also loads fetch, WebSocket,
 * cookies, the cache and the mocks (~20 ms of a `bomwright service` run, most of it Node's own lazy globals), so
 * the bundles take the Agent, the Dispatcher and the API from undici's modules and put the API on the Dispatcher,
 * as the index does. The paths are undici's files: if an upgrade moves one, the build fails here, loudly.
 * Library users import the ESM build, with all of undici.
 */
const undiciCore: Plugin = {
  name: 'undici-core',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-core' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-core' }, () => ({
      contents: [
        "const Agent = require('undici/lib/dispatcher/agent.js');",
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');",
        "Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));",
        'module.exports = { Agent, Dispatcher };',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * Node's own modules cost start-up too: node:child_process alone loads net, dgram and streams, and worker_threads,
 * crypto and os each load more of Node's internals. The fast path (src/cli/fast.ts) needs them only for some
 * documents (git for a version rule, workers for many files, crypto for signatures), so in its bundle each is a
 * proxy that requires the module on first use. The bundled sources import them by name
 * (`import { createHash } from 'node:crypto'`), which esbuild turns into `x = require("node:crypto")` and property
 * reads at each call, so the proxy sees every use. A default or namespace import would be wrapped in __toESM, which
 * copies the properties at load: the build refuses that shape rather than load the module eagerly unnoticed.
 */
const LAZY_BUILTINS = ['node:child_process', 'node:crypto', 'node:os', 'node:worker_threads'];
const LAZY_HELPER =
  'const __lazyBuiltin = (id) => { let loaded; return new Proxy({}, { get: (_, key) => (loaded ??= require(id))[key] }); };';

function lazyBuiltins(file: string): void {
  let text = readFileSync(file, 'utf8');
  for (const id of LAZY_BUILTINS) {
    const plain = `=require(${JSON.stringify(id)})`;
    if (text.includes(`__toESM(require(${JSON.stringify(id)})`))
      throw new Error(`${file}: ${id} is imported whole (default or namespace import); import it by name`);
    text = text.replaceAll(plain, `=__lazyBuiltin(${JSON.stringify(id)})`);
  }
  writeFileSync(file, `${LAZY_HELPER}\n${text}`);
}

/**
 * The CLI's bundles. `cli` is what every command loads; a command with heavy dependencies of its own (the
 * service client with undici, the emulator) gets a row here and loads its bundle with requireBundle() only when
 * it runs, so `validate` never pays for it (test/build/bundles.test.ts checks what a validate run loads).
 */
const CLI_BUNDLES: readonly { name: string; entry: string }[] = [
  { name: 'cli', entry: 'src/cli/main.ts' },
  // `validate FILE…` with the common options (src/cli/fast.ts): no command parser, no other command's modules.
  { name: 'fast', entry: 'src/cli/fast.ts' },
  // The worker threads of the validation pool (src/node/pool.ts finds it through __BOMWRIGHT_WORKER_ENTRY__).
  { name: 'worker', entry: 'src/node/worker.ts' },
  // The XML engine's worker thread for large documents (src/xml/engine-thread.ts finds it by its define).
  { name: 'xml-worker', entry: 'src/xml/engine-worker.ts' },
  // bomwright emulator (src/cli/commands/emulator.ts loads it when the command runs).
  { name: 'emulator', entry: 'src/emulator/index.ts' },
  // bomwright service (src/cli/commands/service.ts loads it when the command runs): the client with undici.
  { name: 'service', entry: 'src/service/index.ts' },
];

const cliOptions: BuildOptions = {
  ...common,
  plugins: [lazyStringWidth, undiciCore],
  alias: { assert: path.join(root, 'dist/build/shims/assert.js') },
  define: {
    ...common.define,
    __BOMWRIGHT_WORKER_ENTRY__: JSON.stringify('./worker.cjs'),
    __BOMWRIGHT_LIBXML2_LOADER__: JSON.stringify('./libxml2.cjs'),
    __BOMWRIGHT_XML_WORKER_ENTRY__: JSON.stringify('./xml-worker.cjs'),
  },
  outdir: path.join(root, 'dist/bundle'),
  outExtension: { '.js': '.cjs' },
  // Loaded on first use, and CommonJS already: Node's own require takes them from node_modules.
  external: ['fast-glob', 'packageurl-js', '@peculiar/x509', 'libxml2-wasm'],
  minifySyntax: true,
  minifyWhitespace: true,
};
const cli = await build({
  ...cliOptions,
  metafile: true,
  entryPoints: Object.fromEntries(
    CLI_BUNDLES.filter((b) => b.name !== 'fast').map((b) => [b.name, path.join(root, b.entry)]),
  ),
});
// The fast path on its own, with Node's heavier modules loaded on first use (lazyBuiltins). It bundles only
// bomwright's sources, whose imports of those modules are all by name (a bundled package could use them otherwise).
const fastBundle = CLI_BUNDLES.find((b) => b.name === 'fast')!;
const fast = await build({
  ...cliOptions,
  metafile: true,
  entryPoints: { [fastBundle.name]: path.join(root, fastBundle.entry) },
});
lazyBuiltins(path.join(root, 'dist/bundle', `${fastBundle.name}.cjs`));
const fastPackages = Object.keys(fast.metafile.inputs).filter((input) => input.includes('node_modules/'));
if (fastPackages.length > 0) throw new Error(`the fast path's bundle carries packages: ${fastPackages.join(', ')}`);

// Code run through vm.Script (the bundles, for their code cache) cannot import(): libxml2-wasm, an ES module with
// top-level await, is imported by this file, which Node's own require loads (src/xml/engine.ts).
writeFileSync(
  path.join(root, 'dist/bundle/libxml2.cjs'),
  // The binding and its lower layer, from which engine.ts validates (the same instance: one module graph).
  "'use strict';\nmodule.exports = () => Promise.all([import('libxml2-wasm'), import('libxml2-wasm/lib/libxml2.mjs')]);\n",
);

// The bin entry is CommonJS (faster to start than an ES module entry) and needs the loader, and the recogniser of
// the fast path's command lines, in that form.
for (const [entry, out] of [
  ['src/runtime/code-cache.ts', 'dist/runtime/code-cache.cjs'],
  ['src/cli/fast-args.ts', 'dist/runtime/fast-args.cjs'],
]) {
  await build({
    ...common,
    bundle: false,
    banner: {},
    define: {},
    entryPoints: [path.join(root, entry!)],
    outfile: path.join(root, out!),
  });
}

mkdirSync(outDir, { recursive: true });
// What the validators carry from node_modules (ajv's run-time helpers), plus the CycloneDX schemas compiled into
// them: the licence notices of the package and of the Action bundle list these (src/build/notices.ts).
const carried = new Set<string>(['node_modules/@cyclonedx/cyclonedx-library/package.json']);
for (const file of readdirSync(sourceDir).filter((f) => f.endsWith('.js'))) {
  const result = await build({
    ...common,
    entryPoints: [path.join(sourceDir, file)],
    outfile: path.join(outDir, file.replace(/\.js$/, '.cjs')),
    minify: true,
    metafile: true,
  });
  for (const input of Object.keys(result.metafile.inputs)) if (input.includes('node_modules/')) carried.add(input);
}
// Each bundle loaded through requireBundle ends with the digest its code cache is found by (code-cache.ts).
for (const dir of [path.join(root, 'dist/bundle'), outDir]) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cjs'))) {
    const bundle = path.join(dir, file);
    writeFileSync(bundle, stampBundle(readFileSync(bundle, 'utf8')));
  }
}
writeFileSync(path.join(outDir, 'carried.json'), JSON.stringify([...carried].sort(), null, 2) + '\n');
// The package redistributes what these bundles carry (yargs, undici, jose, ajv's helpers, the CycloneDX schemas…):
// their licences ship beside them.
writeFileSync(
  path.join(root, 'dist/THIRD-PARTY-NOTICES.txt'),
  thirdPartyNotices('dist/bundle/*.cjs and generated/validators/*.cjs (the bomwright npm package)', 'npm run build', [
    ...Object.keys(cli.metafile.inputs),
    ...carried,
  ]),
);
