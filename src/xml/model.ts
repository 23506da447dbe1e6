/**
 * The mapping reader: a CycloneDX XML element tree → the data model the JSON rules walk (bom-refs, dependencies,
 * serialNumber, version, components…), with a way back from a JSON pointer into that model to the XML element or
 * attribute it came from. So the rules beyond the schema, the version rule and its content comparison are
 * written once for both syntaxes. Elements outside the document's namespace (extensions, XML signatures) are
 * not part of the model.
 */
import { xmlPath } from './paths.js';
import type { ScanSink, XmlAttribute, XmlNode } from './scan.js';

/** Containers whose children form a JSON array (`<components><component/>…</components>` → `components: […]`). */
const COLLECTIONS = new Set([
  'components',
  'services',
  'dependencies',
  'hashes',
  'licenses',
  'externalReferences',
  'properties',
  'authors',
  'vulnerabilities',
  'compositions',
  'annotations',
  'assemblies',
  'patches',
  'commits',
  'notes',
  'ratings',
  'cwes',
  'advisories',
  'affects',
  'versions',
  'references',
  'endpoints',
  'lifecycles',
  'occurrences',
  'frames',
  'citations',
  'formulation',
  'workflows',
  'tasks',
  'steps',
  'attestations',
  'claims',
  'standards',
  'requirements',
  'levels',
  'signatories',
  'subjects',
  'annotator',
  // 1.7: references to patents, written as <bom-ref> elements; in XML a bom-ref definition is always an attribute.
  'patentRefs',
]);

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
 * of name, value and plain attributes. Frames are kept per depth and reused.
 */
interface Frame {
  local: string;
  /** In the root's namespace and under elements that all are: part of the model. */
  live: boolean;
  attributes: readonly XmlAttribute[];
  /** How many children: the lists' entries past it are stale (the lists are reused). */
  count: number;
  names: string[];
  values: unknown[];
  childAttributes: (readonly XmlAttribute[])[];
  text: string;
}

const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

/**
 * Builds the data model from the reader's events, as each element closes, without an element tree: the one
 * mapping both for a document read straight from its text (validation) and for a tree (mapDocument).
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

  open(name: string, local: string, namespace: string | undefined, attributes: XmlAttribute[], offset: number): void {
    if (local === 'Signature' && namespace === XML_DSIG) this.signed = true;
    const parent = this.depth === 0 ? undefined : this.frames[this.depth - 1]!;
    if (parent === undefined) this.root = { name, local, namespace, offset };
    const live = parent === undefined || (parent.live && namespace === this.root!.namespace);
    const plain = live ? plainAttributes(attributes) : NO_ATTRIBUTES;
    let frame = this.frames[this.depth];
    if (frame === undefined) {
      frame = { local, live, attributes: plain, count: 0, names: [], values: [], childAttributes: [], text: '' };
      this.frames.push(frame);
    } else {
      frame.local = local;
      frame.live = live;
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
      if (this.depth === 0) this.members = recordOf(frame, true);
      else {
        const parent = this.frames[this.depth - 1]!;
        const i = parent.count++;
        parent.names[i] = frame.local;
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

/** An element below the root: a dependency, a collection (an array), a text, or a record. */
function valueOf(frame: Frame): unknown {
  if (frame.local === 'dependency') return dependencyOf(frame);
  if (isCollection(frame.local, frame.names, frame.count, frame.attributes)) return frame.values.slice(0, frame.count);
  if (frame.count === 0 && frame.attributes.length === 0) return frame.text.trim();
  return recordOf(frame, false);
}

function recordOf(frame: Frame, root: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const attribute of frame.attributes)
    setMember(record, attribute.local, root ? rootAttributeValue(attribute) : attribute.value);
  const { names, values, count } = frame;
  if (distinct(names, count)) for (let i = 0; i < count; i++) setMember(record, names[i]!, values[i]);
  else {
    // Repeated names become one array member, where the name first appears.
    const groups = new Map<string, unknown[]>();
    for (let i = 0; i < count; i++) {
      const group = groups.get(names[i]!);
      if (group) group.push(values[i]);
      else groups.set(names[i]!, [values[i]]);
    }
    for (const [name, group] of groups) setMember(record, name, group.length === 1 ? group[0] : group);
  }
  if (count === 0 && frame.text.trim() !== '')
    setMember(record, frame.local === 'property' ? 'value' : 'content', frame.text);
  return record;
}

