/**
 * Dates as dd/mm/aaaa and times in 24 h, in Argentina's time zone, whatever the server's: never a
 * two-digit year, never "p. m.".
 */

export const ZONA_ARGENTINA = "America/Argentina/Buenos_Aires";

const NUMERIC = new Intl.DateTimeFormat("es-AR", {
  timeZone: ZONA_ARGENTINA,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** The Argentine calendar day and clock of an instant, each part zero-padded. */
function partsOf(instant: Date) {
  const parts: Record<string, string> = {};
  for (const part of NUMERIC.formatToParts(instant)) parts[part.type] = part.value;
  const pad = (name: string, size: number) => (parts[name] ?? "").padStart(size, "0");
  return {
    day: `${pad("day", 2)}/${pad("month", 2)}/${pad("year", 4)}`,
    time: `${pad("hour", 2)}:${pad("minute", 2)}`,
  };
}

const AAAAMMDD = /^(\d{4})(\d{2})(\d{2})$/;
const AAAA_MM_DD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An instant of an ISO date-time text, or undefined when it is not one. */
function instantOf(iso: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso)) return undefined;
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * A calendar day as dd/mm/aaaa, from the authority's `yyyymmdd`, a form's `yyyy-mm-dd` or an ISO
 * date-time (its day in Argentina). Nothing given is "—"; any other text is shown as it is.
 */
export function fecha(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const match = AAAAMMDD.exec(value) ?? AAAA_MM_DD.exec(value);
  if (match) return `${match[3]}/${match[2]}/${match[1]}`;
  const instant = instantOf(value);
  return instant ? partsOf(instant).day : value;
}

/** An instant as "dd/mm/aaaa hh:mm", 24 h, in Argentina. Nothing given is "—". */
export function fechaHora(iso: string | Date | null | undefined): string {
  if (iso === null || iso === undefined || iso === "") return "—";
  const instant = iso instanceof Date ? iso : instantOf(iso);
  if (!instant || Number.isNaN(instant.getTime())) return String(iso);
  const { day, time } = partsOf(instant);
  return `${day} ${time}`;
}
