/** The authority lives in Argentina time (UTC-3, no daylight saving). */
const AR_OFFSET_MS = -3 * 3600_000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function arParts(ms: number): Date {
  return new Date(ms + AR_OFFSET_MS);
}

/** `2021-06-19T12:24:19.330-03:00`, as WSAA writes TA times. */
export function arIsoMillis(ms: number): string {
  const d = arParts(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
    `.${pad(d.getUTCMilliseconds(), 3)}-03:00`
  );
}

/** `2021-07-01T17:21:01.963109-03:00`, as the ASMX header writes `fecha`. */
export function arIsoMicros(ms: number): string {
  return arIsoMillis(ms).replace("-03:00", "000-03:00");
}

/** yyyymmdd in Argentina time. */
export function arDate(ms: number): string {
  const d = arParts(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

/** yyyyMMddHHmmss in Argentina time (FchProceso). */
export function arTimestamp(ms: number): string {
  const d = arParts(ms);
  return `${arDate(ms)}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** .NET's invariant `M/d/yyyy h:mm:ss tt` in UTC, used in token date messages. */
export function dotnetUtc(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return (
    `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ` +
    `${h12}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${h < 12 ? "AM" : "PM"}`
  );
}

/** Days since the epoch of a yyyymmdd string, or undefined when it is not a real date. */
export function dayNumber(yyyymmdd: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (m === null) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    return undefined;
  }
  return ms / 86_400_000;
}

export function dateFromDayNumber(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

/**
 * Parses an xsd:dateTime. Without an offset the server reads it in its own zone (UTC-3),
 * which is what makes offset-less TRAs from UTC machines look "in the future".
 */
export function parseXsdDateTime(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(
    value.trim(),
  );
  if (m === null) return undefined;
  const zone = m[8] ?? "-03:00";
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ""}${zone}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || Number(m[4]) > 23) return undefined;
  return ms;
}
