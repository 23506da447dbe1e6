/**
 * `bomwright convert IN -o OUT [--to json|xml] [--spec-version V]`: a BOM in another syntax or spec version
 * (src/author/convert.ts), `-` for standard input and output. Each member dropped or value converted is one line;
 * the result is validated and written atomically, or not at all. Exit 0 when written; 1 when the result would be
 * invalid; 2 for usage, reading and conversion errors (E_CONVERT: nothing valid can be written).
 */
import path from 'node:path';
import { outputSyntax as chosenSyntax, SYNTAXES, type Syntax } from '../../document/syntax.js';
import {
  convertVersion,
  XML_ONLY_SPEC_VERSIONS,
  type ConvertedValue,
  type VersionConversion,
} from '../../author/convert.js';
import { BomwrightError } from '../../errors.js';
import { formatRefusal } from '../../format/refusal.js';
import { SPEC_FORMATS } from '../../formats/formats.js';
import { layoutOf, serializeJson, type JsonLayout } from '../../json/layout.js';
import { numbersThatWouldChange } from '../../json/numbers.js';
import { STDIN } from '../../node/discover.js';
import { describeProblems, loadDocument } from '../../node/documents.js';
import { isOwnStream, writeFileAtomic } from '../../node/write.js';
import { validate } from '../../validate/index.js';
import { display, isRecord } from '../../values.js';
import { writeXml } from '../../xml/write.js';
import { defineCommand, type CliContext } from '../command.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { restoreStdin } from '../options.js';

interface ConvertCommandOptions {
  input: string;
  output: string;
  to?: Syntax;
  specVersion?: string;
}

export const convertCommand = defineCommand({
  command: 'convert <input>',
  describe: 'Convert a BOM between JSON and XML and between spec versions (members the target lacks are listed)',
  builder: (y) =>
    y
      .positional('input', { type: 'string', demandOption: true, describe: 'The BOM to convert (- for stdin)' })
      .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'Write here (- for stdout)' })
      .option('to', {
        choices: SYNTAXES,
        describe: "The output's syntax (default: from -o's extension, else the input's)",
      })
      .option('spec-version', {
        type: 'string',
        choices: SPEC_FORMATS.map((f) => f.specVersion),
        describe: "The output's spec version (default: the input's)",
      }),
  handler: (argv, context) =>
    runConvert(
      {
        input: restoreStdin([argv.input])[0]!,
        output: restoreStdin([argv.output])[0]!,
        ...(argv.to === undefined ? {} : { to: argv.to }),
        ...(argv.specVersion === undefined ? {} : { specVersion: argv.specVersion }),
      },
      context,
    ),
});

interface ReadDocument {
  syntax: Syntax;
  document: Record<string, unknown>;
  /** The JSON input's layout, kept for JSON output. */
  layout?: JsonLayout;
  /** Whether the XML input holds an XML signature (which is not part of the model). */
  xmlSigned?: boolean;
}

async function readInput(file: string, name: string): Promise<ReadDocument> {
  // The one reading of a document (src/document/), in either syntax.
  const loaded = await loadDocument(file);
  if ('problems' in loaded) throw describeProblems(name, loaded.problems);
  if (!isRecord(loaded.model)) throw new BomwrightError('E_INPUT', `${name} is not a JSON object`);
  if (loaded.syntax === 'xml') return { syntax: 'xml', document: loaded.model, xmlSigned: loaded.xmlSigned };
  const changed = numbersThatWouldChange(loaded.text);
  if (changed.length > 0)
    throw new BomwrightError(
      'E_INPUT',
      `${name} holds ${changed[0]}, which a JSON parser cannot represent exactly; converting would change it (write it as a string)`,
    );
  return { syntax: 'json', document: loaded.model, layout: layoutOf(loaded.text) };
}

/** The output's syntax: --to, else -o's extension, else the input's (standard output has no extension). */
function outputSyntax(options: ConvertCommandOptions, input: Syntax): Syntax {
  return chosenSyntax({ to: options.to, output: options.output === STDIN ? undefined : options.output, input });
}

