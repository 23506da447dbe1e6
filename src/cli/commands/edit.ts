import { didYouMean, nearestNames } from '../../nearest.js';
import { isNormalized, normalizeDocument } from '../../author/normalize.js';
import {
  addComponent,
  addDependency,
  addProperty,
  addService,
  METADATA_FIELDS,
  setMetadata,
  type EditResult,
  type MetadataField,
} from '../../author/edit.js';
import { BomwrightError } from '../../errors.js';
import { formatRefusal } from '../../format/refusal.js';
import { loadEditable, writeEditable, type EditableDocument } from '../../node/documents.js';
import { isRecord } from '../../values.js';
import type { Syntax } from '../../document/syntax.js';
import { warnDropped, xmlSignatureStep } from '../xml-resign.js';
import { isOwnStream } from '../../node/write.js';
import { defineCommand, type CliContext } from '../command.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { componentVersion, componentVersionOptions, dropSignaturesOption, rewriteOptions } from '../options.js';

const ADD_KINDS = ['component', 'service', 'dependency', 'property'] as const;

/** The file an edit reads, and where it writes (in place unless --output), in which syntax. */
interface EditTarget {
  file: string;
  output: string | undefined;
  to: Syntax | undefined;
  dropSignatures: boolean;
}

/** `name=value` pairs. */
function pairs(values: readonly string[], what: string): { name: string; value: string }[] {
  return values.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new BomwrightError('E_USAGE', `${what} must be name=value, not ${JSON.stringify(entry)}`);
    return { name: entry.slice(0, at), value: entry.slice(at + 1) };
  });
}

/** `alg:content` hashes (SHA-256:abc...). */
function hashes(values: readonly string[]): { alg: string; content: string }[] {
  return values.map((entry) => {
    const at = entry.indexOf(':');
    if (at <= 0) throw new BomwrightError('E_USAGE', `--hash must be ALG:CONTENT, not ${JSON.stringify(entry)}`);
    return { alg: entry.slice(0, at), content: entry.slice(at + 1) };
  });
}

/** A JSON value when the text is JSON, else the text itself (so plain strings need no quotes). */
function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Only the fields that were given: the authoring functions tell "absent" from "empty". */
function given<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function finish(
  target: EditTarget,
  document: EditableDocument,
  result: EditResult,
  what: string,
  done: string,
  context: CliContext,
): number {
  if (!result.applied) {
    context.stderr(
      formatRefusal(
        target.file,
        result.diagnostics,
        (errors) => `refusing to ${what}: the document would get ${errors}; nothing was written`,
      ),
    );
    return EXIT_INVALID;
  }
  // An XML signature covers the whole document: any edit breaks it, so it goes only when asked to.
  const xmlSigned = document.source.xmlSigned;
  if (xmlSigned && !target.dropSignatures)
    throw new BomwrightError(
      'E_USAGE',
      `${target.file} carries an XML signature, which the edit would invalidate: remove it with --drop-signatures (and sign again with bomwright sign)`,
    );
  if (xmlSigned)
    context.stderr(
      `bomwright: warning: removed the XML signature that the edit invalidated; re-sign with bomwright sign\n`,
    );
  if (result.removedSignatures.length > 0) {
    context.stderr(
      `bomwright: warning: removed ${result.removedSignatures.length} signature(s) that the edit invalidated (${result.removedSignatures.join(', ')}); re-sign with bomwright sign\n`,
    );
  }
  // A normalized document stays normalized (the new element sorted in), so `normalize --check` passes after an
  // edit; any other document keeps its own order.
  const value = isNormalized(document.value) ? normalizeDocument(result.document) : result.document;
  const written = writeEditable(document, value, {
    output: target.output,
    to: target.to,
    signaturesHandled: target.dropSignatures,
    onDrop: warnDropped(context.stderr),
    ...(xmlSigned ? { finish: xmlSignatureStep(undefined, {}) } : {}),
  });
  (isOwnStream(written) ? context.stderr : context.stdout)(
    `${done}${result.bomRef ? ` (bom-ref ${result.bomRef})` : ''} in ${written}\n`,
  );
  return EXIT_OK;
}

