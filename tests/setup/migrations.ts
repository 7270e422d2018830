import * as billing from "../../services/billing/src/db/migrations/index.js";
import * as ticket from "../../services/ticket/src/db/migrations/index.js";
import type { ServiceMigrations } from "@pasarela/testing";

/** Every service's frozen migrations, run once into the template database of a test run. */
export const serviceMigrations: ServiceMigrations[] = [
  { schema: billing.schema, migrations: billing.migrations },
  { schema: ticket.schema, migrations: ticket.migrations },
];
