export {
  cloneDatabase,
  createTemplateDatabase,
  dropDatabase,
  type ServiceMigrations,
  type TestDatabase,
} from "./databases.js";
export { resolveTestInfra, type TestInfra } from "./infra.js";
export { capturingLogger, fileInfra, type FileInfra } from "./per-file.js";
