import { existsSync } from 'node:fs';
import { initDocument } from '../../author/init.js';
import { withPurlFields, type ComponentFields } from '../../author/elements.js';
import { BomwrightError } from '../../errors.js';
import { validate } from '../../validate/index.js';
import { describeProblems, loadJsonFile } from '../../node/documents.js';
import { isRecord } from '../../values.js';
import { refuseOverwriting } from '../../node/paths.js';
import { EXIT_OK } from '../exit-codes.js';
import { defineCommand } from '../command.js';
import { componentVersion, componentVersionOptions, LICENSE_OPTIONS } from '../options.js';
import { hashes, pairs } from './edit.js';
import { DEFAULT_SPEC_VERSION, findFormatBySpecVersion, SPEC_FORMATS } from '../../formats/formats.js';
import path from 'node:path';
import { writeFileAtomic } from '../../node/write.js';
import { outputSyntax, SYNTAXES, type Syntax } from '../../document/syntax.js';
import { writeJsonModel, writeXmlModel } from '../../document/write.js';

interface InitCommandOptions {
  format?: 'cyclonedx' | 'cbom';
  specVersion?: string;
  from?: string;
  component: Partial<ComponentFields>;
  output: string;
  to?: Syntax;
  force: boolean;
  toolVersion: string;
  /** metadata.authors. */
  authors?: readonly string[];
  /** Where a package.json beside the new document is looked for when no component is named. */
  cwd: string;
  stdout: (text: string) => void;
}

export const initCommand = defineCommand({
  command: 'init',
  describe: 'Create a new valid BOM (serial number, version 1, timestamp, tools, the described component)',
  builder: (y) =>
    componentVersionOptions(y, 'Component version')
      .option('format', {
        choices: ['cyclonedx', 'cbom'] as const,
        describe: 'Document family (default cyclonedx)',
      })
      .option('spec-version', {
        type: 'string',
        choices: SPEC_FORMATS.map((f) => f.specVersion),
        describe: 'Default 1.6, or 1.4-cbom-1.0 for cbom',
      })
      .option('from', { type: 'string', describe: 'Describe the package of this package.json' })
      .option('name', { type: 'string', describe: 'Component name (default: from the package.json beside it)' })
      .option('type', { type: 'string', describe: 'Component type (default application)' })
      .option('purl', { type: 'string', describe: 'Package URL' })
      .options(LICENSE_OPTIONS)
      .option('bom-ref', {
        type: 'string',
        describe: "The component's bom-ref (default: from the purl, else name@version)",
      })
      .option('supplier', {
        type: 'string',
        describe: 'The component\'s supplier, e.g. "ACME <security@acme.example> https://acme.example"',
      })
      .option('property', { type: 'string', array: true, describe: 'A property of the component: name=value' })
      .option('hash', { type: 'string', array: true, describe: "The component's hashes: ALG:CONTENT" })
      .option('distribution', {
        type: 'string',
        describe: 'URL of the deployable file: a distribution reference, which gets the --hash values too',
      })
      .option('sbom-author', {
        type: 'string',
        array: true,
        describe: 'Who writes the BOM (metadata.authors), e.g. "Jane Doe <jane@example.com>"',
      })
      .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'The file to create' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' })
      .option('to', {
        choices: SYNTAXES,
        describe: "The syntax to write (default: the output's extension, .json or .xml, else json)",
      }),
  handler: (argv, context) =>
    runInit({
      format: argv.format,
      specVersion: argv.specVersion,
      from: argv.from,
      component: {
        ...(argv.name === undefined ? {} : { name: argv.name }),
        ...(componentVersion(argv) === undefined ? {} : { version: componentVersion(argv)! }),
        ...(argv.type === undefined ? {} : { type: argv.type }),
        ...(argv.purl === undefined ? {} : { purl: argv.purl }),
        ...(argv.license === undefined ? {} : { licenses: argv.license }),
        ...(argv.licenseName === undefined ? {} : { licenseNames: argv.licenseName }),
        ...(argv.acknowledgement === undefined ? {} : { licenseAcknowledgement: argv.acknowledgement }),
        ...(argv.bomRef === undefined ? {} : { 'bom-ref': argv.bomRef }),
        ...(argv.supplier === undefined ? {} : { supplier: argv.supplier }),
        ...(argv.property === undefined ? {} : { properties: pairs(argv.property, '--property') }),
        ...(argv.hash === undefined ? {} : { hashes: hashes(argv.hash) }),
        ...(argv.distribution === undefined ? {} : { distribution: argv.distribution }),
      },
      ...(argv.sbomAuthor === undefined ? {} : { authors: argv.sbomAuthor }),
      output: argv.output,
      ...(argv.to === undefined ? {} : { to: argv.to }),
      force: argv.force,
      toolVersion: context.toolVersion,
      cwd: context.cwd,
      stdout: context.stdout,
    }),
});

async function runInit(request: InitCommandOptions): Promise<number> {
  // A purl names the component (its name, version and group, as `add component --purl` takes them); the fields
  // are completed from it once more where the document is made, beside a package.json's, which must agree.
  const named = withPurlFields(request.component);
  // Next to a package.json, and with no component named, the package is the component.
  const beside = path.join(request.cwd, 'package.json');
  const options =
    request.from === undefined && named.name === undefined && existsSync(beside)
      ? { ...request, from: beside }
      : request;
  if (options.from !== undefined)
    refuseOverwriting(options.output, [{ file: options.from, role: 'the package.json it reads' }]);
  if (!options.force && existsSync(options.output))
    throw new BomwrightError('E_WRITE', `${options.output} already exists; use --force to overwrite`);
  let packageJson: Record<string, unknown> | undefined;
  if (options.from !== undefined) {
    const loaded = loadJsonFile(options.from);
    if ('problems' in loaded) throw describeProblems(options.from, loaded.problems);
    if (!isRecord(loaded.value)) throw new BomwrightError('E_INPUT', `${options.from} is not a JSON object`);
    packageJson = loaded.value;
  }
  if (packageJson === undefined && named.name === undefined)
    throw new BomwrightError('E_USAGE', 'Name the component (--name or --purl) or give a package.json (--from)');
  const format = findFormatBySpecVersion(options.specVersion ?? DEFAULT_SPEC_VERSION[options.format ?? 'cyclonedx']);
  const version = named.version ?? packageJson?.version;
  if (format?.componentVersionRequired && (version === undefined || version === ''))
    throw new BomwrightError(
      'E_USAGE',
      `CycloneDX ${format.specVersion} requires a component version: give it with --component-version (or --version)`,
    );
  const document = initDocument({
    ...(options.format ? { format: options.format } : {}),
    ...(options.specVersion ? { specVersion: options.specVersion } : {}),
    component: options.component,
    ...(packageJson ? { packageJson } : {}),
    toolVersion: options.toolVersion,
    ...(options.authors === undefined ? {} : { authors: options.authors }),
  });
  // Belt and braces: what init writes must validate.
  const result = await validate(document, { signatures: 'ignore' });
  if (!result.valid)
    throw new BomwrightError(
      'E_INTERNAL',
      `init produced an invalid document: ${result.diagnostics[0]?.message ?? ''}`,
    );
  // The syntax: --to, else the output's extension (bom.xml), else JSON.
  const syntax = outputSyntax({ to: options.to, output: options.output });
  writeFileAtomic(options.output, syntax === 'xml' ? writeXmlModel(document) : writeJsonModel(document));
  options.stdout(
    `Created ${options.output} (${String(document.bomFormat)} ${String(document.specVersion)}, ${String(document.serialNumber)}, version 1)\n`,
  );
  return EXIT_OK;
}
