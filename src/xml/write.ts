/**
 * The XML writer: a document of the data model → CycloneDX XML of its `specVersion`, in the element order the
 * version's XSD requires, through the same mapping the reader follows (xsd.ts), so that reading what it writes
 * gives the model back. What the XML form of the version cannot carry (a JSF `signature`, `$schema`, a member the
 * XSD lacks) is left out and reported through `onDrop`; a document that has no XML form at all (CBOM, or a
 * version without an XSD) is refused.
 */
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';
import { xmlMapping } from './mapping.js';
import { XML_NAMESPACE_PREFIX, XML_SPEC_VERSIONS, type XmlSpecVersion } from './versions.js';
import type { MappedElement, MappedType, XmlMapping } from './xsd.js';

interface XmlWriteOptions {
  /** One level of indentation; two spaces unless given. */
  indent?: string;
  /** Called for each member the XML form cannot carry, with its JSON pointer and why. */
  onDrop?: (pointer: string, reason: string) => void;
}

/** Members of the root that XML states otherwise (the namespace) or not at all. */
const ROOT_IMPLIED = new Set(['bomFormat', 'specVersion', '$schema']);

/** The XML text of a document; throws E_CONVERT when the document has no XML form. */
export function writeXml(document: Record<string, unknown>, options: XmlWriteOptions = {}): string {
  const version = xmlVersionOf(document);
  const writer = new Writer(xmlMapping(version), options);
  const root = writer.mapping.types[writer.mapping.root]!;
  const out = new Output();
  out.push('<?xml version="1.0" encoding="UTF-8"?>\n');
  writer.element(out, 'bom', root, document, '', 0, `${XML_NAMESPACE_PREFIX}${version}`);
  return out.text();
}

/**
 * The text being written, in pieces joined into chunks as it grows: a 20,000-component document is about two
 * million pieces, which kept in one array cost more in garbage collection than the writing itself. Only the last
 * piece may still change (an element found empty: {@link closeElement}), so everything before it can be joined.
 */
class Output {
  private readonly chunks: string[] = [];
  private pieces: string[] = [];
  /** How many pieces were pushed in all. */
  length = 0;

  push(piece: string): void {
    this.pieces.push(piece);
    this.length++;
    if (this.pieces.length >= 4096) {
      const last = this.pieces.pop()!;
      this.chunks.push(this.pieces.join(''));
      this.pieces = [last];
    }
  }

  /** Replaces the last piece pushed. */
  replaceLast(piece: string): void {
    this.pieces[this.pieces.length - 1] = piece;
  }

  text(): string {
    this.chunks.push(this.pieces.join(''));
    this.pieces = [];
    return this.chunks.join('');
  }
}

/** The XML version a document is written in: its specVersion, which must have an XSD. */
function xmlVersionOf(document: Record<string, unknown>): XmlSpecVersion {
  const specVersion = document.specVersion;
  if (document.bomFormat === 'CBOM' || (typeof specVersion === 'string' && specVersion.includes('-cbom-')))
    throw new BomwrightError('E_CONVERT', 'CBOM has no XML form; write it as JSON');
  const version = XML_SPEC_VERSIONS.find((v) => v === specVersion);
  if (version === undefined)
    throw new BomwrightError(
      'E_CONVERT',
      `Cannot write specVersion ${JSON.stringify(specVersion)} as XML: CycloneDX XML has versions ${XML_SPEC_VERSIONS.join(', ')}`,
    );
  return version;
}

class Writer {
  private readonly indent: string;
  /** The indentation of each depth, made once rather than per element. */
  private readonly pads: string[] = [];

  constructor(
    readonly mapping: XmlMapping,
    private readonly options: XmlWriteOptions,
  ) {
    this.indent = options.indent ?? '  ';
  }

  private pad(depth: number): string {
    return (this.pads[depth] ??= this.indent.repeat(depth));
  }

  private drop(pointer: string, reason: string): void {
    this.options.onDrop?.(pointer, reason);
  }

