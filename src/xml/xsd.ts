/**
 * The XML ↔ model mapping of one CycloneDX version, derived from its official XSD: for every complex type, its
 * attributes and child elements in the order the XSD requires, which repeat (JSON arrays), which types are only
 * wrappers around a list (`<components><component/>…` → `components: […]`), and the JSON kind of every value.
 * Compiled at build time (src/build/xml-mapping.ts) from the XSDs in @cyclonedx/cyclonedx-library; the reader
 * (model.ts) and the writer (write.ts) both walk it, so the two directions cannot disagree.
 *
 * Where the two syntaxes genuinely differ, the difference is written down once, in SYNTAX_DIFFERENCES below.
 */
import { scanXml, type XmlNode } from './scan.js';

export type Scalar = 'string' | 'boolean' | 'integer' | 'number';

export interface MappedAttribute {
  readonly xml: string;
  readonly json: string;
  readonly scalar: Scalar;
}

export interface MappedElement {
  readonly xml: string;
  readonly json: string;
  /** It may repeat (maxOccurs > 1 on it or on a group around it): a JSON array. */
  readonly many: boolean;
  /** A scalar kind, or the index of a complex type in {@link XmlMapping.types}. */
  readonly type: Scalar | number;
  /** In a list wrapper of several kinds of item: how an item appears in JSON (see SYNTAX_DIFFERENCES). */
  readonly item?: 'wrapped' | 'inline';
  /** The element stands for the value of its `ref` attribute (a dependency inside a dependency). */
  readonly refOnly?: boolean;
  /** JSON allows one object or an array of them (1.6's evidence identity): repeated elements are the array. */
  readonly either?: boolean;
  /** Its members are the parent's in JSON (a data flow's `<classification flow="…">` → `classification`, `flow`). */
  readonly lifted?: boolean;
}

/**
 * How a complex type appears in JSON:
 * - `record`: an object of its attributes, elements and text;
 * - `list`: an array of its children (it has nothing else: `<hashes><hash/>…</hashes>`);
 * - `record-or-list`: a choice between a list and a record (`<tools>`: `<tool>`s, or `<components>`/`<services>`);
 * - `ref`: the string of its only attribute, `ref` (`<assembly ref="…"/>` → `"…"`);
 * - `choice`: the value of its one child, where JSON names no member for it (a patent's `<asserter><ref>…` → `"…"`).
 */
export type Shape = 'record' | 'list' | 'record-or-list' | 'ref' | 'choice';

export interface MappedType {
  /** The XSD's name for it, or the path of the element that declares it inline (for messages and tests). */
  readonly name: string;
  readonly shape: Shape;
  readonly attributes: readonly MappedAttribute[];
  readonly elements: readonly MappedElement[];
  /** Mixed content: the value may be the element's text alone (1.7's deprecated reference strings). */
  readonly mixed?: boolean;
  /** Simple content (`<hash alg="…">text</hash>`): the member the text becomes; `trim` for a token type. */
  readonly text?: { readonly json: string; readonly scalar: Scalar; readonly trim: boolean };
}

export interface XmlMapping {
  readonly version: string;
  /** The type of the root `<bom>` element. */
  readonly root: number;
  readonly types: readonly MappedType[];
}

/**
 * Every place where CycloneDX XML and JSON say the same thing differently, beyond what the XSD's structure tells
 * (elements that repeat, list wrappers, attributes, simple content):
 * - The root: `bomFormat` and `specVersion` are implied by the namespace; `$schema` has no XML form; XML
 *   signatures (`ds:Signature`) are not JSF `signature` members.
 * - Names: XML's hyphenated attribute names are camel case in JSON (`content-type` → `contentType`,
 *   `license-identifier` → `licenseIdentifier`); 1.7's `<expression-detailed><details>` is `expressionDetails`.
 * - Text content becomes `content`, except in a property (`value`), a data classification (`classification`) and a
 *   licence expression (`expression`).
 * - A licence choice (`<licenses>`) is a list whose items keep their kind in JSON: `<license>` → `{ license }`,
 *   `<expression>` and 1.7's `<expression-detailed>` → `{ expression, … }` with their attributes beside it.
 * - A dependency's nested `<dependency ref>` elements are the strings of `dependsOn`.
 * - A data flow's `<classification flow="…">text</classification>` is `classification` and `flow` of the flow.
 * - Other names: a protocol's `<cryptoRef>` is `cryptoRefArray`, an analysis's `<responses>` is `response`, a data
 *   governance party's `<individual>` is `contact`.
 */
