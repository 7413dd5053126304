// Drives gitwarrant's MCP server with the official TypeScript SDK.
// Usage:
//   node client.mjs stdio <calls.json> <command> [args...]
//   node client.mjs http  <calls.json> <url> <bearer key>
// calls.json is [{"name": tool, "arguments": {...}}, ...]. Prints one JSON
// document: {"tools": [names…], "results": [{"name", "isError", "structured", "text"}…]}.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, callsFile, ...rest] = process.argv.slice(2);
const calls = JSON.parse(readFileSync(callsFile, "utf8"));

let transport;
if (mode === "stdio") {
  const [command, ...args] = rest;
  transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
} else if (mode === "http") {
  const [url, key] = rest;
  transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const client = new Client({ name: "gitwarrant-conformance", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const out = { tools: listed.tools.map((t) => t.name).sort(), results: [] };
for (const c of calls) {
  const r = await client.callTool({ name: c.name, arguments: c.arguments });
  const text = (r.content || []).filter((x) => x.type === "text").map((x) => x.text).join("");
  out.results.push({ name: c.name, isError: !!r.isError, structured: r.structuredContent ?? null, text });
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
