import { webhooks } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import {
  createForm,
  detailView,
  EVENTOS,
  listView,
  secretCard,
  tipoText,
} from "../../src/panel/pages/webhooks-views.js";

const text = (markup: { toString(): string }) =>
  String(markup)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const webhook = (extra: Partial<webhooks.Webhook> = {}): webhooks.Webhook => ({
  id: "00000000-0000-4000-8000-0000000000aa",
  url: "https://erp.example.com/hooks?a=1&b=<2>",
  eventos: ["comprobante.autorizado", "cobro.pagado"],
  descripcion: "ERP <producción>",
  activo: true,
  fallandoDesde: null,
  desactivadoAt: null,
  desactivadoMotivo: null,
  createdAt: "2026-11-26T20:53:00.000Z",
  updatedAt: "2026-11-26T20:53:00.000Z",
  ...extra,
});

const entrega = (extra: Partial<webhooks.Entrega> = {}): webhooks.Entrega => ({
  id: "00000000-0000-4000-8000-0000000000bb",
  eventoId: "evt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  tipo: "webhook.prueba",
  status: "pending",
  intentos: 2,
  ultimoStatusCode: 503,
  ultimoError: "HTTP 503: <caído>",
  latenciaMs: 87,
  proximoIntentoAt: "2026-11-26T21:00:00.000Z",
  createdAt: "2026-11-26T20:55:00.000Z",
  updatedAt: "2026-11-26T20:56:00.000Z",
  ...extra,
});

