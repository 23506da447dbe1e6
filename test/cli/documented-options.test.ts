/**
 * Every option the CLI documents is one its parser accepts: each option of each command's --help (and, for a
 * boolean, its --no- form), and each option the README and docs/ name, in the section of the command it documents.
 * Help texts are rendered in-process from the command list (and checked against the built CLI's for a few
 * commands); each option is then parsed by the real main() and command list, with a probe that stops once yargs
 * has validated the arguments, before any handler runs.
 */
import { describe, expect, it } from 'vitest';
import yargs from 'yargs/yargs';
import type { CliCommand, CliContext } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { kebab } from '../../src/cli/commands/service.js';
import { main } from '../../src/cli/main.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { docPages } from '../docs.js';
import { ROOT, runCli, tempDirs } from '../helpers.js';

const newDir = tempDirs();

interface OptionHelp {
  names: string[];
  type: 'boolean' | 'string' | 'number' | 'array' | 'count' | 'choices';
  choices: string[];
  required: boolean;
}

interface CommandHelp {
  path: string[];
  /** Operands for the required positionals (a valid choice where there are choices). */
  operands: string[];
  options: OptionHelp[];
}

/** Values that pass the options' own checks where any string would not. */
const SAMPLE: Record<string, string> = {
  shard: '1/2',
  'max-size': '1MiB',
  'max-warnings': '0',
  jobs: '1',
  hash: 'SHA-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  property: 'name=value',
  map: 'Name=name',
  'crypto-properties': '{}',
  latency: '5',
  throttle: '0.5',
  'retry-after': '1',
  'rate-limit': '10/60',
  'clone-polls': '1',
  port: '0',
  'dependency-type': 'implements',
  concurrency: '2',
  'base-url': 'http://127.0.0.1:1',
  url: 'http://127.0.0.1:1',
  link: 'https://example.com/bom.json',
  type: 'library',
  'spec-version': '1.6',
};

function tag(text: string, name: string): string | undefined {
  return new RegExp(`\\[${name}(?::([^\\]]*))?\\]`).exec(text)?.[1] ?? (text.includes(`[${name}]`) ? '' : undefined);
}

/** The options and operands a --help text lists. */
function parseHelp(pathParts: string[], text: string): CommandHelp {
  const lines = text.split('\n');
  const usage = lines[0]!
    .replace(/^bomwright\s*/, '')
    .split(/\s+/)
    .slice(pathParts.length);
  const positionalChoices = new Map<string, string[]>();
  const options: OptionHelp[] = [];
  let current: { names: string[]; text: string } | undefined;
  let positional: { name: string; text: string } | undefined;
  let section = '';
  const flush = () => {
    if (current !== undefined) {
      const choices = tag(current.text, 'choices');
      const type =
        choices !== undefined
          ? 'choices'
          : (['boolean', 'number', 'array', 'count', 'string'] as const).find(
              (t) => tag(current!.text, t) !== undefined,
            );
      options.push({
        names: current.names,
        type: type ?? 'string',
        choices: choices === undefined ? [] : [...choices.matchAll(/"([^"]*)"/g)].map((m) => m[1]!),
        required: current.text.includes('[required]'),
      });
    }
    if (positional !== undefined) {
      const choices = tag(positional.text, 'choices');
      if (choices !== undefined)
        positionalChoices.set(
          positional.name,
          [...choices.matchAll(/"([^"]*)"/g)].map((m) => m[1]!),
        );
    }
    current = undefined;
    positional = undefined;
  };
  for (const line of lines.slice(1)) {
    if (/^\S.*:$/.test(line)) {
      flush();
      section = line;
      continue;
    }
    // An option's own line starts in the first column ("  -k, --key" or "      --key-id"); a description that
    // wraps onto a line starting with "--" is not one.
    const option = /^ {2}(?:-([a-zA-Z]), | {4})--([a-z][a-z0-9-]*)(.*)$/.exec(line);
    if (option !== null) {
      flush();
      const alias = option[1];
      current = { names: [option[2]!, ...(alias ? [alias] : [])], text: option[3]! };
    } else if (section === 'Positionals:' && /^ {2}[a-z]/.test(line)) {
      flush();
      positional = { name: line.trim().split(/\s+/)[0]!, text: line };
    } else if (current !== undefined) current.text += line;
    else if (positional !== undefined) positional.text += line;
  }
  flush();
  const operands = usage
    .filter((word) => word.startsWith('<'))
    .map((word) => {
      const name = word.replace(/[<>.]/g, '');
      return positionalChoices.get(name)?.[0] ?? 'x.json';
    });
  return { path: pathParts, operands, options: options.filter((o) => o.names[0] !== 'help') };
}

