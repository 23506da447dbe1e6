/** The service emulator: `startEmulator()` for tests, and what `bomwright emulator` runs. */
export { startEmulator, openState, tokenFor, tokenFromState, tenantOf, tlsDirFor } from './emulator.js';
export { ensureTlsMaterial, defaultTlsDir } from './tls.js';
export type { TlsMaterial } from './tls.js';
export type { EmulatorOptions, RunningEmulator, TokenOptions } from './emulator.js';
export { DEFAULT_SEED, SEED_IDS } from './default-seed.js';
export { parseSeed, seedProblems } from './seed.js';
