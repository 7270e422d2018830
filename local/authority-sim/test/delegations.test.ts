import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FEX_NS,
  FE_NS,
  asmx,
  authXml,
  faultCode,
  faultString,
  login,
  makeControlClient,
  makeIdentity,
  makeTra,
  postLogin,
  resultOf,
  signCms,
} from "./helpers.js";
import type { Ta } from "./helpers.js";

/** the certificate's own CUIT */
const CUIT = "23123456785";
/** a taxpayer that delegates a service to the certificate's alias */
const REPRESENTED = "30000000007";
const OK_JSON = '{"ok":true}';

let sim: Simulator;
let control: ControlClient;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "authority-sim-delegations-"));
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The relations list the token carries (base64 of the sso XML). */
function relationsOf(ta: Ta): string[] {
  const sso = Buffer.from(ta.token, "base64").toString("utf8");
  return [...sso.matchAll(/<relation key="(\d{11})"/g)].map((m) => m[1] ?? "");
}

const ultimo = async (s: Simulator, ta: Ta, cuit: string) =>
  resultOf(
    (
      await asmx(
        s.endpoints("homologacion").wsfe,
        FE_NS,
        "FECompUltimoAutorizado",
        `${authXml(ta, cuit)}<PtoVta>9</PtoVta><CbteTipo>11</CbteTipo>`,
      )
    ).text,
    "FECompUltimoAutorizado",
  );

describe("withdrawing a delegation", () => {
  it("the certificate's own association: the next login is coe.notAuthorized, the issued TA keeps working", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "propio", ["wsfe"]);
    await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 9 });
    const ta = await login(sim, "homologacion", id, "wsfe");
    expect(relationsOf(ta)).toEqual([CUIT]);

    expect(
      await control.undelegate("homologacion", { cuit: CUIT, alias: "propio", service: "wsfe" }),
    ).toEqual({ ok: true, removed: true });
    // the token carries its relations: the TA already issued is still accepted
    expect(await ultimo(sim, ta, CUIT)).toBe(
      "<PtoVta>9</PtoVta><CbteTipo>11</CbteTipo><CbteNro>0</CbteNro>",
    );
    // once that TA is gone, the next login no longer gets the service
    await control.forgetTas("homologacion");
    const refused = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(refused.status).toBe(500);
    expect(faultCode(refused.text)).toBe("ns1:coe.notAuthorized");
    expect(faultString(refused.text)).toBe("Computador no autorizado a acceder al servicio");
    // withdrawing what is not there is harmless and says so
    expect(
      await control.undelegate("homologacion", { cuit: CUIT, alias: "propio", service: "wsfe" }),
    ).toEqual({ ok: true, removed: false });
    await control.delegate("homologacion", { cuit: CUIT, alias: "propio", service: "wsfe" });
    expect(relationsOf(await login(sim, "homologacion", id, "wsfe"))).toEqual([CUIT]);
  });

  it("another CUIT's delegation: the next token's relations drop the represented CUIT", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "estudio", ["wsfe"]);
    await control.delegate("homologacion", {
      cuit: REPRESENTED,
      alias: "estudio",
      service: "wsfe",
    });
    await control.enablePointOfSale("homologacion", { cuit: REPRESENTED, ptoVta: 9 });
    await control.forgetTas("homologacion");
    const before = await login(sim, "homologacion", id, "wsfe");
    expect(relationsOf(before)).toEqual([CUIT, REPRESENTED]);

    expect(
      await control.undelegate("homologacion", {
        cuit: REPRESENTED,
        alias: "estudio",
        service: "wsfe",
      }),
    ).toEqual({ ok: true, removed: true });
    expect(await ultimo(sim, before, REPRESENTED)).toBe(
      "<PtoVta>9</PtoVta><CbteTipo>11</CbteTipo><CbteNro>0</CbteNro>",
    );
    await control.forgetTas("homologacion");
    const after = await login(sim, "homologacion", id, "wsfe");
    expect(relationsOf(after)).toEqual([CUIT]);
    expect(await ultimo(sim, after, REPRESENTED)).toContain(
      `<Code>600</Code><Msg>ValidacionDeToken: No apareció CUIT en lista de relaciones: ${REPRESENTED}</Msg>`,
    );
    expect(await ultimo(sim, after, CUIT)).toBe(
      "<PtoVta>9</PtoVta><CbteTipo>11</CbteTipo><CbteNro>0</CbteNro>",
    );
  });

  it("answers 400 naming the field for invalid input, and 404 for an unknown environment", async () => {
    await expect(
      control.undelegate("homologacion", { cuit: CUIT, alias: "x", service: "nope" as "wsfe" }),
    ).rejects.toThrow(/^service: /);
    const res = await fetch(`${sim.url}/_control/staging/delegations`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cuit: CUIT, alias: "x", service: "wsfe" }),
    });
    expect(res.status).toBe(404);
  });

  it("survives a restart with SIM_STATE_FILE", async () => {
    const file = join(dir, "state.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    let id: Awaited<ReturnType<typeof makeIdentity>>;
    try {
      const c = makeControlClient(first.url);
      id = await makeIdentity(c, "produccion", CUIT, "persistido", ["wsfe", "wsfex"]);
      await c.undelegate("produccion", { cuit: CUIT, alias: "persistido", service: "wsfe" });
    } finally {
      await first.close();
    }
    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      const refused = await postLogin(second, "produccion", signCms(id, makeTra("wsfe")));
      expect(faultCode(refused.text)).toBe("ns1:coe.notAuthorized");
      expect(relationsOf(await login(second, "produccion", id, "wsfex"))).toEqual([CUIT]);
    } finally {
      await second.close();
    }
  });
});

