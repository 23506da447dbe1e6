/** The service emulator: `startEmulator()` for tests, and what `bomwright emulator` runs. */
export { startEmulator, openState, tokenFor, tokenFromState, tenantOf, tlsDirFor } from './emulator.js';
export { ensureTlsMaterial, defaultTlsDir } from './tls.js';
export type { TlsMaterial } from './tls.js';
export type { EmulatorOptions, RunningEmulator, TokenOptions } from './emulator.js';
export { DEFAULT_SEED, SEED_IDS } from './default-seed.js';
export { parseSeed, seedProblems } from './seed.js';
export { parseFaultRules, FAULT_KINDS } from './fault-rules.js';
export type { FaultRule, FaultKind } from './fault-rules.js';
export { parseStub, MAX_STUBS } from './stubs.js';
export type { Stub, StubSpec, StubResponse } from './stubs.js';
export { permissionLines } from './permission-usage.js';
export type { PermissionUsage } from './permission-usage.js';
export {
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_BODY_BYTES_KEPT,
  KEPT_HEADERS,
} from './requests.js';
export type { RecordedRequest, RequestFilter, Caller } from './requests.js';
export { ODATA_NAMESPACES } from './namespace.js';
export type { ODataNamespace } from './namespace.js';