/** Whether no name repeats (the common case: a record's members). */
function distinct(names: readonly string[], count: number): boolean {
  if (count > 16) return new Set(names.slice(0, count)).size === count;
  for (let i = 1; i < count; i++) for (let j = 0; j < i; j++) if (names[i] === names[j]) return false;
  return true;
}

function rootAttributeValue(attribute: XmlAttribute): unknown {
  if (attribute.local === 'version' && /^[0-9]+$/.test(attribute.value)) {
    const n = Number(attribute.value);
    return Number.isSafeInteger(n) ? n : attribute.value;
  }
  return attribute.value;
}

/** `<dependency ref="a"><dependency ref="b"/><provides ref="c"/></dependency>` → { ref, dependsOn, provides }. */
function dependencyOf(frame: Frame): unknown {
  const record: Record<string, unknown> = {};
  for (const attribute of frame.attributes) setMember(record, attribute.local, attribute.value);
  for (const list of ['dependency', 'provides'] as const) {
    const refs: unknown[] = [];
    for (let i = 0; i < frame.count; i++)
      if (frame.names[i] === list) refs.push(frame.childAttributes[i]!.find((a) => a.local === 'ref')?.value);
    if (refs.length > 0) record[list === 'dependency' ? 'dependsOn' : 'provides'] = refs;
  }
  return record;
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
  sink.close();
}

/**
 * The way back from a JSON pointer into the model to the element or attribute it came from, derived from the
 * same mapping instead of a table kept for every node (which would cost a 100,000-component document more than
 * reading it): each pointer segment is followed in the element tree.
 */
export function locator(root: XmlNode): (pointer: string) => XmlPlace | undefined {
  const namespace = root.namespace;
  const elementsOf = (node: XmlNode) => inNamespace(node.children, namespace);
  return (pointer: string): XmlPlace | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
    type Step =
      | { kind: 'node'; node: XmlNode }
      | { kind: 'items'; items: readonly XmlNode[]; refs: boolean }
      | { kind: 'attribute'; attribute: XmlAttribute; owner: XmlNode };
    let step: Step = { kind: 'node', node: root };
    const enter = (node: XmlNode): Step => {
      const elements = elementsOf(node);
      return node !== root &&
        node.local !== 'dependency' &&
        isCollection(
          node.local,
          elements.map((e) => e.local),
          elements.length,
          plainAttributes(node.attributes),
        )
        ? { kind: 'items', items: elements, refs: false }
        : { kind: 'node', node };
    };
    for (const segment of segments) {
      if (step.kind === 'attribute') return undefined;
      if (step.kind === 'items') {
        if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
        const item: XmlNode | undefined = step.items[Number(segment)];
        if (item === undefined) return undefined;
        const ref: XmlAttribute | undefined = step.refs
          ? plainAttributes(item.attributes).find((a) => a.local === 'ref')
          : undefined;
        step = ref !== undefined ? { kind: 'attribute', attribute: ref, owner: item } : enter(item);
        continue;
      }
      const node = step.node;
      if (node !== root && node.local === 'dependency' && (segment === 'dependsOn' || segment === 'provides')) {
        const local = segment === 'dependsOn' ? 'dependency' : 'provides';
        step = { kind: 'items', items: elementsOf(node).filter((e) => e.local === local), refs: true };
        continue;
      }
      const attribute = plainAttributes(node.attributes).find((a) => a.local === segment);
      if (attribute !== undefined) {
        step = { kind: 'attribute', attribute, owner: node };
        continue;
      }
      const children = elementsOf(node).filter((e) => e.local === segment);
      if (children.length === 1) step = enter(children[0]!);
      else if (children.length > 1) step = { kind: 'items', items: children, refs: false };
      // Members with no element of their own (bomFormat, specVersion, a text's content) are the element itself.
    }
    if (step.kind === 'attribute')
      return { path: `${xmlPath(step.owner)}/@${step.attribute.name}`, offset: step.attribute.offset };
    const node = step.kind === 'node' ? step.node : step.items[0]?.parent;
    return node === undefined ? undefined : { path: xmlPath(node), offset: node.offset };
  };
}

function isCollection(
  local: string,
  names: readonly string[],
  count: number,
  attributes: readonly XmlAttribute[],
): boolean {
  if (!COLLECTIONS.has(local) || attributes.length !== 0) return false;
  for (let i = 1; i < count; i++) if (names[i] !== names[0]) return false;
  return true;
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

/** An own member, as JSON.parse makes it: a member named `__proto__` is data, never the object's prototype. */
function setMember(record: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