describe("CLI: undelegate and permit", () => {
  it("undelegate prints one JSON object and withdraws the delegation", async () => {
    const other = await startSimulator({ port: 0 });
    try {
      const c = makeControlClient(other.url);
      const id = await makeIdentity(c, "homologacion", CUIT, "cli-undelegate", ["wsfex"]);
      const args = [
        "undelegate",
        "--environment",
        "homologacion",
        "--cuit",
        CUIT,
        "--alias",
        "cli-undelegate",
        "--service",
        "wsfex",
      ];
      expect(await runCli(args, c)).toBe('{"ok":true,"removed":true}');
      expect(await runCli(args, c)).toBe('{"ok":true,"removed":false}');
      const refused = await postLogin(other, "homologacion", signCms(id, makeTra("wsfex")));
      expect(faultCode(refused.text)).toBe("ns1:coe.notAuthorized");
      await expect(
        runCli(["undelegate", "--environment", "homologacion", "--cuit", CUIT], c),
      ).rejects.toThrow(/missing --alias/);
    } finally {
      await other.close();
    }
  });

  it("permit prints one JSON object and makes FEXCheck_Permiso answer NO, then OK again", async () => {
    const other = await startSimulator({ port: 0 });
    try {
      const c = makeControlClient(other.url);
      const id = await makeIdentity(c, "homologacion", CUIT, "cli-permit", ["wsfex"]);
      const ta = await login(other, "homologacion", id, "wsfex");
      const status = async (idPermiso: string, dstMerc: number) =>
        /<Status>([^<]*)<\/Status>/.exec(
          resultOf(
            (
              await asmx(
                other.endpoints("homologacion").wsfex,
                FEX_NS,
                "FEXCheck_Permiso",
                `${authXml(ta, CUIT)}<ID_Permiso>${idPermiso}</ID_Permiso><Dst_merc>${dstMerc}</Dst_merc>`,
              )
            ).text,
            "FEXCheck_Permiso",
          ),
        )?.[1];
      const permit = (s: string) => [
        "permit",
        "--environment",
        "homologacion",
        "--id-permiso",
        "99999AAXX999999A",
        "--dst-merc",
        "203",
        "--status",
        s,
      ];
      expect(await status("99999AAXX999999A", 203)).toBe("OK");
      expect(await runCli(permit("NO"), c)).toBe(OK_JSON);
      expect(await status("99999AAXX999999A", 203)).toBe("NO");
      // the state is per (permit, destination)
      expect(await status("99999AAXX999999A", 204)).toBe("OK");
      expect(await runCli(permit("OK"), c)).toBe(OK_JSON);
      expect(await status("99999AAXX999999A", 203)).toBe("OK");
      await expect(runCli(permit("MAYBE"), c)).rejects.toThrow(/--status must be one of OK, NO/);
      await expect(
        runCli(
          [
            "permit",
            "--environment",
            "homologacion",
            "--id-permiso",
            "X",
            "--dst-merc",
            "2.5",
            "--status",
            "NO",
          ],
          c,
        ),
      ).rejects.toThrow(/--dst-merc must be an integer/);
    } finally {
      await other.close();
    }
  });
});
