// Runs Raycast's own tool-schema extraction (what `ray build` does after compiling) over
// written extensions, and prints one line per tool it refuses: `path: message`.
//
// Usage: node tool-schemas.js EXTENSION_DIR...
//
// The extraction builds one TypeScript program per tool (it parses @types/node each time,
// about a third of a second), so a large API takes minutes: with TOOL_SCHEMAS_PER_EXTENSION=N
// only the N tools with the longest sources of each extension are read (the richest types).
const fs = require("node:fs");
const path = require("node:path");
const { getSchemas } = require("@raycast/api/dist/utils/extract-tools-info.js");

const limit = Number(process.env.TOOL_SCHEMAS_PER_EXTENSION || "0");
let refused = 0;
let read = 0;
for (const dir of process.argv.slice(2)) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  let tools = (manifest.tools || []).filter((t) => fs.existsSync(path.join(dir, "src", "tools", `${t.name}.ts`)));
  if (limit > 0 && tools.length > limit) {
    const size = (t) => fs.statSync(path.join(dir, "src", "tools", `${t.name}.ts`)).size;
    tools = tools.map((t) => [size(t), t]).sort((a, b) => b[0] - a[0]).slice(0, limit).map(([, t]) => t);
  }
  const [, errors] = getSchemas(dir, tools, {});
  read += tools.length;
  for (const error of errors) {
    refused += 1;
    console.log(`${error.filePath}: ${error.message}`);
  }
}
console.error(`${read} tools read, ${refused} refused`);