const shown = (value: unknown) => (value === undefined ? '(absent)' : (display(value, 60) ?? ''));

function convertedLine(c: ConvertedValue): string {
  if (c.movedTo !== undefined) return `converted: ${c.pointer} → ${c.movedTo}`;
  return `converted: ${c.pointer}: ${shown(c.from)} → ${shown(c.to)}`;
}

/** The lines saying what the conversion changed, one per member, as merge prints its dropped members. */
export function changeLines(conversion: Pick<VersionConversion, 'dropped' | 'converted'>): string[] {
  return [
    ...conversion.dropped.map((d) => `dropped: ${d.pointer}: ${d.reason}`),
    ...conversion.converted.map(convertedLine),
  ];
}

async function runConvert(options: ConvertCommandOptions, context: CliContext): Promise<number> {
  const toStdout = options.output === STDIN;
  const input = options.input === STDIN ? STDIN : path.resolve(context.cwd, options.input);
  const output = toStdout ? STDIN : path.resolve(context.cwd, options.output);
  // In place is fine: the input is read whole before the output is written, atomically.
  const read = await readInput(input, options.input);
  const syntax = outputSyntax(options, read.syntax);
  const specVersion = options.specVersion ?? String(read.document.specVersion);
  // 1.0 and 1.1 have no JSON schema to convert to, and bomwright writes no XML of them: they only go up.
  if (options.specVersion === undefined && (XML_ONLY_SPEC_VERSIONS as readonly string[]).includes(specVersion))
    throw new BomwrightError(
      'E_CONVERT',
      `CycloneDX ${specVersion} ${syntax === 'json' ? 'has no JSON form' : 'converts upward only'}; choose the version to convert it up to with --spec-version`,
    );
  if (syntax === 'xml' && SPEC_FORMATS.some((f) => f.family === 'cbom' && f.specVersion === specVersion))
    throw new BomwrightError(
      'E_CONVERT',
      `CBOM ${specVersion} has no XML form; convert it to JSON, or to CycloneDX 1.6 or later (--spec-version 1.6), which has one`,
    );
  // A JSF signature has no place in XML (whose signatures are XML signatures): dropped at any version.
  const conversion = convertVersion(read.document, specVersion, { dropSignatures: syntax === 'xml' });
  const dropped = [...conversion.dropped];
  // The model holds no XML signature, so no output carries it: it signed the input as written.
  if (read.xmlSigned === true)
    dropped.unshift({
      pointer: '/bom/Signature',
      reason: 'an XML signature signs the input as written; sign the converted document',
    });
  let text: string;
  if (syntax === 'xml')
    text = writeXml(conversion.document, { onDrop: (pointer, reason) => dropped.push({ pointer, reason }) });
  else
    text =
      read.layout === undefined
        ? `${JSON.stringify(conversion.document, null, 2)}\n`
        : serializeJson(conversion.document, read.layout);
  // What is written is what is validated: the XML against its XSD and the rules, the JSON against its schema.
  const result = await validate(syntax === 'xml' ? text : conversion.document, { signatures: 'ignore' });
  // What is said about the result goes where the result does not.
  const say = toStdout || isOwnStream(output) ? context.stderr : context.stdout;
  const lines = changeLines({ dropped, converted: conversion.converted });
  if (!result.valid) {
    if (lines.length > 0) context.stderr(`${lines.join('\n')}\n`);
    context.stderr(
      formatRefusal(
        options.output,
        result.diagnostics,
        (errors) => `refusing to write ${options.output}: the converted BOM has ${errors}`,
      ),
    );
    return EXIT_INVALID;
  }
  if (toStdout) context.stdout(text);
  else writeFileAtomic(output, text);
  const from = `${read.syntax.toUpperCase()} ${String(read.document.specVersion)}`;
  const to = `${syntax.toUpperCase()} ${String(conversion.document.specVersion)}`;
  lines.push(
    `Converted ${options.input} (${from}) to ${options.output} (${to}): ${dropped.length} dropped, ${conversion.converted.length} converted`,
  );
  say(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
