/**
 * The mapping reader: a CycloneDX XML element tree → the data model the JSON rules walk (bom-refs, dependencies,
 * serialNumber, version, components…), with a way back from a JSON pointer into that model to the XML element or
 * attribute it came from. So the rules beyond the schema, the version rule and its content comparison are
 * written once for both syntaxes. The mapping is the one derived from the version's XSD (xsd.ts). Elements
 * outside the document's namespace (extensions, XML signatures) are not part of the model.
 */
import { isRecord, setMember } from '../values.js';
import { xmlMapping } from './mapping.js';
import { xmlPath } from './paths.js';
import type { ScanSink, XmlAttribute, XmlNode } from './scan.js';
import { xmlSpecVersion } from './versions.js';
import type { MappedAttribute, MappedElement, MappedType, Scalar, XmlMapping } from './xsd.js';

export interface XmlPlace {
  /** A readable location path: `/bom/components/component[3]/purl`, `/bom/@serialNumber`. */
  path: string;
  offset: number;
}

export interface XmlModel {
  document: Record<string, unknown>;
  /** Where a JSON pointer into `document` points in the XML; undefined when it leads nowhere. */
  locate(pointer: string): XmlPlace | undefined;
}

const XML_DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * An open element while the model is read; its children (those in the document's namespace) as parallel lists
 * of declaration, value and plain attributes. Frames are kept per depth and reused.
 */
interface Frame {
  local: string;
  /** In the root's namespace and under elements that all are: part of the model. */
  live: boolean;
  /** How the XSD declares this element in its parent; undefined for the root and for elements it does not know. */
  declaration: MappedElement | undefined;
  /** The element's complex type, when the XSD gives it one. */
  type: MappedType | undefined;
  attributes: readonly XmlAttribute[];
  /** How many children: the lists' entries past it are stale (the lists are reused). */
  count: number;
  names: string[];
  declarations: (MappedElement | undefined)[];
  values: unknown[];
  childAttributes: (readonly XmlAttribute[])[];
  text: string;
}

const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

/**
 * Builds the data model from the reader's events, as each element closes, without an element tree: the one
 * mapping both for a document read straight from its text (validation) and for a tree (mapDocument). Each
 * element is read as the XSD of the document's version declares it (xsd.ts); an element the XSD does not know (an
 * invalid document, which the XSD check reports) is read by its shape alone.
 */
export class ModelSink implements ScanSink {
  /** The root element as written, once the reader has seen it. */
  root: { name: string; local: string; namespace: string | undefined; offset: number } | undefined;
  /** The root's members, once the root has closed. */
  members: Record<string, unknown> | undefined;
  /** Whether an XML signature stands anywhere in the document. */
  signed = false;
  private readonly frames: Frame[] = [];
  private depth = 0;
  private mapping: XmlMapping | undefined;

  open(name: string, local: string, namespace: string | undefined, attributes: XmlAttribute[], offset: number): void {
    if (local === 'Signature' && namespace === XML_DSIG) this.signed = true;
    const parent = this.depth === 0 ? undefined : this.frames[this.depth - 1]!;
    let declaration: MappedElement | undefined;
    let type: MappedType | undefined;
    if (parent === undefined) {
      this.root = { name, local, namespace, offset };
      const version = xmlSpecVersion(namespace);
      this.mapping = version === undefined || local !== 'bom' ? undefined : xmlMapping(version);
      type = this.mapping?.types[this.mapping.root];
    } else if (parent.type !== undefined) {
      declaration = elementsOf(parent.type).get(local);
      const typeIndex = declaration?.type;
      type = typeof typeIndex === 'number' ? this.mapping!.types[typeIndex] : undefined;
    }
    const live = parent === undefined || (parent.live && namespace === this.root!.namespace);
    const plain = live ? plainAttributes(attributes) : NO_ATTRIBUTES;
    let frame = this.frames[this.depth];
    if (frame === undefined) {
      frame = {
        local,
        live,
        declaration,
        type,
        attributes: plain,
        count: 0,
        names: [],
        declarations: [],
        values: [],
        childAttributes: [],
        text: '',
      };
      this.frames.push(frame);
    } else {
      frame.local = local;
      frame.live = live;
      frame.declaration = declaration;
      frame.type = type;
      frame.attributes = plain;
      frame.count = 0;
      frame.text = '';
    }
    this.depth++;
  }

  text(data: string): void {
    const frame = this.frames[this.depth - 1]!;
    if (frame.live) frame.text += data;
  }

  close(): void {
    const frame = this.frames[--this.depth]!;
    if (frame.live) {
      if (this.depth === 0) this.members = recordOf(frame);
      else {
        const parent = this.frames[this.depth - 1]!;
        const i = parent.count++;
        parent.names[i] = frame.local;
        parent.declarations[i] = frame.declaration;
        parent.values[i] = valueOf(frame);
        parent.childAttributes[i] = frame.attributes;
      }
    }
    frame.text = '';
  }

  /** The model of a `<bom>` root of CycloneDX `specVersion` (after the root has closed). */
  document(specVersion: string): Record<string, unknown> {
    return { bomFormat: 'CycloneDX', specVersion, ...this.members };
  }
}

/** An element below the root, as its declaration and type say it appears in JSON. */
function valueOf(frame: Frame): unknown {
  const { declaration, type } = frame;
  if (declaration === undefined) return unknownValueOf(frame);
  if (declaration.refOnly === true) return attributeValue(frame.attributes, 'ref');
  if (type === undefined)
    return scalarOf(frame.text.trim(), typeof declaration.type === 'number' ? 'string' : declaration.type);
  switch (type.shape) {
    case 'ref':
      return attributeValue(frame.attributes, 'ref');
    case 'list':
      return itemsOf(frame);
    case 'record-or-list':
      return frame.count > 0 && everyDeclared(frame, (d) => d.many) ? itemsOf(frame) : recordOf(frame);
    case 'choice':
      return frame.count === 1 ? frame.values[0] : recordOf(frame);
    case 'record':
      // Simple content without attributes of its own is just the text.
      if (type.text !== undefined && type.attributes.length === 0 && declaration.item !== 'inline')
        return textOf(frame.text, type.text);
      if (type.mixed === true && frame.count === 0 && frame.attributes.length === 0 && frame.text.trim() !== '')
        return frame.text.trim();
      return recordOf(frame);
  }
}

/** The children of a list wrapper; in a licence choice each keeps its kind (`{ license }`, `{ expression, … }`). */
function itemsOf(frame: Frame): unknown[] {
  if (!hasTaggedItems(frame.type)) return frame.values.slice(0, frame.count);
  const items: unknown[] = [];
  for (let i = 0; i < frame.count; i++) {
    const declaration = frame.declarations[i];
    const value = frame.values[i];
    if (declaration?.item === 'wrapped') items.push(singleMember(declaration.json, value));
    else if (declaration?.item === 'inline' && !isRecord(value)) items.push(singleMember(declaration.json, value));
    else items.push(value);
  }
  return items;
}

function everyDeclared(frame: Frame, test: (declaration: MappedElement) => boolean): boolean {
  for (let i = 0; i < frame.count; i++) {
    const declaration = frame.declarations[i];
    if (declaration === undefined || !test(declaration)) return false;
  }
  return true;
}

function recordOf(frame: Frame): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const type = frame.type;
  const attributes = type === undefined ? undefined : attributesOf(type);
  for (const attribute of frame.attributes) {
    const mapped = attributes?.get(attribute.local);
    if (mapped === undefined) setMember(record, attribute.local, attribute.value);
    else setMember(record, mapped.json, scalarOf(attribute.value, mapped.scalar));
  }
  const { names, declarations, values, count } = frame;
  // Members in the order their elements first appear; a declared repeating element is an array however many
  // times it appears, an undeclared one when it repeats. The lists are made only for members that need one.
  let lists: Map<string, unknown[]> | undefined;
  for (let i = 0; i < count; i++) {
    const declaration = declarations[i];
    const value = values[i];
    if (declaration?.lifted === true && isRecord(value)) {
      for (const [name, member] of Object.entries(value)) setMember(record, name, member);
      continue;
    }
    const name = declaration?.json ?? names[i]!;
    const list = lists?.get(name);
    if (list !== undefined) list.push(value);
    else if (declaration?.many === true || Object.hasOwn(record, name)) {
      const started = declaration?.many === true && !Object.hasOwn(record, name) ? [value] : [record[name], value];
      (lists ??= new Map()).set(name, started);
      setMember(record, name, started);
    } else setMember(record, name, value);
  }
  if (type?.text !== undefined) {
    if (frame.text !== '') setMember(record, type.text.json, textOf(frame.text, type.text));
  } else if (type === undefined && count === 0 && frame.text.trim() !== '')
    setMember(record, frame.local === 'property' ? 'value' : 'content', frame.text);
  return record;
}

