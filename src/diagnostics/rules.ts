/** How bad a finding is: errors fail a run, warnings fail it only past --max-warnings. */
export type Severity = 'error' | 'warning';

export interface RuleInfo {
  readonly severity: Severity;
  /** Short description, used by SARIF and the rule index (docs/rules/README.md). */
  readonly description: string;
  /** How to fix it. */
  readonly hint: string;
}

/** Every rule bomwright reports. Ids are stable: CI configurations and SARIF baselines match on them. */
export const RULES = {
  'read/empty': {
    severity: 'error',
    description: 'The file is empty or contains only white space',
    hint: 'Write a JSON BOM document into the file, or remove it',
  },
  'read/too-large': {
    severity: 'error',
    description: 'The file is larger than --max-size',
    hint: 'Raise --max-size if the document is genuine',
  },
  'read/invalid-utf8': {
    severity: 'error',
    description: 'The file is not valid UTF-8',
    hint: 'JSON documents must be UTF-8 (RFC 8259); re-encode the file',
  },
  'read/unsupported-encoding': {
    severity: 'error',
    description:
      'The file starts with a UTF-16 or UTF-32 byte-order mark, or its XML declaration names an encoding other than UTF-8',
    hint: 'JSON documents must be UTF-8 (RFC 8259), and bomwright reads XML in UTF-8; re-encode the file',
  },
  'read/byte-order-mark': {
    severity: 'warning',
    description: 'The file starts with a UTF-8 byte-order mark',
    hint: 'Remove the byte-order mark; RFC 8259 forbids emitting it and some parsers reject it',
  },
  'json/syntax': {
    severity: 'error',
    description: 'The file is not well-formed JSON',
    hint: 'Fix the JSON syntax at the reported position',
  },
  'json/duplicate-key': {
    severity: 'error',
    description: 'An object has two members with the same name',
    hint: 'Remove one of them: parsers disagree on which one wins, so a signed document could mean two things',
  },
  'json/lone-surrogate': {
    severity: 'error',
    description: 'A string contains an unpaired UTF-16 surrogate escape',
    hint: 'Escape the full surrogate pair, or remove the stray \\uD8xx-\\uDFxx escape',
  },
  'json/too-deep': {
    severity: 'error',
    description: 'The document nests objects and arrays deeper than 512 levels',
    hint: 'No BOM needs this depth; the document is probably generated incorrectly or hostile',
  },
  'xml/syntax': {
    severity: 'error',
    description: 'The file is not well-formed XML',
    hint: 'Fix the XML at the reported position',
  },
  'xml/doctype': {
    severity: 'error',
    description: 'An XML document has a DOCTYPE (a DTD, entity declarations)',
    hint: 'CycloneDX XML needs no DTD: remove the DOCTYPE; bomwright never loads DTDs or expands declared entities',
  },
  'xml/too-deep': {
    severity: 'error',
    description: 'An XML document nests elements deeper than 256 levels',
    hint: 'No BOM needs this depth; the document is probably generated incorrectly or hostile',
  },
  'bom/not-a-bom': {
    severity: 'error',
    description: 'The JSON document is not a bill of materials',
    hint: 'A BOM is a JSON object with "bomFormat" and "specVersion"',
  },
  'bom/unsupported-version': {
    severity: 'error',
    description: 'bomFormat/specVersion is missing, not a string, or not a supported version',
    hint: 'Set "specVersion" to a supported version, or force one with --spec-version',
  },
  'bom/serial-number': {
    severity: 'error',
    description: 'serialNumber is not "urn:uuid:" followed by a lower-case 8-4-4-4-12 hexadecimal UUID',
    hint: 'Use a lower-case RFC 4122 UUID, e.g. urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
  },
  'bom/serial-number-nil': {
    severity: 'warning',
    description: 'serialNumber is the nil UUID',
    hint: 'Generate a random (version 4) UUID; the nil UUID identifies nothing',
  },
  'bom/serial-number-variant': {
    severity: 'warning',
    description: 'serialNumber is not an RFC 4122 UUID (wrong variant or version)',
    hint: 'Generate a random (version 4) UUID',
  },
  'bom/version': {
    severity: 'error',
    description: 'version is not a whole number from 1 to 2^53 - 1 (beyond that, parsers cannot hold it exactly)',
    hint: 'Start at 1 and increment by 1 whenever the document is modified',
  },
  'bom/version-rule': {
    severity: 'error',
    description:
      'A changed document must keep its serialNumber and have version = previous version + 1; an unchanged one keeps its version',
    hint: 'Run bomwright bump FILE (it increments version, refreshes the timestamp and keeps the serial number)',
  },
  'cbom/spec-version': {
    severity: 'error',
    description: 'A CBOM specVersion must have the form <major.minor>-cbom-<major.minor> and be supported',
    hint: 'Use "1.4-cbom-1.0"',
  },
  'cbom/schema-address': {
    severity: 'error',
    description: 'The CBOM "$schema" member is not the fixed CBOM schema address',
    hint: 'Use https://raw.githubusercontent.com/IBM/CBOM/main/bom-1.4-cbom-1.0.schema.json or drop "$schema"',
  },
  'ref/duplicate-bom-ref': {
    severity: 'error',
    description: 'Two elements share one bom-ref',
    hint: 'Every bom-ref must be unique across the document, metadata.component included',
  },
  'ref/unresolved': {
    severity: 'error',
    description:
      'A dependency reference (ref, dependsOn, provides) does not resolve to any bom-ref; or, from 1.5, a BOM-Link stands where only this document counts (the dependency graph), or is malformed where one may stand',
    hint: "Add the referenced element or fix the reference; a BOM-Link to another document belongs in externalReferences (compositions, vulnerabilities and annotations may name another BOM's element)",
  },
  'cbom/repeated-dependency': {
    severity: 'error',
    description: 'A CBOM ref appears in more than one dependency entry of the same dependencyType',
    hint: 'A ref may have at most one "implements" entry and one "uses" entry; merge the others',
  },
  'signature/missing': {
    severity: 'error',
    description: 'The document has no root signature although signatures are required',
    hint: 'Sign the document (bomwright sign), or drop --signatures require',
  },
  'signature/invalid': {
    severity: 'error',
    description: 'A signature (JSF or XML) is malformed or does not match the signed data',
    hint: 'The object changed after signing, or the signature is damaged: re-sign it (bomwright sign)',
  },
  'signature/unverifiable': {
    severity: 'error',
    description:
      'A signature names a key (JSF keyId, XML KeyName, or none) that is not available, so it cannot be checked',
    hint: 'Give the key with --trust; a gate fails closed, --allow-unverifiable makes this a warning',
  },
  'signature/misplaced': {
    severity: 'error',
    description: "A signature stands where the document's format allows none",
    hint: 'Sign a place the spec version allows (the root, components, services, …; none before 1.4), or remove it',
  },
  'signature/unsafe-number': {
    severity: 'error',
    description:
      'A signed object holds a number beyond 2^53 that parsers cannot hold exactly, so the signature cannot protect it',
    hint: 'Write such numbers as strings before signing: edits that parse to the same double would still verify',
  },
  'signature/untrusted': {
    severity: 'warning',
    description: 'A signature (JSF or XML) is valid, but its key is not trusted',
    hint: 'Pin the key with --trust, or give the root of its certificate path with --trust-root; an error with --require-trusted',
  },
  'schema/type': {
    severity: 'error',
    description: 'A value has the wrong JSON type',
    hint: 'Use the type the schema requires',
  },
  'schema/required': {
    severity: 'error',
    description: 'A required member is missing',
    hint: 'Add the member',
  },
  'schema/additional-property': {
    severity: 'error',
    description: 'An object has a member its schema does not define',
    hint: 'Remove the member or check its spelling; use "properties" for custom data',
  },
  'schema/enum': {
    severity: 'error',
    description: 'A value is not one of the allowed values',
    hint: 'Use one of the values the specification lists',
  },
  'schema/const': {
    severity: 'error',
    description: 'A value differs from the only allowed value',
    hint: 'Use the value the specification requires',
  },
  'schema/format': {
    severity: 'error',
    description: 'A string does not match its format (date-time, email, IRI reference, ...)',
    hint: 'Write the value in the required format',
  },
  'schema/pattern': {
    severity: 'error',
    description: 'A string does not match its required pattern',
    hint: 'Write the value in the required form',
  },
  'schema/unique-items': {
    severity: 'error',
    description: 'An array that must hold unique items contains two equal items',
    hint: 'Remove the duplicate',
  },
  'schema/alternatives': {
    severity: 'error',
    description: 'A value matches none (or more than one) of the alternative forms the schema allows',
    hint: 'Use exactly one of the forms the specification allows',
  },
  'schema/bounds': {
    severity: 'error',
    description: 'A value is out of its allowed range, length or size',
    hint: 'Keep the value within the bounds the specification sets',
  },
  'schema/other': {
    severity: 'error',
    description: 'The document violates its JSON schema in another way',
    hint: 'See the message for the constraint that failed',
  },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];
