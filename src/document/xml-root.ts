/** Whether an XML root is a CycloneDX `<bom>` of a version bomwright reads: the namespace names the version. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { truncate } from '../values.js';
import { supportedNamespacesText, xmlSpecVersion, XML_NAMESPACE_PREFIX } from '../xml/versions.js';

/** Why the root is not a CycloneDX BOM this version of bomwright reads; undefined when it is one. */
export function xmlRootProblem(
  root: { name: string; local: string; namespace: string | undefined },
  forced?: string,
): Omit<Diagnostic, 'line' | 'column'> | undefined {
  const namespace = root.namespace;
  if (root.local !== 'bom' || namespace === undefined || !namespace.startsWith(XML_NAMESPACE_PREFIX)) {
    const shown = namespace === undefined ? `<${root.name}>` : `<${root.name}> in namespace ${namespace}`;
    return {
      ruleId: 'bom/not-a-bom',
      severity: 'error',
      message: `The XML document's root is ${truncate(shown, 120)}, not a CycloneDX <bom>`,
      pointer: '',
    };
  }
  const version = xmlSpecVersion(namespace);
  if (version === undefined) {
    return {
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: `XML namespace ${truncate(namespace, 80)} is not a supported CycloneDX version; supported: ${supportedNamespacesText()}`,
      pointer: '/bom',
    };
  }
  if (forced !== undefined && forced !== version) {
    return {
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: `--spec-version ${truncate(forced, 20)} does not apply to XML: the namespace of this document says ${version}`,
      pointer: '/bom',
    };
  }
  return undefined;
}