describe("panel: the Webhooks pages", () => {
  it("offers every event the API accepts as a checkbox, * among them, keeping the ones chosen", () => {
    expect(Object.keys(EVENTOS)).toEqual([...webhooks.WEBHOOK_EVENTOS]);
    const form = String(
      createForm("t", { url: "", eventos: ["*", "email.fallido"], descripcion: "", activo: true }),
    );
    const boxes = form.match(/<input\s+type="checkbox"[^>]*>/g) ?? [];
    expect(boxes).toHaveLength(webhooks.WEBHOOK_EVENTOS.length);
    const checked = boxes
      .filter((b) => / checked/.test(b))
      .map((b) => /value="([^"]+)"/.exec(b)?.[1]);
    expect(checked).toEqual(["email.fallido", "*"]);
  });

  it("puts a refusal about the events under their group, tied to it, and one about the url under it", () => {
    const values = { url: "https://x", eventos: [], descripcion: "", activo: true };
    const eventos = String(
      createForm("t", values, { message: "El campo eventos …", field: "eventos" }),
    );
    expect(eventos).toMatch(/<fieldset\s+class="checks"\s+aria-describedby="eventos-error"/);
    expect(eventos).toMatch(
      /<p class="field-error" id="eventos-error">El campo eventos …<\/p>\s*<\/fieldset>/,
    );
    expect(eventos).not.toContain('class="notice error"');
    const url = String(createForm("t", values, { message: "La url …", field: "url" }));
    expect(url).toContain('aria-describedby="url-error"');
    expect(url).not.toContain('aria-describedby="eventos-error"');
    // a refusal about nothing the form has sits above it
    const limit = String(createForm("t", values, { message: "Llegaste al máximo" }));
    expect(limit).toContain('<div class="notice error" role="alert">Llegaste al máximo</div>');
  });

  it("lists endpoints with their events, state and creation, escaping what the account typed", () => {
    const page = String(
      listView(
        [
          webhook(),
          webhook({
            id: "00000000-0000-4000-8000-0000000000ac",
            activo: false,
            eventos: ["*"],
            descripcion: null,
          }),
        ],
        "t",
        { url: "", eventos: [], descripcion: "", activo: true },
      ),
    );
    expect(page).toContain("https://erp.example.com/hooks?a=1&amp;b=&lt;2&gt;");
    expect(page).toContain("ERP &lt;producción&gt;");
    const rows = page.split("<tr>").slice(2).map(text);
    expect(rows[0]).toMatch(/comprobante\.autorizado ?, cobro\.pagado Activo 26\/11\/2026 17:53/);
    expect(rows[1]).toContain("* Pausado");
    expect(page).toContain('href="/panel/webhooks/00000000-0000-4000-8000-0000000000ac"');
  });

  it("shows the log with attempt, status, latency, next attempt and state, each with Reenviar", () => {
    const page = String(
      detailView(
        webhook(),
        {
          items: [
            entrega(),
            entrega({
              id: "00000000-0000-4000-8000-0000000000bc",
              tipo: "comprobante.autorizado",
              status: "delivered",
              ultimoStatusCode: 200,
              ultimoError: null,
              proximoIntentoAt: null,
            }),
          ],
          nextCursor: "c/ur+sor",
        },
        "token",
        {},
      ),
    );
    const [pending = "", delivered = ""] = page
      .split('<table id="entregas">')[1]!
      .split("<tr>")
      .slice(2)
      .map(text);
    expect(pending).toBe(
      "evt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 26/11/2026 17:55 Evento de prueba webhook.prueba 2 503 87 ms 26/11/2026 18:00 Pendiente HTTP 503: &lt;caído&gt; Reenviar",
    );
    expect(delivered).toContain(
      "Comprobante autorizado comprobante.autorizado 2 200 87 ms — Entregada Reenviar",
    );
    expect(page).toContain(
      'action="/panel/webhooks/00000000-0000-4000-8000-0000000000aa/entregas/00000000-0000-4000-8000-0000000000bc/reenviar"',
    );
    expect(page).toContain("HTTP 503: &lt;caído&gt;");
    expect(page).toContain("?cursor=c%2Fur%2Bsor");
    expect(page).toContain("Enviar evento de prueba");
    // the edit form holds the endpoint as it is
    expect(page).toMatch(/name="activo" value="si"\s+checked/);
  });

  it("says a secret is shown once, and after a rotation until when the old one keeps signing", () => {
    const created = text(secretCard("whsec_x", undefined));
    expect(created).toContain("no se volverá a mostrar");
    expect(created).not.toContain("anterior");
    const rotated = text(secretCard("whsec_y", "2026-11-27T20:53:00.000Z"));
    expect(rotated).toContain(
      "El secreto anterior sigue firmando junto a este hasta 27/11/2026 17:53 (24 horas)",
    );
    expect(String(secretCard("whsec_y", undefined))).toContain('data-copy="#secreto"');
  });

  it("names the kinds it delivers, and leaves an unknown one as it came", () => {
    expect(tipoText("webhook.prueba")).toBe("Evento de prueba");
    expect(tipoText("cobro.pagado")).toBe("Cobro pagado");
    expect(tipoText("otro.evento")).toBe("otro.evento");
  });
});

describe("a webhook the service disabled, or whose deliveries fail", () => {
  it("says so in the list and on its page, with why and how to turn it back on", () => {
    const disabled = webhook({
      activo: false,
      fallandoDesde: "2026-11-20T10:00:00.000Z",
      desactivadoAt: "2026-11-23T10:00:00.000Z",
      desactivadoMotivo: "Sus entregas fallaron sin interrupción durante 3 días.",
    });
    const values = { url: "", eventos: [], descripcion: "", activo: true };
    expect(text(listView([disabled], "t", values))).toContain("Desactivado");
    const page = text(detailView(disabled, { items: [], nextCursor: null }, "t", {}));
    expect(page).toContain("Desactivado");
    expect(page).toContain("fallaron sin interrupción durante 3 días");
    expect(page).toContain("Marcá «Activo» y guardá");
    const failing = text(
      detailView(
        webhook({ fallandoDesde: "2026-11-26T20:00:00.000Z" }),
        { items: [], nextCursor: null },
        "t",
        {},
      ),
    );
    expect(failing).toContain("Fallando");
    expect(failing).toContain("si siguen fallando durante 3 días");
  });
});
