import { fakeTickets } from "@pasarela/authority/testing";
import { describe, expect, it } from "vitest";
import { makePadronAdapter } from "../../src/adapters/padron.js";

const caller = { accountId: "a", cuit: "20111111112", environment: "homologacion" as const };
const url = (name: string) => ({
  homologacion: `http://homo.test/${name}`,
  produccion: `http://prod.test/${name}`,
});
const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;

interface Sent {
  endpoint: string;
  headers: Record<string, string>;
  body: string;
}

/** An adapter whose transport answers `respond` and records what it was sent. */
function adapterAnswering(respond: (sent: Sent) => { status: number; text: string }) {
  const sent: Sent[] = [];
  const tickets = fakeTickets();
  const adapter = makePadronAdapter({
    urls: { a13: url("a13"), a10: url("a10"), constancia: url("a5") },
    timeoutMs: 1_000,
    tickets,
    post: (endpoint, headers, body) => {
      const request = { endpoint, headers, body };
      sent.push(request);
      return Promise.resolve(respond(request));
    },
  });
  return { adapter, sent, tickets };
}

describe("registry requests as JAX-WS takes them", () => {
  it("sends the operation qualified, its children unqualified in order, soapAction empty", async () => {
    const { adapter, sent } = adapterAnswering(() => ({
      status: 200,
      text: envelope(
        `<ns2:getPersona_v2Response xmlns:ns2="http://a5.soap.ws.server.puc.sr/"><personaReturn><datosGenerales><idPersona>30712345671</idPersona></datosGenerales></personaReturn></ns2:getPersona_v2Response>`,
      ),
    }));
    const result = await adapter.constancia(caller, "30712345671");
    expect(result.ok).toBe(true);
    expect(sent[0]?.endpoint).toBe("http://homo.test/a5");
    expect(sent[0]?.headers.soapaction).toBe('""');
    expect(sent[0]?.body).toContain(
      '<ns2:getPersona_v2 xmlns:ns2="http://a5.soap.ws.server.puc.sr/"><token>token-1</token><sign>sign</sign><cuitRepresentada>20111111112</cuitRepresentada><idPersona>30712345671</idPersona></ns2:getPersona_v2>',
    );
  });

  it("answers an empty list when the registry faults 'No existe persona' for a document", async () => {
    const { adapter } = adapterAnswering(() => ({
      status: 500,
      text: envelope(
        "<soap:Fault><faultcode>soap:Server</faultcode><faultstring>No existe persona con ese Id</faultstring></soap:Fault>",
      ),
    }));
    expect(await adapter.documento(caller, "99888777")).toEqual({ ok: true, value: [] });
  });

  it("answers 404 when getPersona_v2 reports an unknown id as a record holding only errorConstancia", async () => {
    const { adapter } = adapterAnswering(() => ({
      status: 200,
      text: envelope(
        `<ns2:getPersona_v2Response xmlns:ns2="http://a5.soap.ws.server.puc.sr/"><personaReturn><errorConstancia><error>No existe persona con ese Id</error><idPersona>20444555662</idPersona></errorConstancia></personaReturn></ns2:getPersona_v2Response>`,
      ),
    }));
    const result = await adapter.constancia(caller, "20444555662");
    expect(result.ok || result.error.code).toBe("PERSONA_NOT_FOUND");
  });

  it("asks once more with a fresh ticket when the registry refuses the token, then answers 502", async () => {
    const { adapter, sent, tickets } = adapterAnswering(() => ({
      status: 500,
      text: envelope(
        "<soap:Fault><faultcode>soap:Server</faultcode><faultstring>No autorizado, par token/sign invalido.</faultstring></soap:Fault>",
      ),
    }));
    const result = await adapter.a13(caller, "30712345671");
    expect(result.ok || result.error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(sent.map((s) => /<token>([^<]*)<\/token>/.exec(s.body)?.[1])).toEqual([
      "token-1",
      "token-2",
    ]);
    expect(tickets.invalidations).toBe(2);
  });
});
