/** Writing a data model in either syntax: JSON as JSON.stringify writes it, XML through the XSD-ordered writer. */
import { BomwrightError } from '../errors.js';
import { serializeJson, type JsonLayout } from '../json/layout.js';
import { isRecord } from '../values.js';
import { writeXml } from '../xml/write.js';
import type { Syntax } from './syntax.js';

/** A member the syntax written cannot carry, left out: its JSON pointer and why. */
export interface DroppedMember {
  pointer: string;
  reason: string;
}

export interface WriteOptions {
  /** The syntax to write (default: the document's own). */
  to?: Syntax;
  /** Write the whole document afresh (normalize) rather than patch the source's text in place. */
  fresh?: boolean;
  /** Told of each member the XML form cannot carry (a JSF signature, a member its XSD lacks), which is left out. */
  onDrop?: (dropped: DroppedMember) => void;
}

/** A model as text in `syntax` (JSON indented by two spaces; XML as {@link writeXmlModel} writes it). */
export function writeDocument(model: unknown, syntax: Syntax = 'json', options: Omit<WriteOptions, 'to'> = {}): string {
  return syntax === 'xml' ? writeXmlModel(model, options) : writeJsonModel(model);
}

/** JSON text of a model: in `layout` (a source's indentation), else indented by two spaces, with a final newline. */
export function writeJsonModel(model: unknown, layout: JsonLayout = { indent: 2, trailingNewline: true }): string {
  return serializeJson(model, layout);
}

/**
 * XML text of a model, in the element order of its version's XSD (src/xml/write.ts). A CBOM, or a version
 * without an XML form, is refused (E_CONVERT); what the XML form cannot carry is left out and told to `onDrop`.
 */
export function writeXmlModel(model: unknown, options: Omit<WriteOptions, 'to'> & { indent?: string } = {}): string {
  if (!isRecord(model)) throw new BomwrightError('E_CONVERT', 'Only a BOM object can be written as XML');
  const onDrop = options.onDrop;
  return writeXml(model, {
    ...(options.indent === undefined ? {} : { indent: options.indent }),
    ...(onDrop === undefined ? {} : { onDrop: (pointer, reason) => onDrop({ pointer, reason }) }),
  });
}
