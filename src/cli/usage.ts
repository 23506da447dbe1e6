/**
 * The parser's complaints as one line each, with the nearest valid name: yargs writes two or three lines
 * ("Invalid values:\n  Argument: …") and never suggests an option or a choice.
 */
import { didYouMean, nearestNames } from '../nearest.js';

/** What the parser knew when it failed: the command it was in and the names valid there. */
export interface ParserState {
  /** The command path so far, e.g. ['service', 'get-chart-point']. */
  commands: readonly string[];
  /** Subcommands valid at this point. */
  subcommands: readonly string[];
  /** Option keys and their aliases, without dashes. */
  options: readonly string[];
  choices: Readonly<Record<string, readonly unknown[]>>;
  /** Operands of the current command (`<file>`, `[paths..]`). */
  positionals: readonly string[];
  /** The raw arguments, to tell an option (`--x`) from an operand. */
  argv: readonly string[];
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const dashed = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
const quote = (value: string) => JSON.stringify(value);

function givenAsOption(name: string, argv: readonly string[]): boolean {
  return argv.some((arg) => {
    const bare = arg.replace(/^--?(no-)?/, '').split('=')[0]!;
    return arg.startsWith('-') && (bare === name || camel(bare) === name);
  });
}

/** Unknown names: yargs lists an unknown `--max-warning` also as `maxWarning`; one mention is enough. */
function unknownNames(list: string): string[] {
  const names = list.split(', ').filter((n) => n !== '');
  const camelDuplicates = new Set(names.filter((n) => n.includes('-')).map(camel));
  return names.filter((n) => n.includes('-') || !camelDuplicates.has(n));
}

function commandText(state: ParserState): string {
  return ['bomwright', ...state.commands].join(' ');
}

function unknown(name: string, state: ParserState): string {
  if (givenAsOption(name, state.argv)) {
    const options = state.options.filter((o) => o.length > 1 && !/[A-Z]/.test(o));
    // A letter is too short to be near anything by spelling: the one option it begins (-v, --version) is meant.
    const initial = options.filter((o) => o[0] === name.toLowerCase());
    const near = name.length === 1 ? (initial.length === 1 ? initial : []) : nearestNames(name, options);
    return `unknown option ${dashed(name)}${near.length > 0 ? ` for ${commandText(state)}` : ''}${didYouMean(near, (n) => dashed(n))}`;
  }
  if (state.subcommands.length > 0) {
    const near = nearestNames(name, state.subcommands);
    const what = state.commands.length === 0 ? 'command' : `${commandText(state)} subcommand`;
    return `unknown ${what} ${quote(name)}${didYouMean(near)}`;
  }
  return `unexpected argument ${quote(name)} for ${commandText(state)}`;
}

function choiceLine(line: string, state: ParserState): string | undefined {
  const match = /^Argument: (.+?), Given: (.*), Choices: (.*)$/.exec(line.trim());
  if (match === null) return undefined;
  const [, name, given] = match as unknown as [string, string, string];
  const choices = (state.choices[name] ?? []).map(String);
  const label = givenAsOption(name, state.argv) ? dashed(name) : `<${name}>`;
  let typed: string;
  try {
    typed = String(JSON.parse(given) as unknown);
  } catch {
    typed = given;
  }
  if (given === 'true' || given === 'false') return `${label} needs a value, one of ${choices.join(', ')}`;
  return `${label}: ${quote(typed)} is not one of ${choices.join(', ')}${didYouMean(nearestChoices(typed, choices))}`;
}

const DECIMAL_VERSION = /^\d+\.\d+$/;

/**
 * The choices nearest to what was typed: for a version among versions (`--spec-version 1.8`), the numerically
 * nearest (1.7), since by spelling every 1.x is one letter away; otherwise by spelling.
 */
function nearestChoices(typed: string, choices: readonly string[]): string[] {
  const versions = choices.filter((c) => DECIMAL_VERSION.test(c));
  if (!DECIMAL_VERSION.test(typed) || versions.length === 0) return nearestNames(typed, choices);
  // 1.10 comes after 1.9: each part is a number, the major one weighing more than any minor.
  const rank = (v: string) => {
    const [major, minor] = v.split('.').map(Number) as [number, number];
    return major * 1000 + minor;
  };
  const distance = (v: string) => Math.abs(rank(v) - rank(typed));
  const best = Math.min(...versions.map(distance));
  return versions.filter((v) => distance(v) === best);
}

/** Options in the arguments that the command does not know (yargs reports a missing one before them). */
function unknownOptions(state: ParserState): string[] {
  const known = new Set([...state.options, 'help', 'version']);
  const end = state.argv.indexOf('--');
  return (end === -1 ? state.argv : state.argv.slice(0, end))
    .filter((arg) => /^--?[^-\d]/.test(arg))
    .map((arg) => arg.replace(/^--?(no-)?/, '').split('=')[0]!)
    .filter((name) => !known.has(name) && !known.has(camel(name)));
}

function missing(list: string, state: ParserState): string {
  // `sign w.json --kee k`: the typo is the cause, and naming it beats naming the option it failed to give.
  const stray = unknownOptions(state);
  if (stray.length > 0) return stray.map((name) => unknown(name, state)).join('; ');
  const names = list.split(', ').map((n) => (state.positionals.includes(n) ? `<${n}>` : dashed(n)));
  return `${commandText(state)} needs ${names.join(' and ')}`;
}

/** A short list is shown; a long one (the service's operations) is left to --help. */
function needsSubcommand(state: ParserState): string {
  return state.subcommands.length <= 12 ? `one of ${state.subcommands.join(', ')}` : 'a subcommand';
}

/**
 * The first operand after the command path that names no subcommand, where subcommands are expected: a
 * family's own "name one" message would otherwise hide the typo (`service get-chart-point-at`).
 */
function strayOperand(state: ParserState): string | undefined {
  if (state.subcommands.length === 0) return undefined;
  const operands = state.argv.filter((arg) => !arg.startsWith('-'));
  let at = 0;
  for (const command of state.commands) {
    const found = operands.indexOf(command, at);
    if (found === -1) return undefined;
    at = found + 1;
  }
  const next = operands[at];
  return next !== undefined && !state.subcommands.includes(next) ? next : undefined;
}

/** The parser's message as one line (without the `bomwright: E_USAGE: ` prefix). */
export function usageLine(message: string, state: ParserState): string {
  const text = message.trim();
  // `bomwright --versoin`: no command, but the option is the mistake to name.
  if (text.startsWith('Name a command')) {
    const options = unknownOptions(state);
    if (options.length > 0) return options.map((name) => unknown(name, state)).join('; ');
  }
  const stray = strayOperand(state);
  if (stray !== undefined) return unknown(stray, state);
  let match: RegExpExecArray | null;
  if ((match = /^Unknown (?:arguments?|commands?): (.*)$/s.exec(text)) !== null)
    return unknownNames(match[1]!)
      .map((name) => unknown(name, state))
      .join('; ');
  if (text.startsWith('Invalid values:')) {
    const lines = text
      .split('\n')
      .slice(1)
      .map((line) => choiceLine(line, state))
      .filter((line): line is string => line !== undefined);
    if (lines.length > 0) return lines.join('; ');
  }
  if ((match = /^Missing required arguments?: (.*)$/s.exec(text)) !== null) return missing(match[1]!, state);
  if ((match = /^Not enough arguments following: (.*)$/s.exec(text)) !== null)
    return `${dashed(match[1]!)} needs a value`;
  if ((match = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(text)) !== null) {
    const operands = state.positionals.slice(Number(match[1]), Number(match[2])).map((n) => `<${n}>`);
    return `${commandText(state)} needs ${operands.length > 0 ? operands.join(' and ') : needsSubcommand(state)}`;
  }
  if ((match = /^Too many non-option arguments: got (\d+), maximum of (\d+)$/.exec(text)) !== null)
    return `${commandText(state)} takes at most ${match[2]!} operand${match[2] === '1' ? '' : 's'}, got ${match[1]!}`;
  return text.replace(/\s*\n\s*/g, '; ');
}

/** The declared value types of the parser's options (after the command's builder ran), with their aliases. */
export interface OptionTypes {
  string: readonly string[];
  number: readonly string[];
  array: readonly string[];
  /** Options with a closed set of values take one even when no type is declared. */
  choices: Readonly<Record<string, readonly unknown[]>>;
  alias: Readonly<Record<string, readonly string[]>>;
}

/**
 * An option that takes a value, given as the last argument or followed by another option (`validate -f`,
 * `--max-warnings --strict`). yargs reads it as "" or nothing and the default applies silently: a gate given
 * `--max-warnings` with no number would then fail open. `--name=` is an explicit empty value and is left alone.
 * Returns the line that says so, or undefined.
 */
export function valuelessOption(argv: readonly string[], types: OptionTypes): string | undefined {
  const canonical = new Map<string, string>();
  for (const [key, aliases] of Object.entries(types.alias)) for (const alias of aliases) canonical.set(alias, key);
  const valued = new Set([...types.string, ...types.number, ...types.array, ...Object.keys(types.choices)]);
  const key = (name: string) => [name, camel(name), canonical.get(name) ?? ''].find((k) => valued.has(k));
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  for (let i = 0; i < args.length; i++) {
    const match = /^(?:--([^=]+)|-([^-\d=]))$/.exec(args[i]!);
    if (match === null) continue;
    const name = match[1] ?? match[2]!;
    const option = key(name);
    if (option === undefined) continue;
    const next = args[i + 1];
    // A lone "-" is standard input and "-1" a number: both are values.
    if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\.?\d/.test(next))) {
      const choices = types.choices[option];
      return `${args[i]!} needs a value${choices === undefined ? '' : `, one of ${choices.map(String).join(', ')}`}`;
    }
  }
  return undefined;
}
