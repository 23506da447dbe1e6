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
import { loadEditable, reportErrors, writeEditable } from '../../node/editable.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';

export type AddKind = 'component' | 'service' | 'dependency' | 'property';

export interface EditCommandOptions {
  file: string;
  output?: string;
  /** Remove the signatures the edit invalidates instead of refusing. */
  dropSignatures: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `name=value` pairs. */
function pairs(values: readonly string[] | undefined, what: string): { name: string; value: string }[] | undefined {
  return values?.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new BomwrightError('E_USAGE', `${what} must be name=value, not ${JSON.stringify(entry)}`);
    return { name: entry.slice(0, at), value: entry.slice(at + 1) };
  });
}

/** `alg:content` hashes (SHA-256:abc...). */
function hashes(values: readonly string[] | undefined): { alg: string; content: string }[] | undefined {
  return values?.map((entry) => {
    const at = entry.indexOf(':');
    if (at <= 0) throw new BomwrightError('E_USAGE', `--hash must be ALG:CONTENT, not ${JSON.stringify(entry)}`);
    return { alg: entry.slice(0, at), content: entry.slice(at + 1) };
  });
}

/** A JSON value when the text is JSON, else the text itself (so plain strings need no quotes). */
export function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function finish(
  options: EditCommandOptions,
  document: Awaited<ReturnType<typeof loadEditable>>,
  result: EditResult,
  what: string,
  done: string,
): Promise<number> {
  if (!result.applied) {
    const count = reportErrors(options.file, result.diagnostics, options.stderr);
    options.stderr(
      `bomwright: refusing to ${what}: the document would get ${count} error${count === 1 ? '' : 's'}; nothing was written\n`,
    );
    return EXIT_INVALID;
  }
  if (result.removedSignatures.length > 0) {
    options.stderr(
      `bomwright: warning: removed ${result.removedSignatures.length} signature(s) that the edit invalidated (${result.removedSignatures.join(', ')}); re-sign with bomwright sign\n`,
    );
  }
  const target = writeEditable(document, result.document, options.output);
  options.stdout(`${done}${result.bomRef ? ` (bom-ref ${result.bomRef})` : ''} in ${target}\n`);
  return EXIT_OK;
}

export async function runAdd(
  kind: AddKind,
  flags: Record<string, unknown>,
  options: EditCommandOptions,
): Promise<number> {
  const document = await loadEditable(options.file);
  const editOptions = { allowSignatureInvalidation: options.dropSignatures };
  const strings = (name: string) => flags[name] as string[] | undefined;
  const text = (name: string) => flags[name] as string | undefined;
  const required = (name: string) => {
    const value = text(name);
    if (value === undefined || value === '') throw new BomwrightError('E_USAGE', `add ${kind} needs --${name}`);
    return value;
  };
  let result: EditResult;
  if (kind === 'component') {
    const crypto = text('crypto-properties');
    result = await addComponent(
      document.value,
      {
        name: required('name'),
        ...(text('component-version') === undefined ? {} : { version: text('component-version')! }),
        ...(text('type') === undefined ? {} : { type: text('type')! }),
        ...(text('group') === undefined ? {} : { group: text('group')! }),
        ...(text('purl') === undefined ? {} : { purl: text('purl')! }),
        ...(text('bom-ref') === undefined ? {} : { 'bom-ref': text('bom-ref')! }),
        ...(strings('license') === undefined ? {} : { licenses: strings('license')! }),
        ...(flags.hash === undefined ? {} : { hashes: hashes(strings('hash'))! }),
        ...(text('supplier') === undefined ? {} : { supplier: text('supplier')! }),
        ...(strings('author') === undefined ? {} : { authors: strings('author')! }),
        ...(flags.property === undefined ? {} : { properties: pairs(strings('property'), '--property')! }),
        ...(crypto === undefined ? {} : { cryptoProperties: jsonOrString(crypto) as Record<string, unknown> }),
      },
      editOptions,
    );
  } else if (kind === 'service') {
    result = await addService(
      document.value,
      {
        name: required('name'),
        ...(text('component-version') === undefined ? {} : { version: text('component-version')! }),
        ...(text('bom-ref') === undefined ? {} : { 'bom-ref': text('bom-ref')! }),
        ...(strings('endpoint') === undefined ? {} : { endpoints: strings('endpoint')! }),
        ...(flags.property === undefined ? {} : { properties: pairs(strings('property'), '--property')! }),
      },
      editOptions,
    );
  } else if (kind === 'dependency') {
    result = await addDependency(
      document.value,
      {
        ref: required('ref'),
        ...(strings('depends-on') === undefined ? {} : { dependsOn: strings('depends-on')! }),
        ...(strings('provides') === undefined ? {} : { provides: strings('provides')! }),
        ...(text('dependency-type') === undefined ? {} : { dependencyType: text('dependency-type')! }),
      },
      editOptions,
    );
  } else {
    result = await addProperty(
      document.value,
      {
        name: required('name'),
        value: required('value'),
        ...(text('target') === undefined ? {} : { target: text('target')! }),
      },
      editOptions,
    );
  }
  return finish(options, document, result, `add the ${kind}`, `Added the ${kind}`);
}

export async function runSet(field: string, value: string, options: EditCommandOptions): Promise<number> {
  const name = field.replace(/^metadata\./, '');
  if (!(METADATA_FIELDS as readonly string[]).includes(name)) {
    throw new BomwrightError(
      'E_USAGE',
      `Cannot set ${JSON.stringify(field)}; settable: ${METADATA_FIELDS.map((f) => `metadata.${f}`).join(', ')}`,
    );
  }
  const document = await loadEditable(options.file);
  const result = await setMetadata(document.value, name as MetadataField, jsonOrString(value), {
    allowSignatureInvalidation: options.dropSignatures,
  });
  return finish(options, document, result, `set metadata.${name}`, `Set metadata.${name}`);
}
