import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium, which `.ci/run` installs; playwright-core drives it, downloading nothing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
}

export interface PanelAnswer {
  status: number;
  location: string | null;
  headers: Headers;
  setCookies: string[];
  text: string;
}

/** The value of the form token field in a page, if it has one. */
export const csrfOf = (page: string): string | undefined =>
  /name="_csrf" value="([^"]+)"/.exec(page)?.[1];

/**
 * A client of the dashboard over plain HTTP with its own cookie jar: what the security tests
 * need to send what a browser never would (no token, another session's token, a key).
 */
export class PanelClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(
    method: "GET" | "POST",
    path: string,
    options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<PanelAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        ...options.headers,
      },
      ...(options.form ? { body: new URLSearchParams(options.form).toString() } : {}),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      location: response.headers.get("location"),
      headers: response.headers,
      setCookies,
      text: await response.text(),
    };
  }

  get(path: string, headers?: Record<string, string>): Promise<PanelAnswer> {
    return this.request("GET", path, headers ? { headers } : {});
  }

  /** Loads `page` for its form token, then posts `form` (with that token) to `action`. */
  async submit(page: string, action: string, form: Record<string, string>): Promise<PanelAnswer> {
    const shown = await this.get(page);
    const token = csrfOf(shown.text);
    if (!token) throw new Error(`${page} has no form token (status ${shown.status})`);
    const answer = await this.request("POST", action, { form: { _csrf: token, ...form } });
    // Post/Redirect/Get: what the form answered is shown by the page the browser is sent to
    if (answer.status !== 303 || !answer.location?.includes("resultado=")) return answer;
    return this.get(answer.location);
  }

  async signup(user: { accountName: string; name: string; email: string; password: string }) {
    const answer = await this.submit("/panel/registrarse", "/panel/registrarse", {
      ...user,
      password2: user.password,
    });
    if (answer.status !== 303) throw new Error(`sign-up answered ${answer.status}: ${answer.text}`);
    return answer;
  }

  login(email: string, password: string): Promise<PanelAnswer> {
    return this.submit("/panel/ingresar", "/panel/ingresar", { email, password });
  }
}

let counter = 0;
/** A fresh user's details; the password is long enough for the sign-up rules. */
export function newUser(label: string) {
  counter++;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return {
    accountName: `${label} SRL`,
    name: `${label} Titular`,
    email: `${label.toLowerCase().replace(/[^a-z]/g, "")}-${tag}@ejemplo.com.ar`,
    password: `clave-segura-${tag}`,
  };
}
