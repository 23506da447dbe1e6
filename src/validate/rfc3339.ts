/**
 * RFC 3339 §5.6 `full-date`, `full-time` and `date-time` exactly as the ABNF states them (JSON Schema's `date`,
 * `time` and `date-time`), with the §5.7 restrictions: day within its month (Gregorian leap years), and a leap
 * second (60) only at 23:59 UTC on the last day of a month. ajv-formats' checks are laxer (a space for "T", an
 * offset without its colon), which lets invalid timestamps through the gate.
 */

// ABNF literals are case-insensitive, so "T" and "Z" may be lower case (§5.6, NOTE).
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const FULL_TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

interface FullDate {
  year: number;
  month: number;
  day: number;
}

function parseFullDate(text: string): FullDate | undefined {
  const match = FULL_DATE.exec(text);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

interface FullTime {
  /** Minutes after 00:00 UTC, before wrapping into a day: from -1439 to 2878. */
  utcMinutes: number;
  second: number;
}

function parseFullTime(text: string): FullTime | undefined {
  const match = FULL_TIME.exec(text);
  if (match === null) return undefined;
  const [, hh, mm, ss, zulu, sign, offsetHh, offsetMm] = match;
  const hour = Number(hh);
  const minute = Number(mm);
  const second = Number(ss);
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (zulu === undefined) {
    const offsetHour = Number(offsetHh);
    const offsetMinute = Number(offsetMm);
    if (offsetHour > 23 || offsetMinute > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  return { utcMinutes: hour * 60 + minute - offset, second };
}

const LAST_MINUTE = 23 * 60 + 59;
const DAY = 24 * 60;

/** Whether a leap second at `time` falls on 23:59 UTC (the offset shifts it, §5.7); -1, 0, 1: the UTC day. */
function leapSecondDayShift(time: FullTime): number | undefined {
  const shift = Math.floor(time.utcMinutes / DAY);
  return time.utcMinutes - shift * DAY === LAST_MINUTE ? shift : undefined;
}

/** RFC 3339 `full-date`: `2020-02-29`. */
export function isFullDate(text: string): boolean {
  return parseFullDate(text) !== undefined;
}

/** RFC 3339 `full-time`: `23:59:59.5+01:00`; the offset is required. */
export function isFullTime(text: string): boolean {
  const time = parseFullTime(text);
  return time !== undefined && (time.second < 60 || leapSecondDayShift(time) !== undefined);
}

/** RFC 3339 `date-time`: `full-date "T" full-time`, T in either case; nothing else separates them. */
export function isDateTime(text: string): boolean {
  if (text.length < 20 || (text[10] !== 'T' && text[10] !== 't')) return false;
  const date = parseFullDate(text.slice(0, 10));
  const time = parseFullTime(text.slice(11));
  if (date === undefined || time === undefined) return false;
  if (time.second < 60) return true;
  // A leap second is added at the end of a month: the UTC instant must be the month's last day at 23:59.
  const shift = leapSecondDayShift(time);
  if (shift === undefined) return false;
  const last = daysInMonth(date.year, date.month);
  if (shift === 0) return date.day === last;
  if (shift === 1) return date.day + 1 === last;
  return date.day === 1;
}
