import type { Handler } from "@pasarela/bus";
import type { wsfex } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfexAdapter } from "@pasarela/authority";
import { permisoStatus } from "../domain/permiso.js";

export function makePermisoVerify(deps: {
  wsfex: WsfexAdapter;
}): Handler<typeof wsfex.permisoVerify> {
  return async ({ environment, representada, idPermiso, dstMerc }, ctx) => {
    const status = await deps.wsfex.permiso(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { idPermiso, dstMerc },
    );
    return status.ok ? ok({ status: permisoStatus(status.value) }) : status;
  };
}
