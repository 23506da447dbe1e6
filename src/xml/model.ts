/**
 * The mapping reader: a CycloneDX XML element tree → the data model the JSON rules walk (bom-refs, dependencies,
 * serialNumber, version, components…), with a way back from a JSON pointer into that model to the XML element or
 * attribute it came from. So the rules beyond the schema, the version rule and its content comparison are
 * written once for both syntaxes. Elements outside the document's namespace (extensions, XML signatures) are
 * not part of the model.
 */
import type { XmlAttribute, XmlNode } from './scan.js';

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

/** The model of a `<bom>` root of CycloneDX `specVersion`. */
export function mapDocument(root: XmlNode, specVersion: string): XmlModel {
  const namespace = root.namespace;
  const elementsOf = (node: XmlNode) => inNamespace(node.children, namespace);

  const mapNode = (node: XmlNode): unknown => {
    const elements = elementsOf(node);
    const attributes = plainAttributes(node);
    if (node !== root && node.local === 'dependency') return mapDependency(elements, attributes);
    if (node !== root && isCollection(node.local, elements, attributes)) return elements.map(mapNode);
    if (node !== root && elements.length === 0 && attributes.length === 0) return node.text.trim();
    const record: Record<string, unknown> = {};
    for (const attribute of attributes) setMember(record, attribute.local, attributeValue(node, attribute));
    let groups: Map<string, XmlNode[]> | undefined;
    for (const element of elements) {
      groups ??= new Map();
      const group = groups.get(element.local);
      if (group) group.push(element);
      else groups.set(element.local, [element]);
    }
    if (groups !== undefined)
      for (const [name, group] of groups)
        setMember(record, name, group.length === 1 ? mapNode(group[0]!) : group.map(mapNode));
    if (elements.length === 0 && node.text.trim() !== '') setMember(record, textMember(node), node.text);
    return record;
  };

  const attributeValue = (node: XmlNode, attribute: XmlAttribute): unknown => {
    if (node === root && attribute.local === 'version' && /^[0-9]+$/.test(attribute.value)) {
      const n = Number(attribute.value);
      return Number.isSafeInteger(n) ? n : attribute.value;
    }
    return attribute.value;
  };

  const document: Record<string, unknown> = {
    bomFormat: 'CycloneDX',
    specVersion,
    ...(mapNode(root) as Record<string, unknown>),
  };

  /**
   * The way back, derived from the same mapping instead of a table kept for every node (which would cost a
   * 100,000-component document more than reading it): each pointer segment is followed in the element tree.
   */
  const locate = (pointer: string): XmlPlace | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
    type Step =
      | { kind: 'node'; node: XmlNode }
      | { kind: 'items'; items: readonly XmlNode[]; refs: boolean }
      | { kind: 'attribute'; attribute: XmlAttribute; owner: XmlNode };
    let step: Step = { kind: 'node', node: root };
    const enter = (node: XmlNode): Step => {
      const elements = elementsOf(node);
      return node !== root && node.local !== 'dependency' && isCollection(node.local, elements, plainAttributes(node))
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
          ? plainAttributes(item).find((a) => a.local === 'ref')
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
      const attribute = plainAttributes(node).find((a) => a.local === segment);
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

  return { document, locate };
}

/** `<dependency ref="a"><dependency ref="b"/><provides ref="c"/></dependency>` → { ref, dependsOn, provides }. */
function mapDependency(elements: readonly XmlNode[], attributes: readonly XmlAttribute[]): unknown {
  const record: Record<string, unknown> = {};
  for (const attribute of attributes) setMember(record, attribute.local, attribute.value);
  for (const list of ['dependency', 'provides'] as const) {
    const refs: unknown[] = [];
    for (const e of elements) if (e.local === list) refs.push(plainAttributes(e).find((a) => a.local === 'ref')?.value);
    if (refs.length > 0) record[list === 'dependency' ? 'dependsOn' : 'provides'] = refs;
  }
  return record;
}

function textMember(node: XmlNode): string {
  return node.local === 'property' ? 'value' : 'content';
}

function isCollection(local: string, elements: readonly XmlNode[], attributes: readonly XmlAttribute[]): boolean {
  return COLLECTIONS.has(local) && attributes.length === 0 && sameName(elements);
}

/** The children in the document's namespace; the same array when they all are (the common case, no copy). */
function inNamespace(children: XmlNode[], namespace: string | undefined): readonly XmlNode[] {
  for (const child of children)
    if (child.namespace !== namespace) return children.filter((c) => c.namespace === namespace);
  return children;
}

/** Attributes without a namespace (`xmlns`, `xsi:…` and extensions are not part of the model). */
function plainAttributes(node: XmlNode): readonly XmlAttribute[] {
  for (const a of node.attributes)
    if (a.namespace !== undefined) return node.attributes.filter((x) => x.namespace === undefined);
  return node.attributes;
}

/** An own member, as JSON.parse makes it: a member named `__proto__` is data, never the object's prototype. */
function setMember(record: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

function sameName(elements: readonly XmlNode[]): boolean {
  return elements.every((e) => e.local === elements[0]!.local);
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** `/bom/components/component[3]/purl`: a position only where siblings share the name. */
export function xmlPath(place: XmlNode): string {
  const segments: string[] = [];
  for (let node: XmlNode | undefined = place; node !== undefined; node = node.parent) {
    const parent: XmlNode | undefined = node.parent;
    const siblings = parent === undefined ? [] : parent.children.filter((c) => c.name === node!.name);
    segments.push(siblings.length > 1 ? `${node.name}[${siblings.indexOf(node) + 1}]` : node.name);
  }
  return '/' + segments.reverse().join('/');
}

/** The element a libxml2 node path (`/*` `/*[2]/*`, `/bom:bom/bom:components[1]`) names in the tree. */
export function resolveLibxmlPath(root: XmlNode, xpath: string): XmlNode | undefined {
  const segments = xpath.split('/').slice(1);
  let node: XmlNode | undefined;
  for (const segment of segments) {
    const match = /^([^[]+)(?:\[(\d+)\])?$/.exec(segment);
    if (match === null) return undefined;
    const [, name, index] = match;
    const candidates = node === undefined ? [root] : node.children;
    const matching = name === '*' ? candidates : candidates.filter((c) => c.name === name);
    node = matching[index === undefined ? 0 : Number(index) - 1];
    if (node === undefined) return undefined;
  }
  return node;
}