/** An element the XSD does not declare here: read by its shape (a text, or a record of what it holds). */
function unknownValueOf(frame: Frame): unknown {
  if (frame.count === 0 && frame.attributes.length === 0) return frame.text.trim();
  return recordOf(frame);
}

/** Simple content: white space collapsed where the XSD's type says so (a hash's token), else kept. */
function textOf(text: string, mapped: { readonly scalar: Scalar; readonly trim: boolean }): unknown {
  return scalarOf(mapped.trim ? text.replace(/[\t\n\r ]+/g, ' ').trim() : text, mapped.scalar);
}

/** A value as JSON has it: the XSD's booleans and numbers as JSON ones, when the text is one. */
function scalarOf(text: string, scalar: Scalar): unknown {
  switch (scalar) {
    case 'string':
      return text;
    case 'boolean': {
      const trimmed = text.trim();
      if (trimmed === 'true' || trimmed === '1') return true;
      if (trimmed === 'false' || trimmed === '0') return false;
      return text;
    }
    case 'integer': {
      const trimmed = text.trim();
      if (!/^[+-]?[0-9]+$/.test(trimmed)) return text;
      const n = Number(trimmed);
      return Number.isSafeInteger(n) ? n : text;
    }
    case 'number': {
      const trimmed = text.trim();
      if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(trimmed)) return text;
      const n = Number(trimmed);
      return Number.isFinite(n) ? n : text;
    }
  }
}