const LICENCE_CHOICE = new Map<string, 'wrapped' | 'inline'>([
  ['license', 'wrapped'],
  ['expression', 'inline'],
  ['expression-detailed', 'inline'],
]);

const SYNTAX_DIFFERENCES = {
  names: new Map([
    ['content-type', 'contentType'],
    ['license-identifier', 'licenseIdentifier'],
  ]),
  /** Element renames within one type: `type name → (element → member)`. */
  elementNames: new Map([
    ['licenseExpressionDetailedType', new Map([['details', 'expressionDetails']])],
    ['dependencyType', new Map([['dependency', 'dependsOn']])],
    ['protocolProperties', new Map([['cryptoRef', 'cryptoRefArray']])],
    ['analysis', new Map([['responses', 'response']])],
    ['organizationOrIndividualType', new Map([['individual', 'contact']])],
  ]),
  /** Elements whose members stand in their parent in JSON: `type → elements`. */
  lifted: new Map([['dataflow', new Set(['classification'])]]),
  textNames: new Map([
    ['propertyType', 'value'],
    ['dataClassificationType', 'classification'],
    ['licenseExpressionType', 'expression'],
    // An inline licence expression (1.2–1.6 declare it inside the licence choice).
    ['expression', 'expression'],
  ]),
  /** List wrappers whose items keep their kind: element → how its item appears. */
  taggedLists: new Map<string, ReadonlyMap<string, 'wrapped' | 'inline'>>([
    ['licenseChoiceType', LICENCE_CHOICE],
    ['licenses', LICENCE_CHOICE],
  ]),
} as const;

const XS = 'http://www.w3.org/2001/XMLSchema';

/** A member name in JSON for an XML name. */
function jsonName(xml: string): string {
  return SYNTAX_DIFFERENCES.names.get(xml) ?? xml;
}

interface Declarations {
  readonly complexTypes: Map<string, XmlNode>;
  readonly simpleTypes: Map<string, XmlNode>;
  readonly attributeGroups: Map<string, XmlNode>;
  readonly elements: Map<string, XmlNode>;
}

/**
 * The mapping of a CycloneDX XSD (its text). Types of other namespaces (the SPDX licence ids) are strings.
 * Throws when the XSD uses a construct the mapping does not know, so a new CycloneDX version fails the build
 * instead of being read wrongly.
 */
export function compileXsd(version: string, xsdText: string, jsonSchema?: Record<string, unknown>): XmlMapping {
  const scanned = scanXml(xsdText);
  if (!scanned.ok) throw new Error(`The XSD of CycloneDX ${version} cannot be read: ${scanned.message}`);
  const schema = scanned.root;
  const declarations: Declarations = {
    complexTypes: new Map(),
    simpleTypes: new Map(),
    attributeGroups: new Map(),
    elements: new Map(),
  };
  for (const child of xsChildren(schema)) {
    const name = attribute(child, 'name');
    if (name === undefined) continue;
    if (child.local === 'complexType') declarations.complexTypes.set(name, child);
    else if (child.local === 'simpleType') declarations.simpleTypes.set(name, child);
    else if (child.local === 'attributeGroup') declarations.attributeGroups.set(name, child);
    else if (child.local === 'element') declarations.elements.set(name, child);
  }
  const compiler = new Compiler(declarations);
  const bom = declarations.elements.get('bom');
  if (bom === undefined) throw new Error(`The XSD of CycloneDX ${version} declares no <bom> element`);
  const root = compiler.elementType(bom, 'bom');
  if (typeof root !== 'number') throw new Error(`The XSD of CycloneDX ${version} declares <bom> as a simple type`);
  const aligned = jsonSchema === undefined ? root : new Aligner(compiler.types, jsonSchema).type(root, jsonSchema);
  for (const type of compiler.types) delete type.oneOf;
  return { version, ...minimized(compiler.types, aligned) };
}

/**
 * The types reachable from the root, with types that read and write alike merged (the aligned copies of one XSD
 * type mostly are): partition refinement, as for a finite automaton, so recursive types merge too.
 */
