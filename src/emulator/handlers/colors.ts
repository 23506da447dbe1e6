/** HTML (CSS) colour names, as the workbook API accepts them in place of #RRGGBB. */
import colorNames from 'color-name';

const NAMES: Readonly<Record<string, readonly [number, number, number]>> = colorNames;

/** `#RRGGBB` for an HTML colour name (case-insensitive), undefined for anything else. */
export function htmlColorHex(name: string): string | undefined {
  const key = name.toLowerCase();
  if (!Object.hasOwn(NAMES, key)) return undefined;
  return `#${NAMES[key]!.map((channel) => channel.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}