/** Runs the real main() with the command list plus a probe that records a completed parse and stops there. */
async function parses(args: string[], cwd: string): Promise<{ parsed: boolean; stderr: string }> {
  let parsed = false;
  const probe: CliCommand = {
    command: 'probe',
    register: (parser) =>
      parser.middleware(() => {
        parsed = true;
        throw new Error('probe: parsed');
      }, false),
  };
  let stderr = '';
  await main({ argv: args, cwd, env: {}, stdout: () => undefined, stderr: (t) => (stderr += t) }, [...COMMANDS, probe]);
  return { parsed, stderr };
}

function sample(option: OptionHelp): string[] {
  const name = option.names[0]!;
  if (option.type === 'boolean' || option.type === 'count') return [];
  if (option.type === 'choices') return [option.choices[0]!];
  return [SAMPLE[name] ?? (option.type === 'number' ? '1' : 'x')];
}

/** The arguments without which a command does not parse: operands and required options. */
function base(command: CommandHelp): string[] {
  return [
    ...command.path,
    ...command.operands,
    ...command.options.filter((o) => o.required).flatMap((o) => [`--${o.names[0]}`, ...sample(o)]),
  ];
}

/** The --help text of a command path, rendered as main() sets yargs up, without a process per command. */
async function helpOf(pathParts: string[]): Promise<string> {
  const context: CliContext = {
    cwd: ROOT,
    env: {},
    stdout: () => undefined,
    stderr: () => undefined,
    stdoutIsTerminal: false,
    toolVersion: '0.0.0',
  };
  let parser = yargs()
    .scriptName('bomwright')
    .usage('$0 <command> [options]')
    .version('0.0.0')
    .strict()
    .help()
    .alias('h', 'help');
  for (const command of COMMANDS) parser = command.register(parser, context, () => undefined);
  return await new Promise<string>((resolve) =>
    parser.parse([...pathParts, '--help'], {}, (_error: unknown, _argv: unknown, output: string) => resolve(output)),
  );
}

