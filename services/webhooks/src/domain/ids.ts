const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `id` could name an endpoint at all. A malformed id is answered exactly like an
 * unknown one (404), never with a 400 that would tell its shape was checked first.
 */
export const isRecordId = (id: string): boolean => UUID.test(id);
