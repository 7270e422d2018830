export * from "./money.js";
export * from "./dates.js";
export * from "./comprobantes.js";
export * from "./receptores.js";
export * from "./nombres.js";
export * from "./exportacion.js";
