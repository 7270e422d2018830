import * as billing from "../../services/billing/src/db/migrations/index.js";
import * as catalog from "../../services/catalog/src/db/migrations/index.js";
import * as cobros from "../../services/cobros/src/db/migrations/index.js";
import * as edge from "../../services/edge/src/panel/db/migrations/index.js";
import * as pdf from "../../services/pdf/src/db/migrations/index.js";
import * as ticket from "../../services/ticket/src/db/migrations/index.js";
import * as webhooks from "../../services/webhooks/src/db/migrations/index.js";
import * as wsfe from "../../services/wsfe/src/db/migrations/index.js";
import type { ServiceMigrations } from "@pasarela/testing";

/** Every service's frozen migrations, run once into the template database of a test run. */
export const serviceMigrations: ServiceMigrations[] = [
  { schema: billing.schema, migrations: billing.migrations },
  { schema: catalog.schema, migrations: catalog.migrations },
  { schema: cobros.schema, migrations: cobros.migrations },
  { schema: edge.schema, migrations: edge.migrations },
  { schema: pdf.schema, migrations: pdf.migrations },
  { schema: ticket.schema, migrations: ticket.migrations },
  { schema: webhooks.schema, migrations: webhooks.migrations },
  { schema: wsfe.schema, migrations: wsfe.migrations },
];
