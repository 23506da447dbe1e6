/** Writing a data model in either syntax: JSON as JSON.stringify writes it, XML through the XSD-ordered writer. */
import { BomwrightError } from '../errors.js';
import { serializeJson, type JsonLayout } from '../json/layout.js';
import { isRecord, setMember, truncate } from '../values.js';
import { writeXml } from '../xml/write.js';
import type { Syntax } from './syntax.js';

export interface WriteOptions {
  /** The syntax to write (default: the document's own). */
  to?: Syntax;
}

/** The versions whose XML the writer produces (1.0 and 1.1 are read, and patched in place, but never written afresh). */
const XML_WRITABLE = new Set(['1.2', '1.3', '1.4', '1.5', '1.6', '1.7']);

/** A model as text in `syntax` (JSON indented by two spaces; XML as {@link writeXmlModel} writes it). */
export function writeDocument(model: unknown, syntax: Syntax = 'json'): string {
  return syntax === 'xml' ? writeXmlModel(model) : writeJsonModel(model);
}

/** JSON text of a model: in `layout` (a source's indentation), else indented by two spaces, with a final newline. */
export function writeJsonModel(model: unknown, layout: JsonLayout = { indent: 2, trailingNewline: true }): string {
  return serializeJson(model, layout);
}

/**
 * XML text of a model, valid for the XSD of its specVersion. A CBOM, or a version without an XML writer, is
 * refused (E_USAGE): nothing valid can be written. JSF signatures have no XML form (an XML document is signed
 * with an XML signature over the whole of it): they are left out.
 */
export function writeXmlModel(model: unknown): string {
  if (!isRecord(model)) throw new BomwrightError('E_USAGE', 'Only a BOM object can be written as XML');
  const specVersion = typeof model.specVersion === 'string' ? model.specVersion : undefined;
  if (model.bomFormat !== 'CycloneDX' || specVersion === undefined || specVersion.includes('-cbom-'))
    throw new BomwrightError(
      'E_USAGE',
      `${model.bomFormat === 'CBOM' || specVersion?.includes('-cbom-') === true ? 'CBOM' : 'This document'} has no XML form: only CycloneDX documents are written as XML; write it as JSON (--to json)`,
    );
  if (!XML_WRITABLE.has(specVersion))
    throw new BomwrightError(
      'E_USAGE',
      `CycloneDX ${truncate(specVersion, 20)} cannot be written as XML: bomwright writes XML for 1.2 to 1.7`,
    );
  return writeXml(withoutJsfSignatures(model));
}

/** A copy without `signature` members at any depth (untouched subtrees shared). */
function withoutJsfSignatures(model: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      value.forEach((item: unknown, i) => {
        const stripped = strip(item);
        if (stripped !== item) (out ??= value.slice())[i] = stripped;
      });
      return out ?? value;
    }
    if (!isRecord(value)) return value;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      if (key === 'signature') {
        out ??= { ...value };
        delete out[key];
        continue;
      }
      const stripped = strip(value[key]);
      if (stripped !== value[key]) setMember((out ??= { ...value }), key, stripped);
    }
    return out ?? value;
  };
  const stripped = strip(model);
  return isRecord(stripped) ? stripped : model;
}
