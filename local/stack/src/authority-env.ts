/** The URLs of the simulator's two worlds, in the variables the services read. */
export function simulatorAuthorityEnv(simulatorUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [environment, suffix] of [
    ["homologacion", "HOMOLOGACION"],
    ["produccion", "PRODUCCION"],
  ] as const) {
    const base = `${simulatorUrl}/${environment}`;
    env[`WSAA_URL_${suffix}`] = `${base}/ws/services/LoginCms`;
    env[`WSFE_URL_${suffix}`] = `${base}/wsfev1/service.asmx`;
    env[`WSFEX_URL_${suffix}`] = `${base}/wsfexv1/service.asmx`;
    env[`PADRON_A13_URL_${suffix}`] = `${base}/sr-padron/webservices/personaServiceA13`;
    env[`PADRON_A10_URL_${suffix}`] = `${base}/sr-padron/webservices/personaServiceA10`;
    env[`PADRON_CONSTANCIA_URL_${suffix}`] = `${base}/sr-padron/webservices/personaServiceA5`;
  }
  return env;
}