function minimized(types: readonly Draft[], root: number): { root: number; types: MappedType[] } {
  const reachable: number[] = [];
  const seen = new Set<number>();
  const visit = (index: number) => {
    if (seen.has(index)) return;
    seen.add(index);
    reachable.push(index);
    for (const element of types[index]!.elements) if (typeof element.type === 'number') visit(element.type);
  };
  visit(root);
  const signature = (index: number, classes: ReadonlyMap<number, number>) => {
    const type = types[index]!;
    return JSON.stringify({
      ...type,
      elements: type.elements.map((e) => ({
        ...e,
        type: typeof e.type === 'number' ? `#${classes.get(e.type)}` : e.type,
      })),
    });
  };
  let classes = new Map(reachable.map((i) => [i, 0]));
  for (let count = 1; ;) {
    const ids = new Map<string, number>();
    const next = new Map<number, number>();
    for (const index of reachable) {
      const key = `${classes.get(index)}|${signature(index, classes)}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      next.set(index, id);
    }
    classes = next;
    if (ids.size === count) break;
    count = ids.size;
  }
  const out: MappedType[] = [];
  const placed = new Map<number, number>();
  for (const index of reachable) {
    const id = classes.get(index)!;
    if (placed.has(id)) continue;
    placed.set(id, out.length);
    out.push(types[index]!);
  }
  const renumber = (index: number) => placed.get(classes.get(index)!)!;
  return {
    root: renumber(root),
    types: out.map((type) => ({
      ...type,
      elements: type.elements.map((e) => ({ ...e, type: typeof e.type === 'number' ? renumber(e.type) : e.type })),
    })),
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
interface Draft {
  name: string;
  shape: Shape;
  attributes: Mutable<MappedAttribute>[];
  elements: Mutable<MappedElement>[];
  text?: { json: string; scalar: Scalar; trim: boolean };
  mixed?: boolean;
  /** Its content is one choice of single elements (compile time only). */
  oneOf?: boolean;
}

/**
 * The JSON side of the mapping from the same version's JSON schema, walked alongside the XSD's types: whether a
 * member is an array in JSON (the 1.2 XSD lets `<manufacture>` repeat where JSON has one object), the JSON kind of
 * a scalar, and names the XSD spells otherwise. An XSD type used where JSON says different things (a party that
 * is `{ organization }` in one place and the organisation itself in another) gets one aligned copy per JSON
 * schema it meets. Only what the JSON schema states is changed.
 */
class Aligner {
  private readonly aligned = new Map<string, number>();
  private readonly schemaIds = new Map<object, number>();
  private readonly pristine: readonly Draft[];
  private readonly used = new Set<number>();

  constructor(
    private readonly types: Draft[],
    private readonly schema: Record<string, unknown>,
  ) {
    this.pristine = structuredClone(types);
  }

  /** The type to use for XSD type `index` where JSON has `schema`: the index of an aligned copy. */
  type(index: number, schema: unknown): number {
    const resolved = this.resolve(schema);
    if (resolved.length === 0) return index;
    const key = `${index}:${resolved.map((s) => this.idOf(s)).join(',')}`;
    const known = this.aligned.get(key);
    if (known !== undefined) return known;
    // The first context keeps the type in place; every further one works on a copy of the XSD's own reading.
    let at = index;
    if (this.used.has(index)) {
      at = this.types.length;
      this.types.push(structuredClone(this.pristine[index]!));
    }
    this.used.add(index);
    this.aligned.set(key, at);
    this.align(this.types[at]!, resolved);
    return at;
  }

  private align(type: Draft, resolved: Record<string, unknown>[]): void {
    if (type.shape === 'ref') return;
    const isArray = resolved.some((s) => s.type === 'array');
    // A whole record the XSD lets repeat (`<xs:sequence maxOccurs="unbounded">` around a release note's members)
    // is one object in JSON.
    if (type.shape === 'list' && !isArray && resolved.some((s) => isObject(s.properties))) type.shape = 'record';
    if (type.shape === 'list' || type.shape === 'record-or-list') {
      const items = resolved.flatMap((s) => this.resolve(s.items));
      for (const element of type.elements) {
        if (type.shape === 'record-or-list' && !element.many) continue;
        // Items that hold the element under its own name (`<copyright><text>…` → `[{ text }]`), unless an item
        // may be the element's value itself (`<environmentVars><value>…` → `["…"]`).
        if (
          element.item === undefined &&
          !this.holds({ anyOf: items }, element.type) &&
          this.holds(propertyOf(items, element.json), element.type)
        )
          element.item = 'wrapped';
        const itemSchema = element.item === 'wrapped' ? propertyOf(items, element.json) : { anyOf: items };
        if (typeof element.type !== 'number') element.type = this.scalarOf(itemSchema) ?? element.type;
        else if (items.length > 0) element.type = this.type(element.type, itemSchema);
      }
      if (type.shape === 'list') return;
    }
    // A record (or the record branch of a record-or-list).
    const properties = (name: string) => propertyOf(resolved, name);
    for (const attribute of type.attributes) {
      let property = properties(attribute.json);
      if (property === undefined) {
        const camel = camelCase(attribute.xml);
        if (properties(camel) !== undefined) {
          attribute.json = camel;
          property = properties(camel);
        }
      }
      const scalar = this.scalarOf(property);
      if (scalar !== undefined) attribute.scalar = scalar;
    }
    // One child whose value is the member itself, where JSON has no member for a choice (a patent's asserter is
    // an organisation, a contact or a ref, not `{ organization }`).
    if (type.oneOf === true && type.elements.some((e) => properties(e.json) === undefined)) {
      type.shape = 'choice';
      for (const element of type.elements)
        if (typeof element.type === 'number') element.type = this.type(element.type, { anyOf: resolved });
        else element.type = this.scalarOf({ anyOf: resolved }) ?? element.type;
      return;
    }
    for (const element of type.elements) {
      if ((type.shape === 'record-or-list' && element.many) || element.refOnly === true) continue;
      if (element.lifted === true) {
        if (typeof element.type === 'number') element.type = this.type(element.type, { anyOf: resolved });
        continue;
      }
      const property = properties(element.json);
      if (property === undefined) continue;
      const target = typeof element.type === 'number' ? this.pristine[element.type] : undefined;
      // The branches that say what the member is (a oneOf's holder says nothing itself).
      const branches = this.resolve(property).filter((b) => b.type !== undefined || isObject(b.properties));
      const arrays = branches.filter((b) => b.type === 'array');
      if (target !== undefined && (target.shape === 'list' || target.shape === 'record-or-list') && arrays.length > 0) {
        // A wrapper: the JSON array is its items, not the wrapper repeated.
        element.many = false;
        element.type = this.type(element.type as number, property);
        continue;
      }
      // Where JSON allows one object or an array but deprecates the single object (1.6's evidence identity), the
      // array is the form read.
      const current = branches.filter((b) => b.deprecated !== true);
      if (arrays.length > 0 && (arrays.length === branches.length || current.every((b) => b.type === 'array'))) {
        element.many = true;
        const items = arrays.flatMap((a) => this.resolve(a.items));
        if (typeof element.type === 'number') element.type = this.type(element.type, { anyOf: items });
        else element.type = this.scalarOf({ anyOf: items }) ?? element.type;
      } else {
        // One object, or (where JSON allows both) one object when the element appears once.
        element.many = false;
        if (arrays.length > 0) element.either = true;
        const single = arrays.length === 0 ? property : { anyOf: branches.filter((b) => b.type !== 'array') };
        if (typeof element.type === 'number') element.type = this.type(element.type, single);
        else element.type = this.scalarOf(single) ?? element.type;
      }
    }
    if (type.text !== undefined) {
      const scalar = this.scalarOf(properties(type.text.json));
      if (scalar !== undefined) type.text = { ...type.text, scalar };
    }
  }

  /** Whether a member's schema can hold an element of this type (a scalar for a scalar, an object for a record). */
  private holds(member: unknown, type: Scalar | number): boolean {
    if (member === undefined) return false;
    const kinds = this.resolve(member).map((s) => s.type);
    if (typeof type !== 'number') return kinds.includes(type);
    return kinds.includes('object') || this.resolve(member).some((s) => isObject(s.properties));
  }

  /** The object schemas a schema stands for: $refs followed, oneOf/anyOf/allOf branches flattened. */
  private resolve(schema: unknown, depth = 0): Record<string, unknown>[] {
    if (!isObject(schema) || depth > 32) return [];
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/definitions/')) return [];
      const definitions = this.schema.definitions;
      if (!isObject(definitions)) return [];
      const targets = this.resolve(definitions[ref.slice('#/definitions/'.length)], depth + 1);
      // A deprecated reference (`{ "$ref": …, "deprecated": true }`) makes what it names deprecated here.
      return schema.deprecated === true ? targets.map((t) => this.deprecatedCopy(t)) : targets;
    }
    const branches = [schema.oneOf, schema.anyOf, schema.allOf].flatMap((b) => (Array.isArray(b) ? b : []));
    if (branches.length > 0) return [schema, ...branches.flatMap((b) => this.resolve(b, depth + 1))];
    return [schema];
  }

  private readonly deprecatedCopies = new Map<object, Record<string, unknown>>();

  private deprecatedCopy(schema: Record<string, unknown>): Record<string, unknown> {
    let copy = this.deprecatedCopies.get(schema);
    if (copy === undefined) this.deprecatedCopies.set(schema, (copy = { ...schema, deprecated: true }));
    return copy;
  }

  private scalarOf(schema: unknown): Scalar | undefined {
    const kinds = new Set(this.resolve(schema).flatMap((s) => (typeof s.type === 'string' ? [s.type] : [])));
    if (kinds.size !== 1) return undefined;
    const [kind] = kinds;
    return kind === 'integer' || kind === 'number' || kind === 'boolean' || kind === 'string' ? kind : undefined;
  }

  private idOf(schema: object): number {
    let id = this.schemaIds.get(schema);
    if (id === undefined) this.schemaIds.set(schema, (id = this.schemaIds.size));
    return id;
  }
}

function propertyOf(schemas: readonly Record<string, unknown>[], name: string): unknown {
  for (const schema of schemas) {
    const properties = schema.properties;
    if (isObject(properties) && Object.hasOwn(properties, name)) return properties[name];
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

class Compiler {
  readonly types: Draft[] = [];
  private readonly named = new Map<string, number>();

  constructor(private readonly declarations: Declarations) {}

  /** The type of an element declaration: a scalar, or the index of its complex type. */
  elementType(element: XmlNode, path: string): Scalar | number {
    const typeName = attribute(element, 'type');
    if (typeName !== undefined) return this.typeByName(typeName);
    const inline = xsChildren(element).find((c) => c.local === 'complexType' || c.local === 'simpleType');
    if (inline === undefined) return 'string';
    if (inline.local === 'simpleType') return this.simpleScalar(inline);
    return this.compileComplex(inline, path);
  }

  private typeByName(qualified: string): Scalar | number {
    const [prefix, local] = splitQName(qualified);
    if (prefix === 'xs' || prefix === 'xsd') return builtinScalar(local);
    if (prefix !== 'bom' && prefix !== undefined) return 'string';
    const known = this.named.get(local);
    if (known !== undefined) return known;
    const complex = this.declarations.complexTypes.get(local);
    if (complex !== undefined) return this.compileComplex(complex, local);
    const simple = this.declarations.simpleTypes.get(local);
    if (simple !== undefined) return this.simpleScalar(simple);
    throw new Error(`The XSD names an unknown type ${qualified}`);
  }

  /** Whether a simple type's text has its white space collapsed (XSD's whiteSpace facet): all but strings. */
  private collapses(qualified: string, depth = 0): boolean {
    const [prefix, local] = splitQName(qualified);
    if (prefix === 'xs' || prefix === 'xsd') return local !== 'string' && local !== 'normalizedString';
    const simple = this.declarations.simpleTypes.get(local);
    const restriction = simple === undefined ? undefined : xsChildren(simple).find((c) => c.local === 'restriction');
    const base = restriction === undefined ? undefined : attribute(restriction, 'base');
    return base !== undefined && depth < 16 && this.collapses(base, depth + 1);
  }

  private simpleScalar(simple: XmlNode): Scalar {
    for (const child of xsChildren(simple)) {
      if (child.local === 'restriction') {
        const base = attribute(child, 'base');
        if (base === undefined) return 'string';
        const scalar = this.typeByName(base);
        return typeof scalar === 'number' ? 'string' : scalar;
      }
      // A union or a list reads as text: no CycloneDX union mixes numbers with words in a way JSON would keep.
      if (child.local === 'union' || child.local === 'list') return 'string';
    }
    return 'string';
  }

  private compileComplex(node: XmlNode, name: string): number {
    const index = this.types.length;
    // Registered before its members are compiled: types are recursive (a component holds components).
    if (node.parent?.local === 'schema') this.named.set(name, index);
    const draft: Draft = { name, shape: 'record', attributes: [], elements: [] };
    this.types.push(draft);
    let topChoice = false;
    const branches: { many: boolean }[][] = [];
    for (const child of xsChildren(node)) {
      switch (child.local) {
        case 'attribute':
          this.addAttribute(draft.attributes, child);
          break;
        case 'attributeGroup':
          this.addAttributeGroup(draft.attributes, child);
          break;
        case 'anyAttribute':
        case 'annotation':
        case 'assert':
          break;
        case 'sequence':
        case 'choice':
          topChoice = child.local === 'choice';
          this.addParticles(draft, child, false, name, topChoice ? branches : undefined);
          break;
        case 'simpleContent':
          this.addSimpleContent(draft, child, name);
          break;
        default:
          throw new Error(`The XSD's type ${name} uses <xs:${child.local}>, which the XML mapping does not know`);
      }
    }
    if (attribute(node, 'mixed') === 'true') draft.mixed = true;
    dedupeElements(draft);
    draft.shape = shapeOf(draft, topChoice ? branches : undefined);
    draft.oneOf =
      topChoice && draft.attributes.length === 0 && draft.elements.length > 1 && draft.elements.every((e) => !e.many);
    return index;
  }

  private addAttribute(into: MappedAttribute[], node: XmlNode): void {
    const name = attribute(node, 'name');
    if (name === undefined) return; // `ref="xml:lang"` and the like: not part of the model
    const typeName = attribute(node, 'type');
    let scalar: Scalar = 'string';
    if (typeName !== undefined) {
      const type = this.typeByName(typeName);
      scalar = typeof type === 'number' ? 'string' : type;
    } else {
      const inline = xsChildren(node).find((c) => c.local === 'simpleType');
      if (inline !== undefined) scalar = this.simpleScalar(inline);
    }
    into.push({ xml: name, json: jsonName(name), scalar });
  }

  private addAttributeGroup(into: MappedAttribute[], node: XmlNode): void {
    const ref = attribute(node, 'ref');
    const group = ref === undefined ? node : this.declarations.attributeGroups.get(splitQName(ref)[1]);
    if (group === undefined) throw new Error(`The XSD names an unknown attribute group ${ref}`);
    for (const child of xsChildren(group)) {
      if (child.local === 'attribute') this.addAttribute(into, child);
      else if (child.local === 'attributeGroup') this.addAttributeGroup(into, child);
    }
  }

  private addSimpleContent(draft: Draft, node: XmlNode, name: string): void {
    const derivation = xsChildren(node).find((c) => c.local === 'extension' || c.local === 'restriction');
    const base = derivation === undefined ? undefined : attribute(derivation, 'base');
    const baseType = base === undefined ? 'string' : this.typeByName(base);
    let scalar: Scalar = 'string';
    let trim = base === undefined ? false : this.collapses(base);
    if (typeof baseType === 'number') {
      // Extending a type that has simple content itself (a hash extends hashValue's pattern): its text and attributes.
      const inherited = this.types[baseType]!;
      scalar = inherited.text?.scalar ?? 'string';
      trim = inherited.text?.trim ?? false;
      draft.attributes.push(...inherited.attributes);
    } else scalar = baseType;
    draft.text = { json: special(SYNTAX_DIFFERENCES.textNames, name) ?? 'content', scalar, trim };
    for (const child of derivation === undefined ? [] : xsChildren(derivation)) {
      if (child.local === 'attribute') this.addAttribute(draft.attributes, child);
      else if (child.local === 'attributeGroup') this.addAttributeGroup(draft.attributes, child);
    }
  }

  /**
   * The elements of a sequence or choice, flattened in document order; `many` when the element or any group
   * around it may repeat. For a choice at the top of a type, each branch's elements are also collected apart.
   */
  private addParticles(
    draft: { elements: MappedElement[] },
    group: XmlNode,
    repeated: boolean,
    typeName: string,
    branches: { many: boolean }[][] | undefined,
  ): void {
    const groupRepeats = repeated || repeats(group);
    for (const particle of xsChildren(group)) {
      const branch: { many: boolean }[] = [];
      const before = draft.elements.length;
      if (particle.local === 'element') this.addElement(draft, particle, groupRepeats, typeName);
      else if (particle.local === 'sequence' || particle.local === 'choice')
        this.addParticles(draft, particle, groupRepeats, typeName, undefined);
      else if (particle.local === 'any' || particle.local === 'annotation') continue;
      else
        throw new Error(`The XSD's type ${typeName} uses <xs:${particle.local}>, which the XML mapping does not know`);
      branch.push(...draft.elements.slice(before));
      branches?.push(branch);
    }
  }

  private addElement(draft: { elements: MappedElement[] }, node: XmlNode, repeated: boolean, typeName: string): void {
    let declaration = node;
    const ref = attribute(node, 'ref');
    if (ref !== undefined) {
      const global = this.declarations.elements.get(splitQName(ref)[1]);
      if (global === undefined) throw new Error(`The XSD names an unknown element ${ref}`);
      declaration = global;
    }
    const xml = attribute(declaration, 'name');
    if (xml === undefined) throw new Error(`The XSD's type ${typeName} has an element without a name`);
    const many = repeated || repeats(node);
    const type = this.elementType(declaration, `${typeName}/${xml}`);
    const json = special(SYNTAX_DIFFERENCES.elementNames, typeName)?.get(xml) ?? jsonName(xml);
    const item = special(SYNTAX_DIFFERENCES.taggedLists, typeName)?.get(xml);
    const refOnly = typeName === 'dependencyType' && xml === 'dependency';
    const lifted = special(SYNTAX_DIFFERENCES.lifted, typeName)?.has(xml) === true;
    draft.elements.push({
      xml,
      json,
      many,
      type,
      ...(item === undefined ? {} : { item }),
      ...(refOnly ? { refOnly } : {}),
      ...(lifted ? { lifted } : {}),
    });
  }
}

