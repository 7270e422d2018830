import type { webhooks } from "@pasarela/contracts";
import { advisoryXactLock } from "@pasarela/db";
import type { Sealer } from "@pasarela/sealing";
import { sql, type Kysely, type Selectable } from "kysely";
import type { EndpointsTable, WebhooksDatabase } from "../database.js";

/**
 * The context both secrets of an endpoint are sealed under: a ciphertext copied to another
 * endpoint never opens, and rotation moves the current one to `secreto_anterior` unchanged.
 */
const context = (accountId: string, id: string) => `webhooks:${accountId}:${id}`;

const columns = [
  "id",
  "url",
  "eventos",
  "descripcion",
  "activo",
  "fallando_desde",
  "desactivado_at",
  "desactivado_motivo",
  "created_at",
  "updated_at",
] as const;

type Row = Pick<Selectable<EndpointsTable>, (typeof columns)[number]>;

const toWebhook = (row: Row): webhooks.Webhook => ({
  id: row.id,
  url: row.url,
  eventos: row.eventos as webhooks.WebhookEvento[],
  descripcion: row.descripcion,
  activo: row.activo,
  fallandoDesde: row.fallando_desde?.toISOString() ?? null,
  desactivadoAt: row.desactivado_at?.toISOString() ?? null,
  desactivadoMotivo: row.desactivado_motivo,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export interface NewEndpoint {
  readonly id: string;
  readonly url: string;
  readonly eventos: readonly webhooks.WebhookEvento[];
  readonly descripcion: string | null;
  readonly secreto: string;
}

export interface EndpointChanges {
  readonly url?: string;
  readonly eventos?: readonly webhooks.WebhookEvento[];
  readonly descripcion?: string | null;
  readonly activo?: boolean;
}

/** An account's webhook endpoints; their signing secrets sealed at rest. */
export function makeEndpointsRepository(db: Kysely<WebhooksDatabase>, sealer: Sealer) {
  return {
    /** Stores an endpoint unless the account already has `max`; counted under a lock. */
    async insert(
      accountId: string,
      endpoint: NewEndpoint,
      max: number,
    ): Promise<webhooks.Webhook | "limit"> {
      return db.transaction().execute(async (trx) => {
        // two creations at once must not both see room for one more
        await advisoryXactLock(`webhooks:endpoints:${accountId}`).execute(trx);
        const { count } = await trx
          .selectFrom("endpoints")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return "limit" as const;
        const row = await trx
          .insertInto("endpoints")
          .values({
            id: endpoint.id,
            account_id: accountId,
            url: endpoint.url,
            eventos: [...endpoint.eventos],
            descripcion: endpoint.descripcion,
            secreto: sealer.seal(endpoint.secreto, context(accountId, endpoint.id)),
          })
          .returning(columns)
          .executeTakeFirstOrThrow();
        return toWebhook(row);
      });
    },

    async list(accountId: string): Promise<webhooks.Webhook[]> {
      const rows = await db
        .selectFrom("endpoints")
        .select(columns)
        .where("account_id", "=", accountId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toWebhook);
    },

    async find(accountId: string, id: string): Promise<webhooks.Webhook | undefined> {
      const row = await db
        .selectFrom("endpoints")
        .select(columns)
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toWebhook(row);
    },

    async update(
      accountId: string,
      id: string,
      changes: EndpointChanges,
    ): Promise<webhooks.Webhook | undefined> {
      const row = await db
        .updateTable("endpoints")
        .set({
          ...(changes.url !== undefined ? { url: changes.url } : {}),
          ...(changes.eventos !== undefined ? { eventos: [...changes.eventos] } : {}),
          ...(changes.descripcion !== undefined ? { descripcion: changes.descripcion } : {}),
          ...(changes.activo !== undefined ? { activo: changes.activo } : {}),
          // enabled again by hand: its failures are forgiven and the window starts over
          ...(changes.activo === true
            ? {
                fallando_desde: null,
                desactivado_at: null,
                desactivado_motivo: null,
                aviso_pendiente: false,
              }
            : {}),
          updated_at: sql<Date>`now()`,
        })
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .returning(columns)
        .executeTakeFirst();
      return row && toWebhook(row);
    },

    async remove(accountId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("endpoints")
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Makes `secreto` the current secret; the one it replaces keeps signing until
     * `anteriorVenceAt` (one that was already rotated out is dropped). False when not found.
     */
    async rotate(
      accountId: string,
      id: string,
      secreto: string,
      anteriorVenceAt: Date,
    ): Promise<boolean> {
      const result = await db
        .updateTable("endpoints")
        .set((eb) => ({
          secreto_anterior: eb.ref("secreto"),
          secreto_anterior_vence_at: anteriorVenceAt,
          secreto: sealer.seal(secreto, context(accountId, id)),
          updated_at: sql<Date>`now()`,
        }))
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * The secrets a delivery at `at` is signed with, current first: the rotated-out one only
     * until it expires. Undefined when the endpoint does not exist.
     */
    async signingSecrets(accountId: string, id: string, at: Date): Promise<string[] | undefined> {
      const row = await db
        .selectFrom("endpoints")
        .select(["secreto", "secreto_anterior", "secreto_anterior_vence_at"])
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) return undefined;
      const secrets = [sealer.open(row.secreto, context(accountId, id))];
      if (
        row.secreto_anterior &&
        row.secreto_anterior_vence_at &&
        row.secreto_anterior_vence_at > at
      ) {
        secrets.push(sealer.open(row.secreto_anterior, context(accountId, id)));
      }
      return secrets;
    },

    /** A delivered attempt: the endpoint answers, so it is not failing any more. */
    async recordSuccess(id: string): Promise<void> {
      await db
        .updateTable("endpoints")
        .set({ fallando_desde: null })
        .where("id", "=", id)
        .where("fallando_desde", "is not", null)
        .execute();
    },

    /**
     * A failed attempt at `at`: the endpoint is failing since then unless it already was.
     * When it has been failing for `windowMs` or more it is disabled, with `motivo`, and its
     * owner's e-mail left pending: the endpoint is answered only by the call that disabled it,
     * so it is told once. Undefined otherwise (not disabled now, or gone).
     */
    async recordFailure(
      id: string,
      at: Date,
      windowMs: number,
      motivo: (fallandoDesde: Date) => string,
    ): Promise<DisabledEndpoint | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("endpoints")
          .set((eb) => ({ fallando_desde: eb.fn.coalesce("fallando_desde", eb.val(at)) }))
          .where("id", "=", id)
          .returning(["activo", "fallando_desde"])
          .executeTakeFirst();
        const since = row?.fallando_desde;
        if (!row?.activo || !since || at.getTime() - since.getTime() < windowMs) return undefined;
        const disabled = await trx
          .updateTable("endpoints")
          .set({
            activo: false,
            desactivado_at: at,
            desactivado_motivo: motivo(since),
            aviso_pendiente: true,
            updated_at: sql<Date>`now()`,
          })
          .where("id", "=", id)
          .where("activo", "=", true)
          .returning(avisoColumns)
          .executeTakeFirst();
        return disabled && toDisabled(disabled);
      });
    },

    /** Disabled endpoints whose owner is still to be told, oldest first. */
    async avisosPendientes(max: number): Promise<DisabledEndpoint[]> {
      const rows = await db
        .selectFrom("endpoints")
        .select(avisoColumns)
        .where("aviso_pendiente", "=", true)
        .orderBy("desactivado_at")
        .limit(max)
        .execute();
      return rows.map(toDisabled);
    },

    /**
     * Runs `send` for the pending e-mail of an endpoint disabled at `desactivadoAt`, holding
     * the endpoint's row meanwhile (another instance skips it), and clears the mark once
     * `send` resolved. A throw, or a crash, leaves it pending; false when there was nothing to
     * send (already sent, taken by another instance, re-enabled or disabled again).
     */
    async withAviso(id: string, desactivadoAt: Date, send: () => Promise<void>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("endpoints")
          .select("id")
          .where("id", "=", id)
          .where("aviso_pendiente", "=", true)
          .where("desactivado_at", "=", desactivadoAt)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!row) return false;
        await send();
        await trx
          .updateTable("endpoints")
          .set({ aviso_pendiente: false })
          .where("id", "=", id)
          .execute();
        return true;
      });
    },
  };
}

/** An endpoint the service disabled, as its owner's e-mail tells it. */
export interface DisabledEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly descripcion: string | null;
  readonly fallandoDesde: Date;
  readonly desactivadoAt: Date;
  readonly motivo: string;
}

const avisoColumns = [
  "id",
  "account_id",
  "url",
  "descripcion",
  "fallando_desde",
  "desactivado_at",
  "desactivado_motivo",
] as const;

const toDisabled = (
  row: Pick<Selectable<EndpointsTable>, (typeof avisoColumns)[number]>,
): DisabledEndpoint => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  descripcion: row.descripcion,
  // both are set together with aviso_pendiente
  fallandoDesde: row.fallando_desde ?? row.desactivado_at ?? new Date(0),
  desactivadoAt: row.desactivado_at ?? new Date(0),
  motivo: row.desactivado_motivo ?? "",
});

export type EndpointsRepository = ReturnType<typeof makeEndpointsRepository>;
