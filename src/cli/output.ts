import { toWire } from "../core/wire.js";

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** --json: field names in the wire's snake_case, as the REST API and MCP tools spell them. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(toWire(value), null, 2)}\n`);
}
