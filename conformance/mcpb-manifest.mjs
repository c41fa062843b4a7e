// Checks MCPB manifests with the MCPB toolchain's own validation (@anthropic-ai/mcpb's
// validateManifest, what `mcpb validate` runs: the manifest version's zod schema, and the icon
// file when one is named). Usage: node mcpb-manifest.mjs FILE...; prints a JSON object mapping
// each file to its list of errors (empty when accepted).
import { validateManifest } from "@anthropic-ai/mcpb";

const verdicts = {};
const said = [];
const log = console.log;
// validateManifest reports on the console and returns whether the manifest is valid.
console.log = (...parts) => said.push(parts.join(" "));
console.error = console.log;
for (const file of process.argv.slice(2)) {
  said.length = 0;
  const valid = validateManifest(file);
  verdicts[file] = valid ? [] : said.map((line) => line.trim()).filter((line) => line.length > 0).slice(0, 8);
}
console.log = log;
process.stdout.write(JSON.stringify(verdicts));
