/**
 * The OData namespace of type names. The spec names types `#vendor.graph.*`, the real service and its SDKs'
 * typed models `#microsoft.graph.*` (Kiota's models pick the class of a FIDO2 method by it). With
 * `odataNamespace: 'microsoft.graph'` the transport renames type names on the way out and back on the way in, so
 * the handlers keep the spec's names.
 */

export const ODATA_NAMESPACES = ['vendor.graph', 'microsoft.graph'] as const;
export type ODataNamespace = (typeof ODATA_NAMESPACES)[number];

export const SPEC_NAMESPACE: ODataNamespace = 'vendor.graph';

/** Types the spec renamed: their name in the spec, and in the real service (reference/service.md). */
const REAL_NAMES: Readonly<Record<string, string>> = {
  deviceHelloForBusinessAuthenticationMethod: 'windowsHelloForBusinessAuthenticationMethod',
};
const SPEC_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REAL_NAMES).map(([spec, real]) => [real, spec]),
);

function renamed(text: string, from: ODataNamespace, to: ODataNamespace, anywhere: boolean): string {
  if (anywhere) return text.replaceAll(`${from}.`, `${to}.`);
  const hash = text.startsWith('#') ? '#' : '';
  if (!text.startsWith(`${hash}${from}.`)) return text;
  const local = text.slice(hash.length + from.length + 1);
  const names = to === SPEC_NAMESPACE ? SPEC_NAMES : REAL_NAMES;
  return `${hash}${to}.${Object.hasOwn(names, local) ? names[local]! : local}`;
}

/**
 * A copy of a JSON value with each `@odata.type` (and `@odata.context`, which names types inside a metadata URL)
 * moved from one namespace to the other. Other members are data and are left as they are; the depth is that of a
 * body already checked (at most 64 levels in, and the emulator's own answers).
 */
export function renameTypes(value: unknown, from: ODataNamespace, to: ODataNamespace): unknown {
  if (from === to || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => renameTypes(item, from, to));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const type = key === '@odata.type' || key.endsWith('@odata.type');
    const context = key === '@odata.context';
    out[key] =
      typeof member === 'string' && (type || context)
        ? renamed(member, from, to, context)
        : renameTypes(member, from, to);
  }
  return out;
}

/** A request path with the namespace's cast and function segments (`microsoft.graph.building`) in the spec's. */
export function specPath(path: string, from: ODataNamespace): string {
  return from === SPEC_NAMESPACE ? path : path.replaceAll(`/${from}.`, `/${SPEC_NAMESPACE}.`);
}
