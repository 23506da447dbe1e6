import { isNormalized, normalizeDocument } from '../../author/normalize.js';
import {
  addComponent,
  addComposition,
  addDependency,
  addProperty,
  addService,
  METADATA_FIELDS as LEGACY_METADATA_FIELDS,
  type EditResult,
} from '../../author/edit.js';
import { pointerOfPath, setValue } from '../../author/set.js';
import { LICENSE_ACKNOWLEDGEMENTS } from '../../author/licenses.js';
import { BomwrightError } from '../../errors.js';
import { formatRefusal } from '../../format/refusal.js';
import { loadEditable, writeEditable, type EditableDocument } from '../../node/documents.js';
import { isRecord } from '../../values.js';
import type { Syntax } from '../../document/syntax.js';
import { warnDropped, xmlSignatureStep } from '../xml-resign.js';
import { isOwnStream } from '../../node/write.js';
import { defineCommand, type CliContext } from '../command.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import {
  componentVersion,
  componentVersionOptions,
  LICENSE_OPTIONS,
  dropSignaturesOption,
  ONE_VALUE_PER_FLAG,
  rewriteOptions,
} from '../options.js';

const ADD_KINDS = ['component', 'service', 'dependency', 'property', 'composition'] as const;

/** The file an edit reads, and where it writes (in place unless --output), in which syntax. */
interface EditTarget {
  file: string;
  output: string | undefined;
  to: Syntax | undefined;
  dropSignatures: boolean;
}

/** `name=value` pairs. */
export function pairs(values: readonly string[], what: string): { name: string; value: string }[] {
  return values.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new BomwrightError('E_USAGE', `${what} must be name=value, not ${JSON.stringify(entry)}`);
    return { name: entry.slice(0, at), value: entry.slice(at + 1) };
  });
}

/** `alg:content` hashes (SHA-256:abc...). */
export function hashes(values: readonly string[]): { alg: string; content: string }[] {
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

export function finishEdit(
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
  const count =
    result.components === undefined ? '' : ` (${result.components} component${result.components === 1 ? '' : 's'})`;
  (isOwnStream(written) ? context.stderr : context.stdout)(
    `${done}${result.bomRef ? ` (bom-ref ${result.bomRef})` : ''}${count} in ${written}\n`,
  );
  return EXIT_OK;
}

export const addCommand = defineCommand({
  command: 'add <kind> <file>',
  describe:
    'Add a component, service, dependency, property or composition; refused if the document would become invalid',
  builder: (y) =>
    componentVersionOptions(rewriteOptions(dropSignaturesOption(y)), 'Component or service version')
      .positional('kind', { choices: ADD_KINDS, demandOption: true })
      .positional('file', { type: 'string', demandOption: true })
      .option('name', { type: 'string', describe: 'Component, service or property name' })
      .option('type', { type: 'string', describe: 'Component type (default library; crypto-asset in CBOM)' })
      .option('group', { type: 'string' })
      .option('purl', { type: 'string' })
      .option('bom-ref', { type: 'string', describe: 'Default: from the purl, else name@version, made unique' })
      .options(LICENSE_OPTIONS)
      .option('allow-duplicate', {
        type: 'boolean',
        default: false,
        describe: 'Add a component although one with the same purl (or name and version) is there',
      })
      .option('hash', { type: 'string', array: true, describe: 'ALG:CONTENT, e.g. SHA-256:ab12…' })
      .option('distribution', {
        type: 'string',
        describe:
          "URL of the deployable file: a distribution reference, which gets the --hash values too (BSI's deployable hash)",
      })
      .option('supplier', { type: 'string', describe: 'e.g. "ACME <security@acme.example> https://acme.example"' })
      .option('author', { type: 'string', array: true, describe: 'e.g. "Jane Doe <jane@example.com>"' })
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
      })
      .option('component', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: 'Property: add it to each component matching: *, a purl pattern, PATH=VALUE, PATH or !PATH',
      })
      .option('aggregate', {
        type: 'string',
        describe: 'Composition: complete, incomplete, unknown, … (how complete the listed refs are)',
      })
      .option('of', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: "Composition: the bom-refs whose dependencies it describes (default: metadata.component's)",
      })
      .option('assembly', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: 'Composition: bom-refs whose parts it describes',
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
            licenseAcknowledgement: argv.acknowledgement,
            hashes: argv.hash === undefined ? undefined : hashes(argv.hash),
            supplier: argv.supplier,
            authors: argv.author,
            distribution: argv.distribution,
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
    } else if (kind === 'composition') {
      result = await addComposition(
        document.value,
        {
          aggregate: required(argv.aggregate, 'aggregate'),
          ...given({ dependencies: argv.of, assemblies: argv.assembly }),
        },
        editOptions,
      );
    } else {
      result = await addProperty(
        document.value,
        {
          name: required(argv.name, 'name'),
          value: required(argv.value, 'value'),
          ...given({ target: argv.target, components: argv.component }),
        },
        editOptions,
      );
    }
    const target = { file: argv.file, output: argv.output, to: argv.to, dropSignatures: argv.dropSignatures };
    return finishEdit(target, document, result, `add the ${kind}`, `Added the ${kind}`, context);
  },
});

export const setCommand = defineCommand({
  command: 'set <file> <pointer> [value]',
  describe:
    'Set any member by JSON pointer (/metadata/manufacturer), in the document or in every component a --component selector matches',
  builder: (y) =>
    rewriteOptions(dropSignaturesOption(y))
      .positional('file', { type: 'string', demandOption: true })
      .positional('pointer', {
        type: 'string',
        demandOption: true,
        describe: 'A JSON pointer (/metadata/lifecycles; - appends to an array), or metadata.FIELD',
      })
      .positional('value', {
        type: 'string',
        describe:
          'JSON, or text read as the type the schema has there (e.g. "ACME <sec@acme.example> https://acme.example")',
      })
      .option('component', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe:
          'Set it in each component matching: *, a purl pattern (pkg:npm/*), PATH=VALUE, PATH or !PATH (all must match)',
      })
      .option('acknowledgement', {
        choices: LICENSE_ACKNOWLEDGEMENTS,
        describe: 'Licences given as text are declared or concluded (CycloneDX 1.6+)',
      })
      .option('remove', { type: 'boolean', default: false, describe: 'Remove the member instead' }),
  handler: async (argv, context) => {
    if (argv.remove && argv.value !== undefined) throw new BomwrightError('E_USAGE', 'set --remove takes no value');
    if (!argv.remove && argv.value === undefined) throw new BomwrightError('E_USAGE', 'bomwright set needs <value>');
    // The older form: a metadata member by its name alone (`set bom.json timestamp …`).
    const path = (LEGACY_METADATA_FIELDS as readonly string[]).includes(argv.pointer)
      ? `metadata.${argv.pointer}`
      : argv.pointer;
    const document = await loadEditable(argv.file);
    const result = await setValue(
      document.value,
      {
        pointer: path,
        ...(argv.value === undefined ? {} : { value: argv.value, text: true }),
        remove: argv.remove,
        ...given({ components: argv.component, acknowledgement: argv.acknowledgement }),
      },
      { allowSignatureInvalidation: argv.dropSignatures },
    );
    const what = `${pointerOfPath(path)}${argv.component === undefined ? '' : ` of ${argv.component.join(' and ')}`}`;
    const target = { file: argv.file, output: argv.output, to: argv.to, dropSignatures: argv.dropSignatures };
    return finishEdit(target, document, result, `set ${what}`, `${argv.remove ? 'Removed' : 'Set'} ${what}`, context);
  },
});
