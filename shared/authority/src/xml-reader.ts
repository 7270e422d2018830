/**
 * The reader of the authority's SOAP answers (ASMX and JAX-WS alike), on the path of every
 * call: one pass over the text with `indexOf`, no tokens, no paths, no attribute maps.
 *
 * What it makes of a document, which is what the clients read:
 * - an element is keyed by its local name (`soap:Body` → `Body`); attributes are ignored,
 *   unless asked for (`{ attributes: true }`): then each is a child `@name` (local name,
 *   value decoded), namespace declarations aside, so an element with attributes is a record;
 * - an element without children is its text, entities decoded and trimmed (`<CAE/>` is ""):
 *   each run of text between tags is trimmed, and CDATA is kept as written;
 * - an element with children is a record of them; text beside children goes under `#text`;
 * - a name repeated among siblings becomes a list, in document order;
 * - values stay strings (ids such as "002", doubles in shortest form, longs past 2^53).
 *
 * Comments, processing instructions and the XML declaration are skipped; CDATA is text, taken
 * as written. Anything else that is not well-formed throws: an unclosed or mismatched element,
 * a tag cut short, and a DOCTYPE (the authority never sends one, and entity declarations are a
 * way to make a reader do unbounded work).
 */

/** An element: its text, a record of its children, or a list of repeats. */
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  readonly [name: string]: XmlValue;
}

interface Open {
  readonly name: string;
  /** children so far; undefined while there are none */
  children: Record<string, XmlValue> | undefined;
  /** text so far, each run of it trimmed */
  text: string;
  /** the run of text being read: it goes on across comments, and ends at a tag or CDATA */
  run: string;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};
const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g;