  private typeOf(declaration: MappedElement): MappedType | undefined {
    return typeof declaration.type === 'number' ? this.mapping.types[declaration.type] : undefined;
  }

  /** An element of complex type `type` holding `value`. */
  element(
    out: Output,
    name: string,
    type: MappedType,
    value: unknown,
    pointer: string,
    depth: number,
    namespace?: string,
  ): void {
    const pad = this.pad(depth);
    const open = namespace === undefined ? `<${name}` : `<${name} xmlns="${namespace}"`;
    switch (type.shape) {
      case 'ref':
        if (typeof value !== 'string') return this.drop(pointer, 'a reference must be a string');
        out.push(`${pad}<${name} ref="${escapeAttribute(value)}"/>\n`);
        return;
      case 'list':
        return this.list(out, open, name, type, value, pointer, depth, false);
      case 'record-or-list':
        if (Array.isArray(value)) return this.list(out, open, name, type, value, pointer, depth, true);
        return this.record(out, open, name, type, value, pointer, depth, namespace !== undefined);
      case 'choice': {
        const declaration = bestFit(type.elements, value, this.mapping);
        if (declaration === undefined) return this.drop(pointer, `no form of <${name}> holds this value`);
        out.push(`${pad}${open}>\n`);
        this.child(out, declaration, value, pointer, depth + 1);
        out.push(`${pad}</${name}>\n`);
        return;
      }
      case 'record':
        if (!isRecord(value) && (type.text !== undefined || (type.mixed === true && isScalar(value)))) {
          // Simple content given as the value itself (a licence expression in 1.2–1.5).
          out.push(`${pad}${open}>${escapeText(scalarText(value))}</${name}>\n`);
          return;
        }
        return this.record(out, open, name, type, value, pointer, depth, namespace !== undefined);
    }
  }

  private list(
    out: Output,
    open: string,
    name: string,
    type: MappedType,
    value: unknown,
    pointer: string,
    depth: number,
    repeatedOnly: boolean,
  ): void {
    const pad = this.pad(depth);
    if (!Array.isArray(value)) return this.drop(pointer, `<${name}> holds a list`);
    const candidates = repeatedOnly ? type.elements.filter((e) => e.many) : type.elements;
    // Children are written straight into `out` after the start tag: a list of 100,000 items is never
    // copied (nor spread into a call, which overflows the stack).
    const slot = out.length;
    out.push(`${pad}${open}>\n`);
    value.forEach((item: unknown, i) => {
      const at = `${pointer}/${i}`;
      const declaration = bestFit(candidates, item, this.mapping);
      if (declaration === undefined) return this.drop(at, `no item of <${name}> holds this value`);
      // A wrapped item (`{ license }`) and an inline one whose element is only text (1.2–1.5's `{ expression }`)
      // hold the element's value under its name.
      const keyed =
        declaration.item === 'wrapped' || (declaration.item === 'inline' && typeof declaration.type !== 'number');
      const inner = keyed && isRecord(item) ? item[declaration.json] : item;
      const innerAt = keyed ? `${at}/${escapePointer(declaration.json)}` : at;
      if (keyed && isRecord(item))
        for (const key of Object.keys(item))
          if (key !== declaration.json) this.drop(`${at}/${escapePointer(key)}`, notInXml(this.mapping));
      if (declaration.item === 'inline' && !isRecord(item))
        return this.drop(at, `no item of <${name}> holds this value`);
      this.child(out, declaration, inner, innerAt, depth + 1);
    });
    closeElement(out, slot, pad, open, name, '');
  }

