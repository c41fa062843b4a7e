// Runs Raycast's own tool-schema extraction (what `ray build` does after compiling) over
// written extensions, and prints one line per tool it refuses: `path: message`.
//
// Usage: node tool-schemas.js [--json] EXTENSION_DIR...
// (--json prints {dir: {schemas, errors}} instead, for comparing with the unshared extraction.)
//
// Raycast's getSchemas builds one TypeScript program per tool, each parsing the standard
// library, @types/node and @raycast/api again (about a third of a second a tool, minutes for a
// large API). Here its code is loaded with one change: the tools of one getSchemas call (one
// extension) share one program whose roots are all of them, and the programs share the parsed
// files under node_modules and TypeScript's lib; every tool is still read by Raycast's own
// code, from the same file, with the same compiler options (every tool of a 771-tool API in
// seconds). TOOL_SCHEMAS_SHARED=0 runs the extraction unchanged.
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");

const bundle = require.resolve("@raycast/api/dist/utils/extract-tools-info.js");

// The bundle's own names (esbuild's, in @raycast/api 1.104.25): its TypeScript `oa.default`,
// the extension folder `jo`, the tools `Di`, the parsed tsconfig `As`, a tool's file `Ym`.
const PER_TOOL_PROGRAM =
  "oa.default.createProgram({options:As?.options||{},projectReferences:As?.projectReferences,rootNames:[Ym]})";
const ITS_ONLY_ROOT = "Wc.getRootFileNames().map(ti=>Wc.getSourceFile(ti))[0]";

/// The program of one extension's tools, the last one kept (getSchemas reads one extension).
function __toolSchemasProgram(ts, dir, tools, config) {
  const fs = require("node:fs");
  const path = require("node:path");
  const state = (__toolSchemasProgram.state ??= { key: null, program: null, files: new Map() });
  // The tool files as getSchemas finds each (`.ts`, else `.tsx`).
  const roots = tools
    .map((t) => {
      const file = path.join(dir, "src", "tools", `${t.name}.ts`);
      return fs.existsSync(file) ? file : path.join(dir, "src", "tools", `${t.name}.tsx`);
    })
    .filter((file) => fs.existsSync(file));
  const options = config?.options || {};
  const key = JSON.stringify([dir, roots, options]);
  if (state.key !== key) {
    const host = ts.createCompilerHost(options);
    const parse = host.getSourceFile.bind(host);
    // Files no extension writes (installed packages, TypeScript's lib) are parsed once for all
    // programs, as an editor's language service shares them; an extension's own are not.
    host.getSourceFile = (fileName, version, onError, fresh) => {
      if (!/[\\/]node_modules[\\/]/.test(fileName)) return parse(fileName, version, onError, fresh);
      const setting = typeof version === "object" ? version : { languageVersion: version };
      const id = JSON.stringify([
        fileName,
        setting.languageVersion,
        setting.impliedNodeFormat,
        setting.jsDocParsingMode,
      ]);
      if (!state.files.has(id)) state.files.set(id, parse(fileName, version, onError, fresh));
      return state.files.get(id);
    };
    state.program = ts.createProgram({ options, projectReferences: config?.projectReferences, rootNames: roots, host });
    state.key = key;
  }
  return state.program;
}

/// Raycast's getSchemas, with the tools of one call sharing a program (see above).
function sharedGetSchemas() {
  let source = fs.readFileSync(bundle, "utf8");
  for (const needle of [PER_TOOL_PROGRAM, ITS_ONLY_ROOT]) {
    if (source.split(needle).length !== 2) {
      throw new Error(`${bundle} changed: \`${needle}\` is not in it once; update tool-schemas.js`);
    }
  }
  source = source.replace(PER_TOOL_PROGRAM, "__toolSchemasProgram(oa.default,jo,Di,As)");
  source = source.replace(ITS_ONLY_ROOT, "Wc.getSourceFile(Ym)");
  // Appended: a function declaration is hoisted, and the bundle's "use strict" stays first.
  source += `\n;${__toolSchemasProgram.toString()}\n`;
  const loaded = new Module(bundle, module);
  loaded.filename = bundle;
  loaded.paths = Module._nodeModulePaths(path.dirname(bundle));
  loaded._compile(source, bundle);
  return loaded.exports.getSchemas;
}

const getSchemas = process.env.TOOL_SCHEMAS_SHARED === "0" ? require(bundle).getSchemas : sharedGetSchemas();
const json = process.argv[2] === "--json";
const dirs = process.argv.slice(json ? 3 : 2);
const answers = {};
let refused = 0;
let read = 0;
for (const dir of dirs) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const tools = (manifest.tools || []).filter((t) =>
    [".ts", ".tsx"].some((e) => fs.existsSync(path.join(dir, "src", "tools", `${t.name}${e}`))),
  );
  const [schemas, errors] = getSchemas(dir, tools, {});
  read += tools.length;
  answers[dir] = { schemas, errors: errors.map((e) => `${e.filePath}: ${e.message}`) };
  for (const error of errors) {
    refused += 1;
    if (!json) console.log(`${error.filePath}: ${error.message}`);
  }
}
if (json) process.stdout.write(`${JSON.stringify(answers)}\n`);
console.error(`${read} tools read, ${refused} refused`);
