// Runs tools of a written extension with a fetch that records the request instead of sending
// it, and prints what each call would have sent.
//
// Usage: node run-tools.js EXTENSION_DIR < calls.json
// calls.json: [{"tool": NAME, "input": {...}}]; prints [{"method", "url", "headers", "body"}]
// (`body`: the text sent, or null; `error` instead when the tool throws).
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const ts = require("typescript");

const dir = process.argv[2];
const out = fs.mkdtempSync(path.join(os.tmpdir(), "run-tools-"));
// Transpile every source to CommonJS beside each other, keeping the folder layout.
const walk = (folder) =>
  fs.readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(folder, e.name)) : [path.join(folder, e.name)],
  );
for (const file of walk(path.join(dir, "src")).filter((f) => f.endsWith(".ts"))) {
  const relative = path.relative(dir, file).replace(/\.ts$/, ".js");
  const js = ts.transpileModule(fs.readFileSync(file, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  fs.mkdirSync(path.dirname(path.join(out, relative)), { recursive: true });
  fs.writeFileSync(path.join(out, relative), js);
}

let sent;
globalThis.fetch = async (url, init = {}) => {
  let body = init.body ?? null;
  if (body instanceof URLSearchParams) body = body.toString();
  else if (body instanceof FormData) body = JSON.stringify([...body.entries()]);
  sent = { method: init.method, url: String(url), headers: init.headers, body };
  return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { "content-type": "application/json" } });
};

(async () => {
  const calls = JSON.parse(fs.readFileSync(0, "utf8"));
  const results = [];
  for (const call of calls) {
    sent = undefined;
    try {
      const tool = require(path.join(out, "src", "tools", `${call.tool}.js`)).default;
      await tool(call.input);
      results.push(sent ?? { error: "no request" });
    } catch (e) {
      results.push({ error: String(e && e.message ? e.message : e) });
    }
  }
  fs.rmSync(out, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(results));
})();