  private record(
    out: Output,
    open: string,
    name: string,
    type: MappedType,
    value: unknown,
    pointer: string,
    depth: number,
    root: boolean,
  ): void {
    const pad = this.pad(depth);
    if (!isRecord(value)) return this.drop(pointer, `<${name}> holds members, not ${typeof value}`);
    const used = new Set<string>();
    let tag = open;
    for (const attribute of type.attributes) {
      const member = ownMember(value, attribute.json);
      if (member === undefined) continue;
      used.add(attribute.json);
      if (!isScalar(member)) {
        this.drop(`${pointer}/${escapePointer(attribute.json)}`, `the attribute ${attribute.xml} holds a single value`);
        continue;
      }
      tag += ` ${attribute.xml}="${escapeAttribute(scalarText(member))}"`;
    }
    // The start tag as for an element with children; made empty or text-only at the end if none follow (see list()).
    const slot = out.length;
    out.push(`${pad}${tag}>\n`);
    for (const declaration of type.elements) {
      if (declaration.lifted === true) {
        // Its members stand in this record (a data flow's classification and flow).
        const liftedType = this.typeOf(declaration);
        if (liftedType === undefined) continue;
        const members = liftedMembers(liftedType);
        const lifted: Record<string, unknown> = {};
        for (const key of members) {
          const member = ownMember(value, key);
          if (member !== undefined) {
            lifted[key] = member;
            used.add(key);
          }
        }
        if (Object.keys(lifted).length > 0) this.element(out, declaration.xml, liftedType, lifted, pointer, depth + 1);
        continue;
      }
      const member = ownMember(value, declaration.json);
      if (member === undefined) continue;
      used.add(declaration.json);
      const at = `${pointer}/${escapePointer(declaration.json)}`;
      if (declaration.many && Array.isArray(member) && member.length === 0)
        this.drop(at, `an empty list has no XML form: <${declaration.xml}> repeats without a wrapper`);
      else if ((declaration.many || declaration.either === true) && Array.isArray(member))
        member.forEach((item: unknown, i) => this.child(out, declaration, item, `${at}/${i}`, depth + 1));
      else this.child(out, declaration, member, at, depth + 1);
    }
    let text = '';
    if (type.text !== undefined) {
      const member = ownMember(value, type.text.json);
      if (member !== undefined) {
        used.add(type.text.json);
        if (member === '') this.drop(`${pointer}/${escapePointer(type.text.json)}`, 'an empty text reads as no text');
        else if (isScalar(member)) text = escapeText(scalarText(member));
        else this.drop(`${pointer}/${escapePointer(type.text.json)}`, 'the text holds a single value');
      }
    }
    for (const key of Object.keys(value)) {
      if (used.has(key) || (root && ROOT_IMPLIED.has(key))) continue;
      this.drop(
        `${pointer}/${escapePointer(key)}`,
        key === 'signature' ? 'a JSF signature has no XML form' : notInXml(this.mapping),
      );
    }
    closeElement(out, slot, pad, tag, name, text);
  }

  /** A child element as its declaration says: a ref, a scalar or a complex value. */
  private child(out: Output, declaration: MappedElement, value: unknown, pointer: string, depth: number): void {
    const pad = this.pad(depth);
    if (value === undefined) return;
    if (declaration.refOnly === true) {
      if (typeof value !== 'string') return this.drop(pointer, 'a reference must be a string');
      out.push(`${pad}<${declaration.xml} ref="${escapeAttribute(value)}"/>\n`);
      return;
    }
    const type = this.typeOf(declaration);
    if (type === undefined) {
      if (!isScalar(value)) return this.drop(pointer, `<${declaration.xml}> holds a single value`);
      out.push(`${pad}<${declaration.xml}>${escapeText(scalarText(value))}</${declaration.xml}>\n`);
      return;
    }
    if (declaration.item === 'inline' && isRecord(value) && type.text !== undefined && type.attributes.length === 0) {
      // `{ expression: "…" }` of a licence choice whose expression has no attributes in this version.
      const text = value[type.text.json];
      for (const key of Object.keys(value))
        if (key !== type.text.json) this.drop(`${pointer}/${escapePointer(key)}`, notInXml(this.mapping));
      return this.element(out, declaration.xml, type, text, pointer, depth);
    }
    this.element(out, declaration.xml, type, value, pointer, depth);
  }
}

