export { makeSealer, type Sealer } from "@pasarela/sealing";
