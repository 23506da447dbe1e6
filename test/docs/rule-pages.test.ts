/**
 * The rule pages (docs/rules/<id>.md) and the rule registry stay in step: one page per rule, each with every
 * section, and examples that do what the page says, through the library and through the CLI, with the output the
 * page shows. A rule may be excused from the example check only with a reason listed here, and the reason is
 * checked too.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expectedRulePagesModule,
  OPTIONAL_SECTIONS,
  PAGE_SECTIONS,
  parseRulePage,
  readRulePages,
  RULE_PAGES_MODULE,
} from '../../src/build/rule-pages.js';
import { parseSize } from '../../src/cli/size.js';
import { loadTrustStore, RULE_IDS, RULES, validate, type RuleId, type ValidateOptions } from '../../src/index.js';
import { ROOT, runCli, tempDir } from '../helpers.js';

const pages = readRulePages(ROOT);

/** Rules whose failing example cannot be checked, each with the reason; every reason has a test below. */
const EXCUSED: Partial<Record<RuleId, string>> = {
  'schema/const': 'no precompiled validator can report a "const" failure (CycloneDX 1.7 uses const only in an if)',
};

interface ExampleFile {
  name: string;
  bytes: Uint8Array;
}

interface Example {
  files: ExampleFile[];
  /** The arguments after `bomwright`. */
  args: string[];
  /** What the page says the command prints. */
  output: string;
}

/** The bytes a ```json block stands for: its text, in the encoding its info string names, with `«X×N»` expanded. */
function blockBytes(text: string, attributes: ReadonlyMap<string, string | true>): Uint8Array {
  let content = attributes.has('expand')
    ? text.replace(/«(.+?)×(\d+)»/g, (_, unit: string, count: string) => unit.repeat(Number(count)))
    : text;
  if (content === '') return new Uint8Array();
  content += '\n';
  const encoding = attributes.get('encoding') ?? 'utf-8';
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(content, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(content, 'utf8')]);
    case 'utf-16le-bom':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(content, 'utf16le')]);
    case 'latin1':
      expect([...content].every((c) => c.charCodeAt(0) < 0x100)).toBe(true);
      return Buffer.from(content, 'latin1');
    default:
      throw new Error(`unknown encoding ${String(encoding)}`);
  }
}

/** The fenced blocks of a section: language, `key=value` attributes, text. */
function fencedBlocks(section: string): { language: string; attributes: Map<string, string | true>; text: string }[] {
  return [...section.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, language, info, text]) => ({
    language: language!,
    attributes: new Map(
      info!
        .trim()
        .split(/\s+/)
        .filter((word) => word !== '')
        .map((word): [string, string | true] => {
          const at = word.indexOf('=');
          return at === -1 ? [word, true] : [word.slice(0, at), word.slice(at + 1)];
        }),
    ),
    text: text!.replace(/\n$/, ''),
  }));
}

/** A section's example: its ```json and ```xml files (bom.json, bom.xml unless `file=` names another) and its ```console block. */
function exampleOf(section: string): Example | undefined {
  const blocks = fencedBlocks(section);
  const consoles = blocks.filter((b) => b.language === 'console');
  if (consoles.length === 0) return undefined;
  expect(consoles).toHaveLength(1);
  const [command, ...output] = consoles[0]!.text.split('\n');
  expect(command).toMatch(/^\$ bomwright validate /);
  const files = blocks
    .filter((b) => b.language === 'json' || b.language === 'xml')
    .map((b) => ({
      name: String(b.attributes.get('file') ?? `bom.${b.language}`),
      bytes: blockBytes(b.text, b.attributes),
    }));
  expect(new Set(files.map((f) => f.name)).size, 'one block per file').toBe(files.length);
  return { files, args: command!.slice(2).split(' ').slice(1), output: output.join('\n') + '\n' };
}

function sectionsOf(id: string): Map<string, string> {
  return new Map(parseRulePage(pages.get(id)!).sections.map((s) => [s.name, s.body]));
}

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function writeExample(example: Example): string {
  const dir = tempDir('bomwright-rule-page-');
  cleanup.push(dir);
  for (const file of example.files) writeFileSync(path.join(dir, file.name), file.bytes);
  return dir;
}

/** The command's options as library options: the page's command line is the one source of both runs. */
function libraryRun(example: Example, dir: string): { input: Uint8Array; options: ValidateOptions } {
  const [operand, ...rest] = example.args.slice(1);
  const options: ValidateOptions = {};
  const file = (name: string) => readFileSync(path.join(dir, name));
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i]!;
    const value = () => {
      const next = rest[++i];
      if (next === undefined) throw new Error(`${option} needs a value`);
      return next;
    };
    if (option === '--max-size') options.maxSize = parseSize(value());
    else if (option === '--signatures') options.signatures = value() as ValidateOptions['signatures'];
    else if (option === '--trust') options.trust = loadTrustStore([path.join(dir, value())], []);
    else if (option === '--require-trusted') options.requireTrusted = true;
    else if (option === '--allow-unverifiable') options.allowUnverifiable = true;
    else if (option === '--spec-version') options.specVersion = value();
    else if (option === '--baseline') {
      const name = value();
      options.baseline = { document: file(name), name };
    } else throw new Error(`the page uses ${option}, which this test does not map to the library: add it here`);
  }
  return { input: file(operand!), options };
}

