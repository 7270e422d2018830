import { escapeXml } from "../soap/xml.js";
import { JAXWS_SCALARS, type JaxwsServiceSpec } from "./schema.js";

/** A value to render: scalars as text, records by their type's fields, lists for repeats. */
export type JaxwsValue = string | number | JaxwsRecord | readonly JaxwsValue[] | undefined;
export interface JaxwsRecord {
  readonly [name: string]: JaxwsValue;
}

/**
 * The children of an element of `type`, in the order the type lists them (alphabetical, as
 * JAX-WS writes them), unqualified; absent values are left out, as JAX-WS leaves out nulls.
 * A key the type does not have is a bug of the simulator, not something to send.
 */
export function renderFields(spec: JaxwsServiceSpec, type: string, value: JaxwsRecord): string {
  const fields = spec.types[type];
  if (fields === undefined) throw new Error(`${spec.serviceName}: no type ${type}`);
  for (const key of Object.keys(value)) {
    if (value[key] !== undefined && !fields.some(([name]) => name === key)) {
      throw new Error(`${spec.serviceName}: ${type} has no field ${key}`);
    }
  }
  let out = "";
  for (const [name, fieldType, repeated] of fields) {
    const v = value[name];
    if (v === undefined) continue;
    const items: readonly JaxwsValue[] = repeated === true && Array.isArray(v) ? v : [v];
    for (const item of items) {
      if (item === undefined) continue;
      out += `<${name}>${renderValue(spec, fieldType, item)}</${name}>`;
    }
  }
  return out;
}

function renderValue(spec: JaxwsServiceSpec, type: string, value: JaxwsValue): string {
  if (JAXWS_SCALARS.has(type)) {
    if (typeof value === "number") return String(value);
    if (typeof value === "string") return escapeXml(value);
    throw new Error(`${spec.serviceName}: ${type} value is not a scalar`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${spec.serviceName}: ${type} value is not a record`);
  }
  return renderFields(spec, type, value as JaxwsRecord);
}
