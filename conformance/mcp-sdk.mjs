// Checks MCP outputs with the official TypeScript SDK's ListToolsResultSchema (the schema MCP
// clients validate a tools/list result with). Usage: node mcp-sdk.mjs FILE...; prints a JSON
// object mapping each file to its list of errors (empty when accepted).
import { readFileSync } from "node:fs";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";

const verdicts = {};
for (const file of process.argv.slice(2)) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  const result = !Array.isArray(doc) && doc && Array.isArray(doc.tools) ? doc : { tools: Array.isArray(doc) ? doc : [doc] };
  const parsed = ListToolsResultSchema.safeParse(result);
  verdicts[file] = parsed.success
    ? []
    : parsed.error.issues.slice(0, 5).map((i) => `ListToolsResultSchema: ${i.message} at ${i.path.join("/")}`);
}
process.stdout.write(JSON.stringify(verdicts));
