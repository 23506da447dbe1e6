/**
 * Start-up is most of a small validation's cost, and resolving, compiling and linking ~100 modules is most of
 * start-up. So the CLI ships as one CommonJS bundle and each precompiled validator as one bundle with its
 * run-time helpers inlined; both are loaded with a V8 code cache (src/runtime/code-cache.ts).
 * Build output only: nothing bundled is committed.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

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
 * yargs' width helpers (string-width, three copies) create an Intl.Segmenter when loaded; the first one costs
 * ~18 ms of ICU set-up, a fifth of a CLI run, although only help output measures text. Create it on first use.
 */
const lazySegmenter: Plugin = {
  name: 'lazy-segmenter',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = 'const segmenter = new Intl.Segmenter();';
      if (!source.includes(eager)) {
        return {
          contents: source,
          warnings: [{ text: `lazy-segmenter: pattern not found in ${args.path}; start-up will be slower` }],
        };
      }
      const lazy =
        'let lazySegmenter; const segmenter = { segment: (text) => (lazySegmenter ??= new Intl.Segmenter()).segment(text) };';
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

await build({
  ...common,
  plugins: [lazySegmenter],
  alias: { assert: path.join(root, 'dist/build/shims/assert.js') },
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile: path.join(root, 'dist/bundle/cli.cjs'),
  // Loaded on demand for globs and directories, and CommonJS already: Node's own require handles it.
  external: ['fast-glob'],
  minifySyntax: true,
  minifyWhitespace: true,
});

mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(sourceDir).filter((f) => f.endsWith('.js'))) {
  await build({
    ...common,
    entryPoints: [path.join(sourceDir, file)],
    outfile: path.join(outDir, file.replace(/\.js$/, '.cjs')),
    minify: true,
  });
}