/** Text with its character and predefined entities replaced; any other `&…;` stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (whole, entity: string) => {
    if (entity.charCodeAt(0) !== 35 /* # */) return NAMED_ENTITIES[entity] ?? whole;
    const code =
      entity.charCodeAt(1) === 120 /* x */
        ? parseInt(entity.slice(2), 16)
        : parseInt(entity.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Adds `value` under `name`, turning a second sibling of that name into a list. */
function addChild(parent: Open, name: string, value: XmlValue): void {
  const children = (parent.children ??= {});
  if (!Object.hasOwn(children, name)) {
    // a plain assignment of "__proto__" would replace the record's prototype
    if (name === "__proto__") {
      Object.defineProperty(children, name, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else children[name] = value;
    return;
  }
  const existing = children[name]!;
  // element values are never lists themselves: a list here is one of repeats
  if (Array.isArray(existing)) existing.push(value);
  else children[name] = [existing, value];
}

/** Ends the run of text being read: trimmed, it joins the element's text. */
function endRun(element: Open): void {
  if (element.run === "") return;
  element.text += element.run.trim();
  element.run = "";
}

function close(parent: Open, element: Open): void {
  endRun(element);
  const text = element.text;
  let value: XmlValue;
  if (element.children === undefined) value = text;
  else {
    if (text !== "") element.children["#text"] = text;
    value = element.children;
  }
  addChild(parent, element.name, value);
}

const isNameEnd = (code: number) =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 47 /* / */ || code === 62;

/** `prefix:Name` → `Name`. */
const localPart = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

class XmlReadError extends Error {
  override readonly name = "XmlReadError";
}

const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The attributes written between `from` and `to` (a tag's text after its name), as `@name`. */
function attributesOf(xml: string, from: number, to: number): Record<string, XmlValue> | undefined {
  let found: Record<string, XmlValue> | undefined;
  for (const [, qualified, double, single] of xml.slice(from, to).matchAll(ATTRIBUTE)) {
    if (qualified === "xmlns" || qualified!.startsWith("xmlns:")) continue;
    found ??= {};
    found[`@${localPart(qualified!)}`] = decodeEntities(double ?? single ?? "");
  }
  return found;
}

export interface ReadXmlOptions {
  /** keep attributes as `@name` children (off on the path of the authority's answers) */
  readonly attributes?: boolean;
}

/** The document's elements, as described above; throws an XmlReadError when it is not XML. */
export function readXml(xml: string, options?: ReadXmlOptions): XmlObject {
  const attributes = options?.attributes === true;
  const document: Open = { name: "", children: undefined, text: "", run: "" };
  const open: Open[] = [document];
  let top = document;
  let at = 0;
  const length = xml.length;
  const expect = (found: number, what: string): number => {
    if (found === -1) throw new XmlReadError(`${what} sin cerrar en la posición ${at}`);
    return found;
  };
  while (at < length) {
    const lt = xml.indexOf("<", at);
    const textEnd = lt === -1 ? length : lt;
    // text outside the root element is whitespace in a well-formed answer, and is dropped
    if (textEnd > at && top !== document) top.run += decodeEntities(xml.slice(at, textEnd));
    if (lt === -1) break;
    at = lt;
    const next = xml.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      const gt = expect(xml.indexOf(">", lt + 2), "etiqueta de cierre");
      const name = localPart(xml.slice(lt + 2, gt).trim());
      if (top === document || top.name !== name) {
        throw new XmlReadError(
          `</${name}> en la posición ${lt} no cierra ${top === document ? "ningún elemento" : `<${top.name}>`}`,
        );
      }
      open.pop();
      const parent = open[open.length - 1]!;
      close(parent, top);
      top = parent;
      at = gt + 1;
    } else if (next === 63 /* ? */) {
      at = expect(xml.indexOf("?>", lt + 2), "instrucción de procesamiento") + 2;
    } else if (next === 33 /* ! */) {
      if (xml.startsWith("<!--", lt)) {
        at = expect(xml.indexOf("-->", lt + 4), "comentario") + 3;
      } else if (xml.startsWith("<![CDATA[", lt)) {
        const end = expect(xml.indexOf("]]>", lt + 9), "sección CDATA");
        if (top !== document) {
          endRun(top);
          top.text += xml.slice(lt + 9, end);
        }
        at = end + 3;
      } else {
        throw new XmlReadError(`declaración <!… no admitida en la posición ${lt}`);
      }
    } else {
      let nameEnd = lt + 1;
      while (nameEnd < length && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
      if (nameEnd === lt + 1) throw new XmlReadError(`etiqueta sin nombre en la posición ${lt}`);
      // the tag ends at the first '>' outside a quoted attribute value
      let gt = nameEnd;
      for (;;) {
        if (gt >= length) throw new XmlReadError(`etiqueta sin cerrar en la posición ${lt}`);
        const code = xml.charCodeAt(gt);
        if (code === 62 /* > */) break;
        if (code === 34 /* " */ || code === 39 /* ' */) {
          gt = expect(xml.indexOf(code === 34 ? '"' : "'", gt + 1), "valor de atributo") + 1;
        } else gt++;
      }
      const name = localPart(xml.slice(lt + 1, nameEnd));
      if (name === "") throw new XmlReadError(`etiqueta sin nombre en la posición ${lt}`);
      if (top === document && document.children !== undefined) {
        throw new XmlReadError(`segundo elemento raíz <${name}> en la posición ${lt}`);
      }
      endRun(top);
      const selfClosing = xml.charCodeAt(gt - 1) === 47; /* / */
      const attrs = attributes ? attributesOf(xml, nameEnd, selfClosing ? gt - 1 : gt) : undefined;
      if (selfClosing) addChild(top, name, attrs ?? "");
      else {
        top = { name, children: attrs, text: "", run: "" };
        open.push(top);
      }
      at = gt + 1;
    }
  }
  if (top !== document) throw new XmlReadError(`<${top.name}> sin cerrar al final del documento`);
  if (document.children === undefined) throw new XmlReadError("el documento no tiene elementos");
  return document.children;
}
