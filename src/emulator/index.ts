/** The service emulator: `startEmulator()` for tests, and what `bomwright emulator` runs. */
export { startEmulator, openState, tokenFor, tokenFromState, tenantOf } from './emulator.js';
export type { EmulatorOptions, RunningEmulator, TokenOptions } from './emulator.js';
export { DEFAULT_SEED, SEED_IDS } from './default-seed.js';
export { parseSeed, seedProblems } from './seed.js';