/**
 * One declaration per element name. A name in several branches of a choice (a certificate state's `<reason>`
 * follows `<state>` in one branch and `<description>` in the other) stands at its last place, which follows what
 * precedes it in every branch.
 */
function dedupeElements(draft: Draft): void {
  const last = new Map<string, number>();
  draft.elements.forEach((e, i) => last.set(e.xml, i));
  if (last.size === draft.elements.length) return;
  const first = new Map<string, Mutable<MappedElement>>();
  for (const e of draft.elements) if (!first.has(e.xml)) first.set(e.xml, e);
  draft.elements = draft.elements.filter((e, i) => last.get(e.xml) === i).map((e) => first.get(e.xml)!);
}

/** A special case for a type: by the XSD's name for it, else by the element that declares it inline. */
function special<T>(table: ReadonlyMap<string, T>, typeName: string): T | undefined {
  return table.get(typeName) ?? table.get(typeName.slice(typeName.lastIndexOf('/') + 1));
}

function shapeOf(
  draft: {
    attributes: readonly MappedAttribute[];
    elements: readonly MappedElement[];
    text?: unknown;
  },
  topChoiceBranches: readonly (readonly { many: boolean }[])[] | undefined,
): Shape {
  const { attributes, elements } = draft;
  if (draft.text !== undefined) return 'record';
  if (elements.length === 0) return attributes.length === 1 && attributes[0]!.xml === 'ref' ? 'ref' : 'record';
  if (attributes.length > 0) return 'record';
  if (elements.some((e) => e.item !== undefined) || elements.every((e) => e.many)) return 'list';
  // A choice between repeated items and a record (`<tools>`): which one, the children tell.
  if (
    topChoiceBranches !== undefined &&
    topChoiceBranches.some((b) => b.length > 0 && b.every((e) => e.many)) &&
    topChoiceBranches.some((b) => b.length > 0 && b.every((e) => !e.many))
  )
    return 'record-or-list';
  return 'record';
}

function repeats(node: XmlNode): boolean {
  const max = attribute(node, 'maxOccurs');
  return max === 'unbounded' || (max !== undefined && Number(max) > 1);
}

function builtinScalar(local: string): Scalar {
  switch (local) {
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'int':
    case 'long':
    case 'short':
    case 'positiveInteger':
    case 'nonNegativeInteger':
    case 'negativeInteger':
    case 'nonPositiveInteger':
    case 'unsignedInt':
    case 'unsignedLong':
    case 'unsignedShort':
      return 'integer';
    case 'decimal':
    case 'double':
    case 'float':
      return 'number';
    default:
      return 'string';
  }
}

function xsChildren(node: XmlNode): XmlNode[] {
  return node.children.filter((c) => c.namespace === XS);
}

function attribute(node: XmlNode, name: string): string | undefined {
  return node.attributes.find((a) => a.namespace === undefined && a.local === name)?.value;
}

function splitQName(qualified: string): [string | undefined, string] {
  const colon = qualified.indexOf(':');
  return colon === -1 ? [undefined, qualified] : [qualified.slice(0, colon), qualified.slice(colon + 1)];
}
