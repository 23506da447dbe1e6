/**
 * The OData namespace of type names. The spec names types `#vendor.graph.*`, the real service and its SDKs'
 * typed models `#microsoft.graph.*` (Kiota's models pick the class of a FIDO2 method or a removal result by it).
 * The emulator's transport with `odataNamespace: 'microsoft.graph'` renames type names on the way out and back on
 * the way in, so its handlers keep the spec's names; the client reads answers in either namespace the same way.
 */

export const ODATA_NAMESPACES = ['vendor.graph', 'microsoft.graph'] as const;
export type ODataNamespace = (typeof ODATA_NAMESPACES)[number];

export const SPEC_NAMESPACE: ODataNamespace = 'vendor.graph';

/** Types the spec renamed: their name in the spec, and in the real service (reference/service.md). */
const REAL_NAMES: Readonly<Record<string, string>> = {
  deviceHelloForBusinessAuthenticationMethod: 'windowsHelloForBusinessAuthenticationMethod',
  dirUserConversationMember: 'aadUserConversationMember',
  dirUserConversationMemberResult: 'aadUserConversationMemberResult',
  'security.subcategoryTemplate': 'security.subCategoryTemplate',
};
const SPEC_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REAL_NAMES).map(([spec, real]) => [real, spec]),
);

/** The local name of a type in the other namespace (`dirUserConversationMemberResult` ↔ `aadUser…`). */
function localName(local: string, to: ODataNamespace): string {
  const names = to === SPEC_NAMESPACE ? SPEC_NAMES : REAL_NAMES;
  return Object.hasOwn(names, local) ? names[local]! : local;
}

const QUALIFIED: Readonly<Record<ODataNamespace, RegExp>> = {
  'vendor.graph': /(?<![\w.])vendor\.graph\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)/g,
  'microsoft.graph': /(?<![\w.])microsoft\.graph\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)/g,
};

/**
 * `text` with every qualified type name of `from` (`vendor.graph.message`, in a message or a metadata URL) in
 * `to`, renamed types mapped. A name glued to a longer one (`avendor.graph.x`) is not a type name and stays.
 */
export function renameInText(text: string, from: ODataNamespace, to: ODataNamespace): string {
  if (from === to || !text.includes(`${from}.`)) return text;
  return text.replace(QUALIFIED[from], (_whole, local: string) => {
    // A trailing member (`event.forward`) or a renamed name with a sub-namespace both map as one name first.
    const mapped = localName(local, to);
    if (mapped !== local) return `${to}.${mapped}`;
    const dot = local.indexOf('.');
    const head = dot === -1 ? local : local.slice(0, dot);
    return `${to}.${localName(head, to)}${dot === -1 ? '' : local.slice(dot)}`;
  });
}

function renamed(text: string, from: ODataNamespace, to: ODataNamespace): string {
  const hash = text.startsWith('#') ? '#' : '';
  if (!text.startsWith(`${hash}${from}.`)) return text;
  return `${hash}${to}.${localName(text.slice(hash.length + from.length + 1), to)}`;
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
    if (typeof member === 'string' && (key === '@odata.type' || key.endsWith('@odata.type')))
      out[key] = renamed(member, from, to);
    else if (typeof member === 'string' && key === '@odata.context') out[key] = renameInText(member, from, to);
    else out[key] = renameTypes(member, from, to);
  }
  return out;
}

/**
 * A JSON value read from a service in either namespace, with its type names in the spec's: what the client's
 * checks and the flows compare against. The same value when it names no type of the real namespace.
 */
export function inSpecNames(value: unknown): unknown {
  return mentions(value, 'microsoft.graph.', 0) ? renameTypes(value, 'microsoft.graph', SPEC_NAMESPACE) : value;
}

/** Whether a type or context member anywhere in `value` names the namespace (no copy when none does). */
function mentions(value: unknown, prefix: string, depth: number): boolean {
  if (value === null || typeof value !== 'object' || depth > 128) return false;
  if (Array.isArray(value)) return value.some((item) => mentions(item, prefix, depth + 1));
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (typeof member === 'string') {
      if ((key === '@odata.type' || key.endsWith('@odata.type') || key === '@odata.context') && member.includes(prefix))
        return true;
    } else if (mentions(member, prefix, depth + 1)) return true;
  }
  return false;
}

/** A request path with the namespace's cast and function segments (`microsoft.graph.building`) in the spec's. */
export function specPath(path: string, from: ODataNamespace): string {
  return from === SPEC_NAMESPACE ? path : path.replaceAll(`/${from}.`, `/${SPEC_NAMESPACE}.`);
}