function attributeValue(attributes: readonly XmlAttribute[], local: string): string | undefined {
  for (const attribute of attributes) if (attribute.local === local) return attribute.value;
  return undefined;
}

function singleMember(name: string, value: unknown): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  setMember(record, name, value);
  return record;
}

const taggedLists = new WeakMap<MappedType, boolean>();

/** Whether a list's items keep their kind in JSON (a licence choice), once per type. */
function hasTaggedItems(type: MappedType | undefined): boolean {
  if (type === undefined) return false;
  let tagged = taggedLists.get(type);
  if (tagged === undefined) taggedLists.set(type, (tagged = type.elements.some((e) => e.item !== undefined)));
  return tagged;
}

const elementIndexes = new WeakMap<MappedType, Map<string, MappedElement>>();
const attributeIndexes = new WeakMap<MappedType, Map<string, MappedAttribute>>();

/** A type's element declarations by XML name (built once per type, on first use). */
function elementsOf(type: MappedType): Map<string, MappedElement> {
  let index = elementIndexes.get(type);
  if (index === undefined) {
    index = new Map();
    for (const element of type.elements) if (!index.has(element.xml)) index.set(element.xml, element);
    elementIndexes.set(type, index);
  }
  return index;
}

function attributesOf(type: MappedType): Map<string, MappedAttribute> {
  let index = attributeIndexes.get(type);
  if (index === undefined) {
    index = new Map(type.attributes.map((a) => [a.xml, a]));
    attributeIndexes.set(type, index);
  }
  return index;
}

/** The model of a `<bom>` root of CycloneDX `specVersion`, read from its element tree. */
export function mapDocument(root: XmlNode, specVersion: string): XmlModel {
  const sink = new ModelSink();
  replay(root, sink);
  return { document: sink.document(specVersion), locate: locator(root) };
}

/** The tree's elements as the reader's events (the text of an element is one event: it is only ever joined). */
function replay(node: XmlNode, sink: ScanSink): void {
  sink.open(node.name, node.local, node.namespace, node.attributes, node.offset);
  if (node.text !== '') sink.text(node.text);
  for (const child of node.children) replay(child, sink);
  sink.close(node.end ?? node.offset);
}

type Step =
  | { kind: 'node'; node: XmlNode; declaration: MappedElement | undefined; type: MappedType | undefined }
  | { kind: 'items'; items: readonly XmlNode[]; owner: XmlNode; type: MappedType | undefined }
  | { kind: 'attribute'; attribute: XmlAttribute; owner: XmlNode };

/**
 * The way back from a JSON pointer into the model to the element or attribute it came from, following the same
 * mapping as the reader instead of a table kept for every node (which would cost a 100,000-component document
 * more than reading it): each pointer segment is followed in the element tree.
 */