/**
 * Ends an element whose start tag was pushed as piece `slot`: closed after its children, or, when none followed
 * (the start tag is still the last piece), made empty (`<x/>`) or text-only.
 */
function closeElement(out: Output, slot: number, pad: string, tag: string, name: string, text: string): void {
  if (out.length > slot + 1) out.push(`${pad}</${name}>\n`);
  else if (text !== '') out.replaceLast(`${pad}${tag}>${text}</${name}>\n`);
  else out.replaceLast(`${pad}${tag}/>\n`);
}

/** The members of a lifted element's type as they stand in its parent. */
function liftedMembers(type: MappedType): string[] {
  const members = type.attributes.map((a) => a.json);
  if (type.text !== undefined) members.push(type.text.json);
  for (const element of type.elements) members.push(element.json);
  return members;
}

/**
 * The declaration among several (items of a list, the branches of a choice) that holds `value` best: a scalar for
 * a scalar, the one named by a wrapped item's key, else the record type that knows most of the value's members.
 */
function bestFit(
  declarations: readonly MappedElement[],
  value: unknown,
  mapping: XmlMapping,
): MappedElement | undefined {
  if (declarations.length === 1) return declarations[0];
  let best: MappedElement | undefined;
  let bestScore = -Infinity;
  for (const declaration of declarations) {
    const score = fitScore(declaration, value, mapping);
    if (score > bestScore) {
      best = declaration;
      bestScore = score;
    }
  }
  return bestScore === -Infinity ? undefined : best;
}

function fitScore(declaration: MappedElement, value: unknown, mapping: XmlMapping): number {
  const type = typeof declaration.type === 'number' ? mapping.types[declaration.type] : undefined;
  if (declaration.item === 'wrapped' || (declaration.item === 'inline' && type === undefined))
    return isRecord(value) && Object.hasOwn(value, declaration.json) ? 1000 : -Infinity;
  if (type === undefined || type.shape === 'ref' || declaration.refOnly === true)
    return isScalar(value) ? 1 : -Infinity;
  if (!isRecord(value))
    return type.text !== undefined || type.shape === 'list' ? (Array.isArray(value) ? 1 : 0) : -Infinity;
  if (declaration.item === 'inline' && type.text !== undefined && !Object.hasOwn(value, type.text.json))
    return -Infinity;
  const known = new Set([...type.attributes.map((a) => a.json), ...type.elements.map((e) => e.json)]);
  if (type.text !== undefined) known.add(type.text.json);
  let score = 0;
  for (const key of Object.keys(value)) score += known.has(key) ? 10 : -1;
  return score;
}

function ownMember(record: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

function notInXml(mapping: XmlMapping): string {
  return `CycloneDX ${mapping.version} XML has no such member`;
}

function escapePointer(segment: string): string {
  // Most names hold neither character: no copies made (a pointer is made for every member written).
  return segment.includes('~') || segment.includes('/') ? segment.replaceAll('~', '~0').replaceAll('/', '~1') : segment;
}

/**
 * Text that needs no reference and holds nothing XML 1.0 cannot carry: most values, written as they are without
 * the passes below (a 20,000-component document has hundreds of thousands of them).
 */
const PLAIN = /^[^&<>"'\t\n\r\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]*$/;

/** Characters XML 1.0 cannot carry at all, even as references. */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkXmlCharacters(text: string): void {
  const bad = NOT_XML.exec(text);
  if (bad !== null)
    throw new BomwrightError(
      'E_CONVERT',
      `The value holds U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which XML 1.0 cannot carry`,
    );
}

function escapeText(text: string): string {
  if (PLAIN.test(text)) return text;
  checkXmlCharacters(text);
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\r', '&#13;');
}

function escapeAttribute(text: string): string {
  if (PLAIN.test(text)) return text;
  checkXmlCharacters(text);
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');
}
