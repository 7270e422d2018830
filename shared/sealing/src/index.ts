export { makeSealer, type Sealer } from "./sealer.js";
export { makePageCursors, type CursorScope, type PageCursors } from "./cursor.js";