export const addCommand = defineCommand({
  command: 'add <kind> <file>',
  describe: 'Add a component, service, dependency or property; refused if the document would become invalid',
  builder: (y) =>
    componentVersionOptions(rewriteOptions(dropSignaturesOption(y)), 'Component or service version')
      .positional('kind', { choices: ADD_KINDS, demandOption: true })
      .positional('file', { type: 'string', demandOption: true })
      .option('name', { type: 'string', describe: 'Component, service or property name' })
      .option('type', { type: 'string', describe: 'Component type (default library; crypto-asset in CBOM)' })
      .option('group', { type: 'string' })
      .option('purl', { type: 'string' })
      .option('bom-ref', { type: 'string', describe: 'Default: from the purl, else name@version, made unique' })
      .option('license', {
        type: 'string',
        array: true,
        describe: 'SPDX ids or expressions (a near miss such as Apache2 is refused with the id)',
      })
      .option('license-name', { type: 'string', array: true, describe: 'A licence without an SPDX id, by name' })
      .option('allow-duplicate', {
        type: 'boolean',
        default: false,
        describe: 'Add a component although one with the same purl (or name and version) is there',
      })
      .option('hash', { type: 'string', array: true, describe: 'ALG:CONTENT, e.g. SHA-256:ab12…' })
      .option('supplier', { type: 'string' })
      .option('author', { type: 'string', array: true })
      .option('property', { type: 'string', array: true, describe: 'name=value' })
      .option('crypto-properties', { type: 'string', describe: 'CBOM cryptoProperties as JSON' })
      .option('endpoint', { type: 'string', array: true, describe: 'Service endpoints' })
      .option('ref', { type: 'string', describe: 'Dependency: the bom-ref that depends' })
      .option('depends-on', { type: 'string', array: true })
      .option('provides', { type: 'string', array: true, describe: 'CycloneDX 1.6+' })
      .option('dependency-type', { choices: ['implements', 'uses'] as const, describe: 'CBOM only' })
      .option('value', { type: 'string', describe: 'Property value' })
      .option('target', {
        type: 'string',
        describe: 'Property: the bom-ref of the element (default: the document)',
      }),
  handler: async (argv, context) => {
    const kind = argv.kind;
    const required = (value: string | undefined, flag: string): string => {
      if (value === undefined || value === '') throw new BomwrightError('E_USAGE', `add ${kind} needs --${flag}`);
      return value;
    };
    const properties = argv.property === undefined ? undefined : pairs(argv.property, '--property');
    const document = await loadEditable(argv.file);
    const editOptions = { allowSignatureInvalidation: argv.dropSignatures, allowDuplicate: argv.allowDuplicate };
    let result: EditResult;
    if (kind === 'component') {
      const crypto = argv.cryptoProperties === undefined ? undefined : jsonOrString(argv.cryptoProperties);
      if (crypto !== undefined && !isRecord(crypto))
        throw new BomwrightError('E_USAGE', '--crypto-properties must be a JSON object');
      result = await addComponent(
        document.value,
        {
          // The name, version and group may come from --purl.
          ...given({
            name: argv.name,
            version: componentVersion(argv),
            type: argv.type,
            group: argv.group,
            purl: argv.purl,
            'bom-ref': argv.bomRef,
            licenses: argv.license,
            licenseNames: argv.licenseName,
            hashes: argv.hash === undefined ? undefined : hashes(argv.hash),
            supplier: argv.supplier,
            authors: argv.author,
            properties,
            cryptoProperties: crypto,
          }),
        },
        editOptions,
      );
    } else if (kind === 'service') {
      result = await addService(
        document.value,
        {
          name: required(argv.name, 'name'),
          ...given({ version: componentVersion(argv), 'bom-ref': argv.bomRef, endpoints: argv.endpoint, properties }),
        },
        editOptions,
      );
    } else if (kind === 'dependency') {
      result = await addDependency(
        document.value,
        {
          ref: required(argv.ref, 'ref'),
          ...given({ dependsOn: argv.dependsOn, provides: argv.provides, dependencyType: argv.dependencyType }),
        },
        editOptions,
      );
    } else {
      result = await addProperty(
        document.value,
        { name: required(argv.name, 'name'), value: required(argv.value, 'value'), ...given({ target: argv.target }) },
        editOptions,
      );
    }
    const target = { file: argv.file, output: argv.output, to: argv.to, dropSignatures: argv.dropSignatures };
    return finish(target, document, result, `add the ${kind}`, `Added the ${kind}`, context);
  },
});

function isMetadataField(name: string): name is MetadataField {
  return (METADATA_FIELDS as readonly string[]).includes(name);
}

export const setCommand = defineCommand({
  command: 'set <file> <field> <value>',
  describe:
    'Set metadata.<field> (supplier, manufacture, authors, licenses, component, timestamp, properties); JSON or text',
  builder: (y) =>
    rewriteOptions(dropSignaturesOption(y))
      .positional('file', { type: 'string', demandOption: true })
      .positional('field', { type: 'string', demandOption: true })
      .positional('value', { type: 'string', demandOption: true }),
  handler: async (argv, context) => {
    const name = argv.field.replace(/^metadata\./, '');
    if (!isMetadataField(name)) {
      throw new BomwrightError(
        'E_USAGE',
        `Cannot set ${JSON.stringify(argv.field)}${didYouMean(nearestNames(name, METADATA_FIELDS), (f) => `metadata.${f}`)}; settable: ${METADATA_FIELDS.map((f) => `metadata.${f}`).join(', ')}`,
      );
    }
    const document = await loadEditable(argv.file);
    const result = await setMetadata(document.value, name, jsonOrString(argv.value), {
      allowSignatureInvalidation: argv.dropSignatures,
    });
    const target = { file: argv.file, output: argv.output, to: argv.to, dropSignatures: argv.dropSignatures };
    return finish(target, document, result, `set metadata.${name}`, `Set metadata.${name}`, context);
  },
});
