/** Names of the loopback interface. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function hostPort(host: string, port: number): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The Host header values a loopback server accepts: the bound host:port, and `localhost:port`
 * (a loopback name that DNS cannot rebind). Any other name is a DNS-rebinding attempt.
 */
export function loopbackAllowedHosts(host: string, port: number): string[] {
  const names = new Set([hostPort(host.toLowerCase(), port), `localhost:${port}`]);
  if (host.toLowerCase() === "localhost") {
    names.add(`127.0.0.1:${port}`);
    names.add(`[::1]:${port}`);
  }
  return [...names];
}

/** DNS-rebinding protection: the Host header must be one of the allowed host:port values (null: no check). */
export class HostCheck {
  private readonly allowed: Set<string> | null;

  constructor(allowed: string[] | null) {
    this.allowed = allowed === null ? null : new Set(allowed.map((h) => h.toLowerCase()));
  }

  allows(hostHeader: string | undefined): boolean {
    if (this.allowed === null) return true;
    if (hostHeader === undefined) return false;
    return this.allowed.has(hostHeader.trim().toLowerCase());
  }

  get hosts(): string[] | null {
    return this.allowed === null ? null : [...this.allowed];
  }
}