describe('the rule pages', () => {
  it('are one per rule of the registry, and only for rules of the registry', () => {
    expect([...pages.keys()].sort()).toEqual([...RULE_IDS].sort());
    // Ids differing only in case would be one page on some file systems.
    expect(new Set(RULE_IDS.map((id) => id.toLowerCase())).size).toBe(RULE_IDS.length);
  });

  it('finds every page file, in every folder', () => {
    const files = readdirSync(path.join(ROOT, 'docs/rules'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.md'),
    );
    expect(files.length).toBe(pages.size + 1); // and the index
  });

  it.each(RULE_IDS)('%s follows the template', (id) => {
    const page = parseRulePage(pages.get(id)!);
    expect(page.title).toBe(id);
    expect(page.preamble).toMatch(new RegExp(`^Severity: \\*\\*${RULES[id].severity}\\*\\*( \\(.+\\))?$`));
    const names = page.sections.map((s) => s.name);
    const optional = names.slice(PAGE_SECTIONS.length);
    expect(names.slice(0, PAGE_SECTIONS.length)).toEqual([...PAGE_SECTIONS]);
    for (const name of optional) expect(OPTIONAL_SECTIONS as readonly string[]).toContain(name);
    expect(new Set(optional).size).toBe(optional.length);
    for (const section of page.sections) expect(section.body.length, `${id}: ## ${section.name}`).toBeGreaterThan(40);
    // The page also goes into SARIF and to terminals, far from docs/rules: its links must work anywhere.
    for (const [, target] of pages.get(id)!.matchAll(/\]\(([^)]*)\)/g)) expect(target).toMatch(/^https:\/\//);
  });

  it('reach the library, the CLI and the Action through a generated module that is up to date', () => {
    const committed = readFileSync(path.join(ROOT, RULE_PAGES_MODULE), 'utf8');
    if (committed !== expectedRulePagesModule(ROOT))
      throw new Error(`${RULE_PAGES_MODULE} is stale: run npm run build:rule-pages and commit the result`);
  });

  it('are listed in the index, docs/rules/README.md, with the registry severity and description', () => {
    const index = readFileSync(path.join(ROOT, 'docs/rules/README.md'), 'utf8');
    const rows = [...index.matchAll(/^\| \[`([^`]+)`\]\(([^)]+)\) \| (\w+) \| (.+) \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(RULE_IDS);
    for (const [, id, link, severity, description] of rows) {
      expect(link).toBe(`${id}.md`);
      expect(severity).toBe(RULES[id as RuleId].severity);
      expect(description!.replaceAll('\\|', '|')).toBe(RULES[id as RuleId].description);
    }
  });

  it('sign their examples with the example key the index publishes', () => {
    const index = readFileSync(path.join(ROOT, 'docs/rules/README.md'), 'utf8');
    const pem = /-----BEGIN PRIVATE KEY-----\n[\s\S]+?\n-----END PRIVATE KEY-----/.exec(index)![0];
    const { x } = createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' });
    const embedded = [...[...pages.values()].join('\n').matchAll(/"x": "([\w-]+)"/g)].map((m) => m[1]);
    expect(embedded.length).toBeGreaterThan(10);
    expect(new Set(embedded)).toEqual(new Set([x]));
    expect(index).toContain(`"x": "${x}"`);
  });
});

describe('the examples of the rule pages', () => {
  it('excuse a rule only for a reason that holds: no precompiled validator reports "const"', () => {
    expect(Object.keys(EXCUSED)).toEqual(['schema/const']);
    const dir = path.join(ROOT, 'generated/validators');
    // The BOM validators; service-shapes.cjs checks the service's bodies and resources, not documents.
    const validators = readdirSync(dir).filter((f) => f.endsWith('.cjs') && f !== 'service-shapes.cjs');
    expect(validators.length).toBeGreaterThanOrEqual(7);
    for (const file of validators) expect(readFileSync(path.join(dir, file), 'utf8')).not.toMatch(/keyword:"const"/);
    // The excused page does not pretend: its failing example has no command whose output a test would check.
    expect(exampleOf(sectionsOf('schema/const').get('Failing example')!)).toBeUndefined();
  });

  describe.each(RULE_IDS)('%s', (id) => {
    const sections = sectionsOf(id);

    it.concurrent.each(['Failing example', 'Passing example'] as const)('%s', async (name) => {
      const example = exampleOf(sections.get(name)!);
      if (example === undefined) {
        expect(name === 'Failing example' && EXCUSED[id] !== undefined, `${id}: ${name} has no console block`).toBe(
          true,
        );
        return;
      }
      const dir = writeExample(example);
      const { input, options } = libraryRun(example, dir);
      const result = await validate(input, options);
      const ids = result.diagnostics.map((d) => d.ruleId);
      if (name === 'Failing example') expect(ids, JSON.stringify(result.diagnostics)).toContain(id);
      else {
        expect(ids).not.toContain(id);
        expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
      }
      // What the page shows is what the CLI prints, byte for byte, and it names every finding the library makes.
      const run = await runCli(example.args, { cwd: dir });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(example.output);
      expect(run.code).toBe(result.errors > 0 ? 1 : 0);
      const printed = example.output.split('\n');
      for (const d of result.diagnostics)
        expect(
          printed.some((line) => line.includes(`  ${d.severity}  ${d.message}`) && line.endsWith(`  ${d.ruleId}`)),
          `${d.ruleId}: ${d.message}`,
        ).toBe(true);
    });
  });
});
