import { BomwrightError } from '../errors.js';

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** "512M", "1g", "1048576" → bytes (binary units). */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new BomwrightError('E_USAGE', `Invalid size ${JSON.stringify(text)}; use bytes or a K/M/G suffix, e.g. 512M`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1)
    throw new BomwrightError('E_USAGE', `Invalid size ${JSON.stringify(text)}; it must be at least 1 byte`);
  return bytes;
}
