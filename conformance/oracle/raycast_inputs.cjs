// Prints, as JSON, each Raycast tool's input as the TypeScript compiler sees it: for every
// extension folder given, {folder: [{name, input?, no_input?, description?}]}, `description`
// the default export's JSDoc. A tool's input is the type of its default-exported function's
// first parameter, turned into JSON Schema the way Raycast's
// own extraction (`getSchemas` in @raycast/api, which `ray build` runs) does: properties with
// their JSDoc text as description, optional ones not required, unions of literals as enums.
// Raycast's extraction builds one program per tool (a third of a second each); this builds
// one program for every folder, so the oracle can read every output. A tool whose source
// does not compile to a readable signature has no `input`.
//
// Usage: node raycast_inputs.cjs EXTENSION_DIR... (run where `typescript` resolves)
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const folders = process.argv.slice(2);
const files = [];
const wanted = {};
for (const dir of folders) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  wanted[dir] = [];
  for (const tool of manifest.tools || []) {
    const file = ["ts", "tsx"].map((e) => path.join(dir, "src", "tools", `${tool.name}.${e}`)).find((f) => fs.existsSync(f));
    wanted[dir].push([tool.name, file]);
    if (file) files.push(file);
  }
}
const program = ts.createProgram(files, {
  noEmit: true, skipLibCheck: true, strict: true, target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS, jsx: ts.JsxEmit.ReactJSX, types: [], noResolve: false,
});
const checker = program.getTypeChecker();

function doc(symbol) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  return text || undefined;
}

function literalEnum(types, flag, kind) {
  if (types.length && types.every((t) => t.flags & flag)) return { type: kind, enum: types.map((t) => t.value) };
  return null;
}

function schema(type, at, depth) {
  if (depth > 12) return {};
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (f & ts.TypeFlags.StringLiteral) return { type: "string", enum: [type.value] };
  if (f & ts.TypeFlags.NumberLiteral) return { type: "number", enum: [type.value] };
  if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return { type: "string" };
  if (f & ts.TypeFlags.Number) return { type: "number" };
  if (f & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
  if (f & ts.TypeFlags.Null) return { type: "null" };
  if (type.isUnion()) {
    const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const nullable = members.some((t) => t.flags & ts.TypeFlags.Null);
    const rest = members.filter((t) => !(t.flags & ts.TypeFlags.Null));
    let out =
      literalEnum(rest, ts.TypeFlags.StringLiteral, "string") ||
      literalEnum(rest, ts.TypeFlags.NumberLiteral, "number") ||
      (rest.length && rest.every((t) => t.flags & ts.TypeFlags.BooleanLiteral) ? { type: "boolean" } : null);
    if (!out) out = rest.length === 1 ? schema(rest[0], at, depth + 1) : { anyOf: rest.map((t) => schema(t, at, depth + 1)) };
    return nullable ? { anyOf: [out, { type: "null" }] } : out;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [item] = checker.getTypeArguments(type);
    return { type: "array", items: item ? schema(item, at, depth + 1) : {} };
  }
  if (f & ts.TypeFlags.Object) {
    const out = { type: "object", properties: {} };
    const required = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration || (prop.declarations || [])[0] || at;
      let propType = checker.getTypeOfSymbolAtLocation(prop, decl);
      const sub = schema(propType, decl, depth + 1);
      const described = doc(prop);
      if (described) sub.description = described;
      // A default lives in the JSDoc (`@default 20`), which Raycast hands the model as text.
      for (const tag of prop.getJsDocTags(checker)) {
        if (tag.name !== "default" || !tag.text) continue;
        const value = ts.displayPartsToString(tag.text).trim();
        try { sub.default = JSON.parse(value); } catch { sub.default = value; }
      }
      out.properties[prop.getName()] = sub;
      // Only `?` makes a property optional (`m: "a" | undefined` is required, as getSchemas says).
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.getName());
    }
    if (required.length) out.required = required;
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    if (index) out.additionalProperties = schema(index, at, depth + 1);
    return out;
  }
  return {};
}

function input(file) {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) return null;
  let exported = checker.getExportsOfModule(module).find((s) => s.getName() === "default");
  if (!exported) return null;
  if (exported.flags & ts.SymbolFlags.Alias) exported = checker.getAliasedSymbol(exported);
  const decl = exported.valueDeclaration || (exported.declarations || [])[0];
  if (!decl) return null;
  const signatures = checker.getTypeOfSymbolAtLocation(exported, decl).getCallSignatures();
  if (!signatures.length) return null;
  // The function's JSDoc, which getSchemas hands the model as the tool's `instructions` (on a
  // const arrow exported later, the JSDoc of its declaration).
  const described = doc(exported);
  const [param] = signatures[0].getParameters();
  if (!param) return { no_input: true, description: described };
  const at = param.valueDeclaration || decl;
  const input = schema(checker.getTypeOfSymbolAtLocation(param, at), at, 0);
  // Raycast reads a tool's input only from an object type: a positional parameter is not one.
  return input.type === "object" ? { input, description: described } : { description: described };
}

const out = {};
for (const dir of folders) {
  out[dir] = wanted[dir].map(([name, file]) => ({ name, ...(file ? input(file) || {} : {}) }));
}
process.stdout.write(JSON.stringify(out));
