/**
 * JSON number literals that a double does not hold. `JSON.parse` reads `1e-400` as 0,
 * `1.000000000000000000001` as 1 and `12345678901234567890` as 12345678901234567000 without
 * a word; for an amount or a quantity that is a silent change of the caller's value. A literal
 * is kept only when the double it reads as prints back as the same decimal value (`1.50` and
 * `1.5` are one value; so are `-0` and `0`).
 *
 * Every literal of up to 15 digits without an exponent reads exactly (a double holds any
 * decimal of 15 significant digits, and such a literal lies between 1e-15 and 1e15), so only
 * longer literals and those with an exponent are compared, which few bodies have: the scan
 * jumps over strings with `indexOf` and looks at each number's characters once.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Digits a literal may have, without an exponent, and always read exactly as a double. */
const ALWAYS_EXACT_DIGITS = 15;

export interface InexactNumber {
  /** keys and indexes from the root to the literal */
  readonly path: string[];
  /** the literal as the body wrote it */
  readonly literal: string;
}

/**
 * A decimal as sign, significant digits and exponent (`-0.125e3` and `-125` alike:
 * "-125e0"), so two spellings of one value compare equal as text; every zero is "0".
 */
function canonicalValue(text: string): string {
  const negative = text.charCodeAt(0) === MINUS;
  const start = negative ? 1 : 0;
  let exponentAt = text.indexOf("e", start);
  if (exponentAt < 0) exponentAt = text.indexOf("E", start);
  const mantissa = exponentAt < 0 ? text.slice(start) : text.slice(start, exponentAt);
  const point = mantissa.indexOf(".");
  const integer = point < 0 ? mantissa : mantissa.slice(0, point);
  const digits = point < 0 ? mantissa : integer + mantissa.slice(point + 1);
  const first = digits.search(/[1-9]/);
  if (first < 0) return "0";
  let last = digits.length - 1;
  while (digits.charCodeAt(last) === ZERO) last--;
  // value = 0.<digits> × 10^(integer.length + exponent); the exponent's text may be long
  // ("1e0000000000000000000001"), its value never is once the double is finite
  const exponent =
    (exponentAt < 0 ? 0 : Number(text.slice(exponentAt + 1))) + integer.length - first;
  return `${negative ? "-" : ""}${digits.slice(first, last + 1)}e${exponent}`;
}

/**
 * Whether a JSON number literal reads as a double that prints back as the same decimal value.
 * `1e400` reads as no finite number at all.
 */
export function readsExactly(literal: string): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  return canonicalValue(literal) === canonicalValue(String(value));
}

/** The index of the quote closing the string opened at `open` (the text is valid JSON). */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
}

/** Where the first literal that does not read exactly starts and ends, in valid JSON text. */
function firstInexact(text: string): { start: number; end: number } | undefined {
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = closingQuote(text, at);
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = at + 1;
      let digits = c === MINUS ? 0 : 1;
      let exponent = false;
      for (; end < length; end++) {
        const d = text.charCodeAt(end);
        if (d >= ZERO && d <= NINE) digits++;
        else if (d === LOWER_E || d === UPPER_E) exponent = true;
        else if (d !== DOT && d !== MINUS && d !== PLUS) break;
      }
      if ((exponent || digits > ALWAYS_EXACT_DIGITS) && !readsExactly(text.slice(at, end))) {
        return { start: at, end };
      }
      at = end - 1;
    }
  }
  return undefined;
}

interface Container {
  readonly array: boolean;
  index: number;
  key: string;
  /** in an object, the next string is a key */
  awaitingKey: boolean;
}

/** The keys and indexes leading to `offset` in valid JSON text; walked only for an answer. */
function pathTo(text: string, offset: number): string[] {
  const open: Container[] = [];
  for (let at = 0; at < offset; at++) {
    const c = text.charCodeAt(at);
    const top = open.at(-1);
    if (c === QUOTE) {
      const end = closingQuote(text, at);
      if (top && !top.array && top.awaitingKey) {
        top.key = JSON.parse(text.slice(at, end + 1)) as string;
        top.awaitingKey = false;
      }
      at = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      open.push({ array: c === OPEN_ARRAY, index: 0, key: "", awaitingKey: true });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA && top) {
      if (top.array) top.index++;
      else top.awaitingKey = true;
    }
  }
  return open.map((container) => (container.array ? String(container.index) : container.key));
}

/**
 * The first number literal of `text` (valid JSON, already parsed) that a double does not hold
 * exactly, with its path; undefined when every one does.
 */
export function findInexactNumber(text: string): InexactNumber | undefined {
  const found = firstInexact(text);
  if (!found) return undefined;
  return { path: pathTo(text, found.start), literal: text.slice(found.start, found.end) };
}
