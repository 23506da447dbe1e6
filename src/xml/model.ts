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
  const sources = new WeakMap<object, XmlNode | XmlNode[]>();
  // Arrays of references (dependsOn, provides): each item is its element's `ref` attribute.
  const refLists = new WeakSet<object>();

  const inNamespace = (node: XmlNode) => node.namespace === namespace;

  const attributeValue = (node: XmlNode, attribute: XmlAttribute): unknown => {
    if (node === root && attribute.local === 'version' && /^[0-9]+$/.test(attribute.value)) {
      const n = Number(attribute.value);
      return Number.isSafeInteger(n) ? n : attribute.value;
    }
    return attribute.value;
  };

  const mapNode = (node: XmlNode): unknown => {
    const elements = node.children.filter(inNamespace);
    const attributes = node.attributes.filter((a) => a.namespace === undefined);
    if (node.local === 'dependency' && node !== root) return mapDependency(node, elements, attributes);
    if (COLLECTIONS.has(node.local) && attributes.length === 0 && sameName(elements) && node !== root) {
      const items = elements.map(mapNode);
      sources.set(items, elements);
      return items;
    }
    if (elements.length === 0 && attributes.length === 0 && node !== root) return node.text.trim();
    const record: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const attribute of attributes) record[attribute.local] = attributeValue(node, attribute);
    const groups = new Map<string, XmlNode[]>();
    for (const element of elements) {
      const group = groups.get(element.local);
      if (group) group.push(element);
      else groups.set(element.local, [element]);
    }
    for (const [name, group] of groups) {
      if (group.length === 1) record[name] = mapNode(group[0]!);
      else {
        const items = group.map(mapNode);
        sources.set(items, group);
        record[name] = items;
      }
    }
    if (elements.length === 0 && node.text.trim() !== '')
      record[node.local === 'property' ? 'value' : 'content'] = node.text;
    // A plain object, as JSON.parse makes: the rules and the comparison treat the model like parsed JSON.
    const plain = { ...record };
    sources.set(plain, node);
    return plain;
  };

  /** `<dependency ref="a"><dependency ref="b"/><provides ref="c"/></dependency>` → { ref, dependsOn, provides }. */
  const mapDependency = (node: XmlNode, elements: XmlNode[], attributes: XmlAttribute[]): unknown => {
    const record: Record<string, unknown> = {};
    for (const attribute of attributes) record[attribute.local] = attribute.value;
    for (const list of ['dependency', 'provides'] as const) {
      const items = elements.filter((e) => e.local === list);
      if (items.length === 0) continue;
      const values = items.map((e) => e.attributes.find((a) => a.local === 'ref' && a.namespace === undefined)?.value);
      sources.set(values, items);
      refLists.add(values);
      record[list === 'dependency' ? 'dependsOn' : 'provides'] = values;
    }
    sources.set(record, node);
    return record;
  };

  const body = mapNode(root) as Record<string, unknown>;
  const document: Record<string, unknown> = { bomFormat: 'CycloneDX', specVersion, ...body };
  sources.set(document, root);

  const locate = (pointer: string): XmlPlace | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
    let value: unknown = document;
    let node: XmlNode = root;
    let attribute: XmlAttribute | undefined;
    for (const segment of segments) {
      if (value === null || typeof value !== 'object' || attribute !== undefined) return undefined;
      const source = sources.get(value);
      const next: unknown = Array.isArray(value) ? value[Number(segment)] : (value as Record<string, unknown>)[segment];
      if (Array.isArray(source)) {
        const item = source[Number(segment)];
        if (item === undefined) return undefined;
        node = item;
        if (refLists.has(value))
          attribute = item.attributes.find((a) => a.local === 'ref' && a.namespace === undefined);
      } else if (source !== undefined) {
        const known = next !== null && typeof next === 'object' ? nodeOf(next, sources) : undefined;
        if (known !== undefined) node = known;
        else {
          attribute = source.attributes.find((a) => a.local === segment && a.namespace === undefined);
          if (attribute === undefined)
            node = source.children.find((c) => c.local === segment && c.namespace === namespace) ?? source;
        }
      }
      value = next;
    }
    return attribute === undefined
      ? { path: xmlPath(node), offset: node.offset }
      : { path: `${xmlPath(node)}/@${attribute.name}`, offset: attribute.offset };
  };

  return { document, locate };
}

function nodeOf(value: object, sources: WeakMap<object, XmlNode | XmlNode[]>): XmlNode | undefined {
  const source = sources.get(value);
  if (source === undefined) return undefined;
  if (!Array.isArray(source)) return source;
  // An array's own place is its container element (the parent of its items), when they share one.
  return source[0]?.parent;
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
