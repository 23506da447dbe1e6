/** The CycloneDX XML versions: the namespace a document's root names, and the official XSD that applies. */

export const XML_NAMESPACE_PREFIX = 'http://cyclonedx.org/schema/bom/';

export const XML_SPEC_VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7'] as const;
export type XmlSpecVersion = (typeof XML_SPEC_VERSIONS)[number];

/** The spec version a root namespace names, or undefined when it names none bomwright supports. */
export function xmlSpecVersion(namespace: string | undefined): XmlSpecVersion | undefined {
  if (namespace === undefined || !namespace.startsWith(XML_NAMESPACE_PREFIX)) return undefined;
  const version = namespace.slice(XML_NAMESPACE_PREFIX.length);
  return (XML_SPEC_VERSIONS as readonly string[]).includes(version) ? (version as XmlSpecVersion) : undefined;
}

/** The file in @cyclonedx/cyclonedx-library's res/schema/ for a version. */
export function xsdFile(version: XmlSpecVersion): string {
  return `bom-${version}.SNAPSHOT.xsd`;
}

export function supportedNamespacesText(): string {
  return `${XML_NAMESPACE_PREFIX}{${XML_SPEC_VERSIONS.join(',')}}`;
}