/** Every command path (top level, their subcommands, and every service operation) with its help. */
async function allCommands(): Promise<CommandHelp[]> {
  const top = [...(await helpOf([])).matchAll(/^ {2}bomwright ([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!);
  expect(top.length).toBeGreaterThanOrEqual(18);
  const paths: string[][] = [];
  const tops = await Promise.all(top.map(async (name) => ({ name, text: await helpOf([name]) })));
  for (const { name, text } of tops) {
    const subs = text.includes('\nCommands:\n')
      ? [...text.matchAll(new RegExp(`^ {2}bomwright ${name} ([a-z][a-z0-9-]*)`, 'gm'))].map((m) => m[1]!)
      : [];
    // Long operation names wrap in the help's first column: the table is the full list.
    if (name === 'service') for (const operation of OPERATIONS) subs.push(kebab(operation.name));
    if (subs.length === 0) paths.push([name]);
    for (const sub of new Set(subs)) paths.push([name, sub]);
  }
  return await Promise.all(paths.map(async (p) => parseHelp(p, await helpOf(p))));
}

/** Whether `option` (a README's `--name`, possibly a `--no-` form) parses on `command`. */
async function accepts(command: CommandHelp, option: string, cwd: string): Promise<boolean> {
  const name = option.replace(/^--/, '');
  const known = command.options.find((o) => o.names.includes(name));
  const negated = name.startsWith('no-') ? command.options.find((o) => o.names[0] === name.slice(3)) : undefined;
  const values = known !== undefined ? sample(known) : negated !== undefined ? [] : ['x'];
  const args = [...base(command), option, ...values];
  return (
    (await parses(args, cwd)).parsed ||
    (known === undefined && negated === undefined && (await parses([...base(command), option], cwd)).parsed)
  );
}

describe('every documented option is accepted', () => {
  let commands: CommandHelp[] = [];
  const cwd = newDir();

  it('renders the help the built CLI prints, and the probe tells a parsed command from a refused option', async () => {
    for (const command of [['sign'], ['keygen'], ['service', 'list-phone-methods'], []]) {
      const printed = await runCli([...command, '--help'], { cwd: ROOT });
      expect(await helpOf(command), command.join(' ')).toBe(printed.stdout.replace(/\n$/, ''));
    }
    commands = await allCommands();
    expect(commands.length).toBeGreaterThan(60);
    const sign = commands.find((c) => c.path.join(' ') === 'sign')!;
    expect(sign.operands).toEqual(['x.json']);
    expect((await parses(base(sign), cwd)).parsed).toBe(true);
    const refused = await parses([...base(sign), '--unheard-of'], cwd);
    expect(refused.parsed).toBe(false);
    expect(refused.stderr).toContain('unheard-of');
    expect(await accepts(sign, '--no-such-option', cwd)).toBe(false);
    // A "no-" option is refused by yargs' boolean negation: what the README once documented for sign.
    expect(await accepts(sign, '--no-key-info', cwd)).toBe(true);
    expect(
      await accepts(
        commands.find((c) => c.path.join(' ') === 'keygen')!,
        '--no-key-info',
        cwd,
      ),
    ).toBe(false);
  }, 120_000);

  it("each option of each command's --help, and the --no- form of each boolean", async () => {
    const refused: string[] = [];
    for (const command of commands) {
      for (const option of command.options) {
        for (const name of option.names) {
          const flag = name.length === 1 ? `-${name}` : `--${name}`;
          const args = [...base(command), flag, ...sample(option)];
          if (!(await parses(args, cwd)).parsed) refused.push(args.join(' '));
        }
        if (option.type === 'boolean') {
          const args = [...base(command), `--no-${option.names[0]}`];
          if (!(await parses(args, cwd)).parsed) refused.push(args.join(' '));
        }
      }
    }
    expect(refused).toEqual([]);
    expect(commands.reduce((n, c) => n + c.options.length, 0)).toBeGreaterThan(150);
  }, 120_000);

  it('each option the README and docs/ name, on the command its section (or its example) is about', async () => {
    const sections = docPages().flatMap((page) => page.text.split(/\n(?=#{1,4} )/));
    const tops = new Set(commands.map((c) => c.path[0]!));
    const refused: string[] = [];
    let checked = 0;
    for (const section of sections) {
      const heading = section.split('\n', 1)[0]!;
      const named = (text: string) =>
        [...text.matchAll(/(?<=bomwright |`)[a-z][a-z0-9-]*/g)].map((m) => m[0]).filter((n) => tops.has(n));
      // A section about a command checks its options on it, and on any command its paragraph names ("as for
      // `verify`"); a section about none (exit codes, rules) on every command.
      const inHeading = named(heading);
      const spans: { text: string; scope: string[] }[] = [];
      const paragraphs: string[][] = [];
      let fence: string | undefined;
      for (const line of section.split('\n').slice(1)) {
        const opening = /^```(\S*)/.exec(line);
        if (opening) {
          fence = fence === undefined ? opening[1] : undefined;
          continue;
        }
        if (fence !== undefined) {
          // The command lines of sh examples, as far as a pipe, a redirection or a comment.
          if (fence === 'sh' && /^(?:npx )?bomwright /.test(line))
            paragraphs.push([`\`${line.replace(/^npx /, '').split(/\s[|>#]/)[0]!}\``]);
          continue;
        }
        if (line.trim() === '') paragraphs.push([]);
        else if (/^\s*(?:[-|]|\d+\.) /.test(line) || paragraphs.length === 0) paragraphs.push([line]);
        else paragraphs[paragraphs.length - 1]!.push(line);
      }
      for (const paragraph of paragraphs) {
        const text = paragraph.join(' ');
        const scope = inHeading.length > 0 ? [...inHeading, ...named(text)] : [...tops];
        for (const code of text.split('`').filter((_, i) => i % 2 === 1)) spans.push({ text: code, scope });
      }
      for (const { text: span, scope: sectionCommands } of spans) {
        const options = [...span.matchAll(/(?:^|[\s[])(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
        if (options.length === 0) continue;
        const first = span.replace(/^bomwright\s+/, '').split(/\s+/)[0]!;
        let scope: string[];
        if (tops.has(first)) scope = [first];
        else if (first.startsWith('-')) {
          // bomwright's own --version and --help, at the top level.
          if (span.startsWith('bomwright ')) {
            expect(
              options.every((o) => o === '--version' || o === '--help'),
              span,
            ).toBe(true);
            continue;
          }
          scope = sectionCommands;
        } else continue; // another program (npm pack --dry-run)
        for (const option of options) {
          checked++;
          // yargs' own, on every command.
          if (option === '--help') continue;
          // Commands whose help lists the option first: most options then take one parse.
          const lists = (c: CommandHelp) =>
            c.options.some((o) => o.names.includes(option.slice(2)) || `no-${o.names[0]}` === option.slice(2));
          const candidates = commands
            .filter((c) => scope.includes(c.path[0]!))
            .sort((a, b) => Number(lists(b)) - Number(lists(a)));
          let ok = false;
          for (const command of candidates) if (!ok && (await accepts(command, option, cwd))) ok = true;
          if (!ok) refused.push(`${heading.trim()}: ${option} (on ${scope.join(', ')})`);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  }, 120_000);
});
