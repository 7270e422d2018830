const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Where a page ended: the last row's exact creation time and id. */
export interface ListadoPosition {
  readonly createdAt: string;
  readonly id: string;
}

/** The position as the page cursor holds it: `<created_at>|<id>`. */
export function listadoPositionText(position: ListadoPosition): string {
  return `${position.createdAt}|${position.id}`;
}

/** The position a cursor held; undefined for text this service did not write. */
export function parseListadoPosition(text: string): ListadoPosition | undefined {
  const [createdAt, id, ...rest] = text.split("|");
  if (rest.length > 0 || !createdAt || !id || !TIMESTAMP.test(createdAt) || !UUID.test(id)) {
    return undefined;
  }
  return { createdAt, id };
}
