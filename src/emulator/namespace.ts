/** The namespace of type names on the wire lives with the service's shapes (the client reads it too). */
export {
  ODATA_NAMESPACES,
  SPEC_NAMESPACE,
  renameTypes,
  renameInText,
  specPath,
  type ODataNamespace,
} from '../service/namespace.js';