export function locator(root: XmlNode): (pointer: string) => XmlPlace | undefined {
  const namespace = root.namespace;
  const version = xmlSpecVersion(namespace);
  const mapping = version === undefined || root.local !== 'bom' ? undefined : xmlMapping(version);
  const typeOf = (declaration: MappedElement | undefined): MappedType | undefined =>
    mapping === undefined || declaration === undefined || typeof declaration.type !== 'number'
      ? undefined
      : mapping.types[declaration.type];
  const childrenOf = (node: XmlNode) => inNamespace(node.children, namespace);
  const declarationIn = (type: MappedType | undefined, local: string) =>
    type === undefined ? undefined : elementsOf(type).get(local);
  /** A node, or the list of its children when it appears in JSON as an array. */
  const enter = (node: XmlNode, declaration: MappedElement | undefined, type: MappedType | undefined): Step => {
    const children = childrenOf(node);
    const list =
      type === undefined
        ? declaration === undefined && isUnknownList(node, children)
        : type.shape === 'list' ||
          (type.shape === 'record-or-list' &&
            children.length > 0 &&
            children.every((c) => declarationIn(type, c.local)?.many === true));
    return list ? { kind: 'items', items: children, owner: node, type } : { kind: 'node', node, declaration, type };
  };
  return (pointer: string): XmlPlace | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
    let step: Step = {
      kind: 'node',
      node: root,
      declaration: undefined,
      type: mapping?.types[mapping.root],
    };
    for (let s = 0; s < segments.length; s++) {
      const segment = segments[s]!;
      if (step.kind === 'attribute') return undefined;
      if (step.kind === 'items') {
        if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
        const item: XmlNode | undefined = step.items[Number(segment)];
        if (item === undefined) return undefined;
        const declaration = declarationIn(step.type, item.local);
        const itemType = typeOf(declaration);
        if (declaration?.refOnly === true || itemType?.shape === 'ref') {
          const ref: XmlAttribute | undefined = plainAttributes(item.attributes).find((a) => a.local === 'ref');
          step =
            ref === undefined ? enter(item, declaration, itemType) : { kind: 'attribute', attribute: ref, owner: item };
          continue;
        }
        // A licence choice's `{ license: … }`: the key names the item itself.
        if (declaration?.item === 'wrapped' && segments[s + 1] === declaration.json) s++;
        step = enter(item, declaration, itemType);
        continue;
      }
      const node: XmlNode = step.node;
      const type: MappedType | undefined = step.type;
      const attributes = plainAttributes(node.attributes);
      const mappedAttribute: MappedAttribute | undefined = type?.attributes.find((a) => a.json === segment);
      const attribute: XmlAttribute | undefined = attributes.find((a) => a.local === (mappedAttribute?.xml ?? segment));
      if (attribute !== undefined) {
        step = { kind: 'attribute', attribute, owner: node };
        continue;
      }
      const declaration: MappedElement | undefined = type?.elements.find((e) => e.json === segment);
      const local: string = declaration?.xml ?? segment;
      const children: XmlNode[] = childrenOf(node).filter((e) => e.local === local);
      if (declaration?.many === true || children.length > 1)
        step = { kind: 'items', items: children, owner: node, type };
      else if (children.length === 1) step = enter(children[0]!, declaration, typeOf(declaration));
      // Members with no element of their own (bomFormat, specVersion, a text's content) are the element itself.
    }
    if (step.kind === 'attribute')
      return { path: `${xmlPath(step.owner)}/@${step.attribute.name}`, offset: step.attribute.offset };
    const node = step.kind === 'node' ? step.node : (step.items[0]?.parent ?? step.owner);
    return { path: xmlPath(node), offset: node.offset };
  };
}

/** An element the XSD does not declare, read as a list when all its children share one name (as the reader does). */
function isUnknownList(node: XmlNode, children: readonly XmlNode[]): boolean {
  return (
    node.parent !== undefined &&
    children.length > 1 &&
    plainAttributes(node.attributes).length === 0 &&
    children.every((c) => c.local === children[0]!.local)
  );
}

/** The children in the document's namespace; the same array when they all are (the common case, no copy). */
function inNamespace(children: XmlNode[], namespace: string | undefined): readonly XmlNode[] {
  for (const child of children)
    if (child.namespace !== namespace) return children.filter((c) => c.namespace === namespace);
  return children;
}

/** Attributes without a namespace (`xmlns`, `xsi:…` and extensions are not part of the model). */
function plainAttributes(attributes: readonly XmlAttribute[]): readonly XmlAttribute[] {
  for (const a of attributes) if (a.namespace !== undefined) return attributes.filter((x) => x.namespace === undefined);
  return attributes;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
