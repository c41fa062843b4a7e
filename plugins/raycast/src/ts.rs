//! Reading a tool's TypeScript file (`src/tools/<name>.ts`) with the oxc parser: the input
//! parameters of the default export (types, optionality, JSDoc descriptions, `@default`),
//! the tool's own JSDoc, and its `confirmation` export.
//!
//! Types are resolved in the tool file and in relative imports (`./types`) found in the bundle.
//! What cannot be resolved (a type imported from a package) becomes a warning with
//! file:line:column and a loosely typed parameter; a syntax error becomes an error diagnostic.

use std::collections::{BTreeMap, HashMap, HashSet};

use oxc_allocator::Allocator;
use oxc_ast::Comment;
use oxc_ast::ast::*;
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType, Span};
use serde_json::Value;
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::Locator;
use toolport_plugin::{
    Bundle, Confirmation, ConfirmationInfo, Diagnostic, EnumValue, Parameter, Property, Schema, SchemaType, codes,
};

/// How deep named types may nest before we stop (self-referential types).
const MAX_DEPTH: usize = 12;
/// How many files one tool may pull in through relative imports.
const MAX_MODULES: usize = 32;
/// How many types one tool's input may expand to. Depth alone does not bound the work: a
/// type whose members all refer to the next type doubles it at every level, so within
/// [`MAX_DEPTH`] a small file could expand to billions of nodes.
const TYPE_BUDGET: usize = 20_000;

/// What a tool file says about its tool.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TsTool {
    pub parameters: Vec<Parameter>,
    /// The JSDoc on the default export.
    pub description: Option<String>,
    pub confirmation: Option<Confirmation>,
}

struct Module<'a> {
    path: String,
    text: &'a str,
    /// Positions in `text`, indexed once for every diagnostic.
    at: Locator<'a>,
    program: Program<'a>,
    /// The leading comments attached to each token start (indices into `program.comments`).
    leading: HashMap<u32, Vec<usize>>,
}

struct Ctx<'a, 'm> {
    modules: &'m [Module<'a>],
    diagnostics: Vec<Diagnostic>,
    /// Unresolved names already reported (one warning per name and file).
    reported: HashSet<(usize, String)>,
    /// Types still to expand before [`TYPE_BUDGET`] is spent.
    budget: usize,
    /// Types reported as nesting too deeply (module, start): one warning each, however
    /// often the type is reached.
    too_deep: HashSet<(usize, u32)>,
}

/// Reads the tool file at `path` in `bundle`. `None` when the file does not parse at all.
pub fn extract(bundle: &Bundle, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<TsTool> {
    let allocator = Allocator::default();
    let text = bundle.get(path)?;
    let mut modules: Vec<Module> = Vec::new();
    let root = parse(&allocator, path, text, diagnostics)?;
    modules.push(root);
    // Parse the relative imports, breadth first, so types can be followed across files.
    let mut next = 0;
    while next < modules.len() && modules.len() < MAX_MODULES {
        let sources = relative_imports(&modules[next]);
        let from = modules[next].path.clone();
        next += 1;
        for source in sources {
            let Some(target) = resolve_module_path(bundle, &from, &source) else { continue };
            if modules.iter().any(|m| m.path == target) {
                continue;
            }
            if let Some(text) = bundle.get(&target)
                && let Some(module) = parse(&allocator, &target, text, diagnostics)
            {
                modules.push(module);
            }
        }
    }
    let mut ctx = Ctx {
        modules: &modules,
        diagnostics: Vec::new(),
        reported: HashSet::new(),
        budget: TYPE_BUDGET,
        too_deep: HashSet::new(),
    };
    let tool = ctx.tool();
    diagnostics.append(&mut ctx.diagnostics);
    Some(tool)
}

fn parse<'a>(
    allocator: &'a Allocator,
    path: &str,
    text: &'a str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Module<'a>> {
    // oxc parses recursively: refuse what nests too deeply before it runs.
    if let Err(error) = nesting::check(path, text, Syntax::TYPESCRIPT) {
        diagnostics.push(error);
        return None;
    }
    let source_type = if path.ends_with(".tsx") { SourceType::tsx() } else { SourceType::ts() };
    let parsed = Parser::new(allocator, text, source_type).parse();
    let at = Locator::new(text);
    for error in parsed.diagnostics.iter() {
        let offset = error.labels.first().map_or(0, |l| l.offset());
        let (line, column) = at.line_column(offset as usize);
        diagnostics.push(
            Diagnostic::error(codes::INPUT_SYNTAX, "", format!("TypeScript syntax error: {}", error.message))
                .at(path, line, column),
        );
    }
    if parsed.panicked {
        return None;
    }
    let mut leading: HashMap<u32, Vec<usize>> = HashMap::new();
    for (index, comment) in parsed.program.comments.iter().enumerate() {
        if comment.is_leading() {
            leading.entry(comment.attached_to).or_default().push(index);
        }
    }
    Some(Module { path: path.to_owned(), text, at, program: parsed.program, leading })
}

fn relative_imports(module: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for statement in &module.program.body {
        let source = match statement {
            Statement::ImportDeclaration(import) => import.source.value.as_str(),
            Statement::ExportFromDeclaration(export) => export.source.value.as_str(),
            Statement::ExportAllDeclaration(export) => export.source.value.as_str(),
            _ => continue,
        };
        if source.starts_with('.') {
            out.push(source.to_owned());
        }
    }
    out
}

/// The bundle path an import like `./types` or `../lib/types.js` points at, if it is there.
fn resolve_module_path(bundle: &Bundle, from: &str, source: &str) -> Option<String> {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for segment in source.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let base = parts.join("/");
    let stem = base.strip_suffix(".js").unwrap_or(&base);
    [
        base.clone(),
        format!("{stem}.ts"),
        format!("{stem}.tsx"),
        format!("{stem}.d.ts"),
        format!("{base}/index.ts"),
        format!("{base}/index.tsx"),
    ]
    .into_iter()
    .find(|candidate| bundle.files.contains_key(candidate) && !candidate.ends_with(".js"))
}

/// A named type declaration.
enum TypeDef<'a, 'm> {
    Alias(&'m TSTypeAliasDeclaration<'a>),
    Interface(&'m TSInterfaceDeclaration<'a>),
    Enum(&'m TSEnumDeclaration<'a>),
}

/// Something callable whose first parameter is the tool's input.
struct FnLike<'a, 'm> {
    params: &'m FormalParameters<'a>,
    /// Offsets where the tool's JSDoc may be attached (statement starts), best first.
    doc_at: Vec<u32>,
}

impl<'a, 'm> Ctx<'a, 'm> {
    fn root(&self) -> &'m Module<'a> {
        &self.modules[0]
    }

    fn warn(&mut self, module: usize, span: Span, code: &str, message: String) {
        let m = &self.modules[module];
        let (line, column) = m.at.line_column(span.start as usize);
        self.diagnostics.push(Diagnostic::warning(code, "", message).at(m.path.clone(), line, column));
    }

    /// Takes one type from the budget; when it is spent, says so once (at `span`) and false.
    fn spend(&mut self, module: usize, span: Span) -> bool {
        match self.budget {
            0 => false,
            1 => {
                self.budget = 0;
                self.warn(
                    module,
                    span,
                    codes::INPUT_UNSUPPORTED,
                    format!(
                        "the input's types expand to more than {TYPE_BUDGET} types; this one and the rest are read \
                         as any value"
                    ),
                );
                false
            }
            _ => {
                self.budget -= 1;
                true
            }
        }
    }

    fn tool(&mut self) -> TsTool {
        let mut tool = TsTool::default();
        let root = self.root();
        match self.default_export() {
            Some(function) => {
                tool.description = function.doc_at.iter().find_map(|&at| leading_doc(root, at)).map(|d| d.text);
                tool.parameters = self.input_parameters(function.params);
            }
            None => {
                self.warn(
                    0,
                    Span::new(0, 0),
                    codes::INPUT_INVALID,
                    "no default-exported function found; a Raycast tool is the file's default export".into(),
                );
            }
        }
        tool.confirmation = self.confirmation();
        tool
    }

    // ----- finding the tool function -----

    fn default_export(&self) -> Option<FnLike<'a, 'm>> {
        let root = self.root();
        for statement in &root.program.body {
            match statement {
                Statement::ExportDefaultDeclaration(export) => {
                    let start = export.span.start;
                    return match &export.declaration {
                        ExportDefaultDeclarationKind::FunctionDeclaration(function) => {
                            Some(FnLike { params: &function.params, doc_at: vec![start] })
                        }
                        ExportDefaultDeclarationKind::ClassDeclaration(_)
                        | ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => None,
                        other => other.as_expression().and_then(|e| self.function_in(e, vec![start], 0)),
                    };
                }
                Statement::ExportNamedDeclaration(export) => {
                    for specifier in &export.specifiers {
                        if specifier.exported.name() == "default" {
                            let local = specifier.local.name();
                            return self.declared_function(&local, vec![export.span.start], 0);
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The function an expression evaluates to: an arrow or function expression, a named
    /// declaration, or the function argument of a higher-order call.
    fn function_in(&self, expression: &'m Expression<'a>, doc_at: Vec<u32>, depth: usize) -> Option<FnLike<'a, 'm>> {
        if depth > MAX_DEPTH {
            return None;
        }
        match expression.get_inner_expression() {
            Expression::ArrowFunctionExpression(arrow) => Some(FnLike { params: &arrow.params, doc_at }),
            Expression::FunctionExpression(function) => Some(FnLike { params: &function.params, doc_at }),
            Expression::Identifier(id) => self.declared_function(id.name.as_str(), doc_at, depth + 1),
            Expression::CallExpression(call) => {
                for argument in &call.arguments {
                    if let Some(e) = argument.as_expression()
                        && let Some(found) = self.function_in(e, doc_at.clone(), depth + 1)
                    {
                        return Some(found);
                    }
                }
                self.function_in(&call.callee, doc_at, depth + 1)
            }
            _ => None,
        }
    }

    fn declared_function(&self, name: &str, mut doc_at: Vec<u32>, depth: usize) -> Option<FnLike<'a, 'm>> {
        for statement in &self.root().program.body {
            let (declaration, start) = match statement {
                Statement::ExportDeclaration(export) => (&export.declaration, export.span.start),
                other => match other.as_declaration() {
                    Some(d) => (d, d.span().start),
                    None => continue,
                },
            };
            match declaration {
                Declaration::FunctionDeclaration(function)
                    if function.id.as_ref().is_some_and(|id| id.name == name) =>
                {
                    doc_at.push(start);
                    return Some(FnLike { params: &function.params, doc_at });
                }
                Declaration::VariableDeclaration(variables) => {
                    for declarator in &variables.declarations {
                        if declarator.id.get_identifier_name().is_some_and(|n| n == name)
                            && let Some(init) = &declarator.init
                        {
                            doc_at.push(start);
                            return self.function_in(init, doc_at, depth + 1);
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    // ----- the input -----

    fn input_parameters(&mut self, params: &'m FormalParameters<'a>) -> Vec<Parameter> {
        let Some(first) = params.items.first() else { return Vec::new() };
        let defaults = destructured_defaults(&first.pattern);
        let Some(annotation) = &first.type_annotation else {
            if let BindingPattern::ObjectPattern(pattern) = &first.pattern {
                self.warn(
                    0,
                    first.span,
                    codes::INPUT_UNRESOLVED,
                    "the input has no type annotation; its destructured names are read as untyped parameters".into(),
                );
                return pattern
                    .properties
                    .iter()
                    .filter_map(|p| p.key.static_name())
                    .map(|name| {
                        let schema = Schema { default: defaults.get(name.as_ref()).cloned(), ..Schema::default() };
                        Parameter { name: name.into_owned(), required: false, schema, ..Parameter::default() }
                    })
                    .collect();
            }
            self.warn(0, first.span, codes::INPUT_UNRESOLVED, "the input has no type annotation".into());
            return Vec::new();
        };
        let ty = &annotation.type_annotation;
        match self.object_members(0, ty, 0) {
            Some(properties) => properties
                .into_iter()
                .map(|p| {
                    let mut schema = p.schema;
                    if schema.default.is_none() {
                        schema.default = defaults.get(&p.name).cloned();
                    }
                    Parameter { name: p.name, required: p.required, schema, ..Parameter::default() }
                })
                .collect(),
            None => {
                let name = first.pattern.get_identifier_name().map_or("input".to_owned(), |n| n.to_string());
                let (schema, undefined) = self.schema(0, ty, 0);
                let type_text = &self.root().text[ty.span().start as usize..ty.span().end as usize];
                self.warn(
                    0,
                    first.span,
                    codes::INPUT_UNSUPPORTED,
                    format!(
                        "the tool's input is `{type_text}`, not an object; Raycast tools take one object input, \
                         so it is read as one parameter `{name}`"
                    ),
                );
                let required = !first.optional && first.initializer.is_none() && !undefined;
                vec![Parameter { name, required, schema, ..Parameter::default() }]
            }
        }
    }

    /// The properties of an object type, or `None` when the type is not an object.
    fn object_members(&mut self, module: usize, ty: &'m TSType<'a>, depth: usize) -> Option<Vec<Property>> {
        if depth > MAX_DEPTH || !self.spend(module, ty.span()) {
            return None;
        }
        match ty {
            TSType::TSTypeLiteral(literal) => Some(self.members(module, &literal.members, depth)),
            TSType::TSParenthesizedType(inner) => self.object_members(module, &inner.type_annotation, depth),
            TSType::TSIntersectionType(intersection) => {
                let mut all: Vec<Property> = Vec::new();
                for part in &intersection.types {
                    all.extend(self.object_members(module, part, depth + 1)?);
                }
                Some(override_properties(Vec::new(), all))
            }
            TSType::TSTypeReference(reference) => self.reference_members(module, reference, depth),
            _ => None,
        }
    }

    fn reference_members(
        &mut self,
        module: usize,
        reference: &'m TSTypeReference<'a>,
        depth: usize,
    ) -> Option<Vec<Property>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let name = type_name(&reference.type_name);
        let arguments: Vec<&'m TSType<'a>> = reference.type_arguments.iter().flat_map(|a| a.params.iter()).collect();
        match (name.as_str(), arguments.as_slice()) {
            ("Partial" | "Required" | "Readonly", [inner]) => {
                let mut properties = self.object_members(module, inner, depth + 1)?;
                for p in &mut properties {
                    match name.as_str() {
                        "Partial" => p.required = false,
                        "Required" => p.required = true,
                        _ => {}
                    }
                }
                Some(properties)
            }
            ("Pick" | "Omit", [inner, keys]) => {
                let properties = self.object_members(module, inner, depth + 1)?;
                let keys: HashSet<String> = self
                    .schema(module, keys, depth + 1)
                    .0
                    .enum_values()
                    .map(|v| v.filter_map(|v| v.as_str().map(str::to_owned)).collect())
                    .unwrap_or_default();
                let keep = name == "Pick";
                Some(properties.into_iter().filter(|p| keys.contains(&p.name) == keep).collect())
            }
            _ => match self.lookup(module, &name, reference.span, depth)? {
                (m, TypeDef::Alias(alias)) => self.object_members(m, &alias.type_annotation, depth + 1),
                (m, TypeDef::Interface(interface)) => {
                    let mut out: Vec<Property> = Vec::new();
                    for heritage in &interface.extends {
                        let base = type_name(&heritage.type_name);
                        if let Some((bm, def)) = self.lookup(m, &base, heritage.span, depth + 1) {
                            let inherited = match def {
                                TypeDef::Alias(a) => self.object_members(bm, &a.type_annotation, depth + 1),
                                TypeDef::Interface(i) => Some(self.members(bm, &i.body.body, depth + 1)),
                                TypeDef::Enum(_) => None,
                            };
                            out.extend(inherited.unwrap_or_default());
                        }
                    }
                    let own = self.members(m, &interface.body.body, depth + 1);
                    Some(override_properties(out, own))
                }
                (_, TypeDef::Enum(_)) => None,
            },
        }
    }

    fn members(&mut self, module: usize, members: &'m [TSSignature<'a>], depth: usize) -> Vec<Property> {
        let mut out = Vec::new();
        for member in members {
            match member {
                TSSignature::TSPropertySignature(property) => {
                    let Some(name) = property.key.static_name() else {
                        self.warn(
                            module,
                            property.span,
                            codes::INPUT_UNSUPPORTED,
                            "a computed property key is skipped".into(),
                        );
                        continue;
                    };
                    let (mut schema, undefined) = match &property.type_annotation {
                        Some(annotation) => self.schema(module, &annotation.type_annotation, depth + 1),
                        None => (Schema::default(), false),
                    };
                    let doc = member_doc(&self.modules[module], property.span);
                    apply_doc(&mut schema, doc);
                    out.push(Property { name: name.into_owned(), required: !property.optional && !undefined, schema });
                }
                TSSignature::TSMethodSignature(method) => {
                    self.warn(
                        module,
                        method.span,
                        codes::INPUT_UNSUPPORTED,
                        "a method in the input type cannot be a tool parameter; it is skipped".into(),
                    );
                }
                _ => {}
            }
        }
        out
    }

    /// The schema of a type and whether the type admits `undefined` (an optional value).
    fn schema(&mut self, module: usize, ty: &'m TSType<'a>, depth: usize) -> (Schema, bool) {
        if !self.spend(module, ty.span()) {
            return (Schema::default(), false);
        }
        if depth > MAX_DEPTH {
            if self.too_deep.insert((module, ty.span().start)) {
                self.warn(
                    module,
                    ty.span(),
                    codes::INPUT_UNSUPPORTED,
                    "the type nests too deeply; read as any value".into(),
                );
            }
            return (Schema::default(), false);
        }
        let plain = |kind| (Schema::of(kind), false);
        match ty {
            TSType::TSStringKeyword(_) | TSType::TSTemplateLiteralType(_) => plain(SchemaType::String),
            TSType::TSNumberKeyword(_) | TSType::TSBigIntKeyword(_) => plain(SchemaType::Number),
            TSType::TSBooleanKeyword(_) => plain(SchemaType::Boolean),
            TSType::TSNullKeyword(_) => plain(SchemaType::Null),
            TSType::TSUndefinedKeyword(_) | TSType::TSVoidKeyword(_) => (Schema::default(), true),
            TSType::TSAnyKeyword(_) | TSType::TSUnknownKeyword(_) => (Schema::default(), false),
            TSType::TSObjectKeyword(_) => plain(SchemaType::Object),
            TSType::TSParenthesizedType(inner) => self.schema(module, &inner.type_annotation, depth),
            TSType::TSLiteralType(literal) => match literal_value(&literal.literal) {
                Some(value) => (literal_schema(vec![value]), false),
                None => (Schema::default(), false),
            },
            TSType::TSArrayType(array) => {
                let (items, _) = self.schema(module, &array.element_type, depth + 1);
                (array_of(items), false)
            }
            TSType::TSTypeOperatorType(operator) => match operator.operator {
                // `readonly` chains nest without brackets: each counts as a level.
                TSTypeOperatorOperator::Readonly => self.schema(module, &operator.type_annotation, depth + 1),
                TSTypeOperatorOperator::Keyof => (self.keyof(module, &operator.type_annotation, depth), false),
                TSTypeOperatorOperator::Unique => plain(SchemaType::String),
            },
            TSType::TSUnionType(union) => self.union(module, &union.types, depth),
            TSType::TSTypeLiteral(_) | TSType::TSIntersectionType(_) => {
                let properties = self.object_members(module, ty, depth).unwrap_or_default();
                (Schema { properties, ..Schema::of(SchemaType::Object) }, false)
            }
            TSType::TSTupleType(_) => {
                self.warn(
                    module,
                    ty.span(),
                    codes::INPUT_UNSUPPORTED,
                    "a tuple type is read as an array of any values".into(),
                );
                plain(SchemaType::Array)
            }
            TSType::TSTypeReference(reference) => self.reference(module, reference, depth),
            TSType::TSIndexedAccessType(access) => {
                let key = self.schema(module, &access.index_type, depth + 1).0;
                let key = key.enum_values().and_then(|mut v| v.next().and_then(Value::as_str).map(str::to_owned));
                let found = key.and_then(|key| {
                    self.object_members(module, &access.object_type, depth + 1)?.into_iter().find(|p| p.name == key)
                });
                match found {
                    Some(property) => {
                        let mut schema = property.schema;
                        schema.description = None;
                        schema.default = None;
                        schema.examples.clear();
                        (schema, !property.required)
                    }
                    None => {
                        self.unresolved(module, ty.span(), "an indexed access type");
                        (Schema::default(), false)
                    }
                }
            }
            _ => {
                let text = &self.modules[module].text[ty.span().start as usize..ty.span().end as usize];
                self.warn(
                    module,
                    ty.span(),
                    codes::INPUT_UNSUPPORTED,
                    format!("the type `{text}` cannot be a tool parameter; read as any value"),
                );
                (Schema::default(), false)
            }
        }
    }

    fn union(&mut self, module: usize, types: &'m [TSType<'a>], depth: usize) -> (Schema, bool) {
        let mut undefined = false;
        let mut nullable = false;
        let mut alternatives: Vec<Schema> = Vec::new();
        for member in types {
            let (schema, u) = self.schema(module, member, depth + 1);
            undefined |= u;
            if u && schema == Schema::default() {
                continue;
            }
            if schema.kind == Some(SchemaType::Null) && schema.enumeration.is_none() {
                nullable = true;
                continue;
            }
            alternatives.push(schema);
        }
        let mut schema = merge_alternatives(alternatives);
        schema.nullable |= nullable;
        (schema, undefined)
    }

    fn reference(&mut self, module: usize, reference: &'m TSTypeReference<'a>, depth: usize) -> (Schema, bool) {
        let name = type_name(&reference.type_name);
        let arguments: Vec<&'m TSType<'a>> = reference.type_arguments.iter().flat_map(|a| a.params.iter()).collect();
        match (name.as_str(), arguments.as_slice()) {
            ("Array" | "ReadonlyArray" | "Set", [inner]) => {
                let (items, _) = self.schema(module, inner, depth + 1);
                return (array_of(items), false);
            }
            ("Record", [_, value]) => {
                let (values, _) = self.schema(module, value, depth + 1);
                let mut schema = Schema::of(SchemaType::Object);
                if values != Schema::default() {
                    schema.additional_properties =
                        Some(toolport_plugin::AdditionalProperties::Schema(Box::new(values)));
                }
                return (schema, false);
            }
            ("Partial" | "Required" | "Readonly" | "Pick" | "Omit", _) => {
                let properties = self.reference_members(module, reference, depth);
                return match properties {
                    Some(properties) => (Schema { properties, ..Schema::of(SchemaType::Object) }, false),
                    None => (Schema::of(SchemaType::Object), false),
                };
            }
            ("Date", []) => return (Schema::of(SchemaType::String), false),
            ("String", []) => return (Schema::of(SchemaType::String), false),
            ("Number", []) => return (Schema::of(SchemaType::Number), false),
            ("Boolean", []) => return (Schema::of(SchemaType::Boolean), false),
            _ => {}
        }
        let Some((m, def)) = self.lookup(module, &name, reference.span, depth) else {
            return (Schema::default(), false);
        };
        match def {
            TypeDef::Alias(alias) => {
                let (mut schema, undefined) = self.schema(m, &alias.type_annotation, depth + 1);
                if schema.description.is_none() {
                    schema.description = leading_doc(&self.modules[m], statement_start(&self.modules[m], alias.span))
                        .and_then(|d| Some(d.text).filter(|_| d.is_jsdoc));
                }
                (schema, undefined)
            }
            TypeDef::Interface(_) => {
                let properties = self.reference_members(module, reference, depth).unwrap_or_default();
                (Schema { properties, ..Schema::of(SchemaType::Object) }, false)
            }
            TypeDef::Enum(declaration) => (self.enum_schema(m, declaration), false),
        }
    }

    fn enum_schema(&mut self, module: usize, declaration: &'m TSEnumDeclaration<'a>) -> Schema {
        let mut values = Vec::new();
        for (index, member) in declaration.body.members.iter().enumerate() {
            let value = match &member.initializer {
                Some(Expression::StringLiteral(s)) => Value::from(s.value.as_str()),
                Some(Expression::NumericLiteral(n)) => number(n.value),
                None => Value::from(index),
                Some(other) => {
                    self.warn(
                        module,
                        other.span(),
                        codes::INPUT_UNSUPPORTED,
                        "a computed enum member value is skipped".into(),
                    );
                    continue;
                }
            };
            values.push(value);
        }
        literal_schema(values)
    }

    /// `keyof T` / `keyof typeof X`: the keys as a string enum.
    fn keyof(&mut self, module: usize, ty: &'m TSType<'a>, depth: usize) -> Schema {
        if let TSType::TSTypeQuery(query) = ty {
            if let TSTypeQueryExprName::IdentifierReference(id) = &query.expr_name
                && let Some(keys) = self.const_object_keys(module, id.name.as_str())
            {
                return literal_schema(keys.into_iter().map(Value::from).collect());
            }
            self.unresolved(module, ty.span(), "the value of a `keyof typeof`");
            return Schema::of(SchemaType::String);
        }
        match self.object_members(module, ty, depth + 1) {
            Some(properties) => literal_schema(properties.into_iter().map(|p| Value::from(p.name)).collect()),
            None => {
                self.unresolved(module, ty.span(), "the operand of `keyof`");
                Schema::of(SchemaType::String)
            }
        }
    }

    fn const_object_keys(&self, module: usize, name: &str) -> Option<Vec<String>> {
        for statement in &self.modules[module].program.body {
            let declaration = match statement {
                Statement::ExportDeclaration(export) => &export.declaration,
                other => match other.as_declaration() {
                    Some(d) => d,
                    None => continue,
                },
            };
            let Declaration::VariableDeclaration(variables) = declaration else { continue };
            for declarator in &variables.declarations {
                if declarator.id.get_identifier_name().is_some_and(|n| n == name)
                    && let Some(Expression::ObjectExpression(object)) =
                        declarator.init.as_ref().map(|e| e.get_inner_expression())
                {
                    return Some(
                        object
                            .properties
                            .iter()
                            .filter_map(|p| match p {
                                ObjectPropertyKind::ObjectProperty(p) => p.key.static_name().map(|n| n.into_owned()),
                                ObjectPropertyKind::SpreadProperty(_) => None,
                            })
                            .collect(),
                    );
                }
            }
        }
        None
    }

    fn unresolved(&mut self, module: usize, span: Span, what: &str) {
        self.warn(
            module,
            span,
            codes::INPUT_UNRESOLVED,
            format!("cannot resolve {what}; read as a loosely typed value"),
        );
    }

    /// Finds a named type in `module` or through its imports.
    fn lookup(&mut self, module: usize, name: &str, at: Span, depth: usize) -> Option<(usize, TypeDef<'a, 'm>)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m: &'m Module<'a> = &self.modules[module];
        for statement in &m.program.body {
            let declaration = match statement {
                Statement::ExportDeclaration(export) => &export.declaration,
                other => match other.as_declaration() {
                    Some(d) => d,
                    None => continue,
                },
            };
            match declaration {
                Declaration::TSTypeAliasDeclaration(alias) if alias.id.name == name => {
                    return Some((module, TypeDef::Alias(alias)));
                }
                Declaration::TSInterfaceDeclaration(interface) if interface.id.name == name => {
                    return Some((module, TypeDef::Interface(interface)));
                }
                Declaration::TSEnumDeclaration(declaration) if declaration.id.name == name => {
                    return Some((module, TypeDef::Enum(declaration)));
                }
                _ => {}
            }
        }
        // Imported: follow a relative import into its module; a package import cannot be followed.
        for statement in &m.program.body {
            let Statement::ImportDeclaration(import) = statement else { continue };
            for specifier in import.specifiers.iter().flatten() {
                let ImportDeclarationSpecifier::ImportSpecifier(specifier) = specifier else { continue };
                if specifier.local.name != name {
                    continue;
                }
                let source = import.source.value.as_str();
                let imported = specifier.imported.name().to_string();
                if let Some(target) = self.module_index(module, source) {
                    return self.lookup_exported(target, &imported, at, depth + 1);
                }
                let key = (module, name.to_owned());
                if self.reported.insert(key) {
                    let what = if source.starts_with('.') { "a file missing from the input" } else { "a package" };
                    self.warn(
                        module,
                        at,
                        codes::INPUT_UNRESOLVED,
                        format!("type `{name}` is imported from `{source}` ({what}) and cannot be resolved; read as a loosely typed value"),
                    );
                }
                return None;
            }
        }
        if self.reported.insert((module, name.to_owned())) {
            self.warn(
                module,
                at,
                codes::INPUT_UNRESOLVED,
                format!("type `{name}` is not declared in this file; read as a loosely typed value"),
            );
        }
        None
    }

    /// A name exported by `module`, directly or re-exported from another relative module.
    fn lookup_exported(
        &mut self,
        module: usize,
        name: &str,
        at: Span,
        depth: usize,
    ) -> Option<(usize, TypeDef<'a, 'm>)> {
        let m: &'m Module<'a> = &self.modules[module];
        for statement in &m.program.body {
            match statement {
                Statement::ExportFromDeclaration(export) => {
                    for specifier in &export.specifiers {
                        if specifier.exported.name() == name
                            && let Some(target) = self.module_index(module, export.source.value.as_str())
                        {
                            let local = specifier.local.name().to_string();
                            return self.lookup_exported(target, &local, at, depth + 1);
                        }
                    }
                }
                Statement::ExportAllDeclaration(export) => {
                    if let Some(target) = self.module_index(module, export.source.value.as_str())
                        && self.declares(target, name)
                    {
                        return self.lookup_exported(target, name, at, depth + 1);
                    }
                }
                _ => {}
            }
        }
        self.lookup(module, name, at, depth)
    }

    fn declares(&self, module: usize, name: &str) -> bool {
        self.modules[module].program.body.iter().any(|s| match s {
            Statement::ExportDeclaration(export) => match &export.declaration {
                Declaration::TSTypeAliasDeclaration(a) => a.id.name == name,
                Declaration::TSInterfaceDeclaration(i) => i.id.name == name,
                Declaration::TSEnumDeclaration(e) => e.id.name == name,
                _ => false,
            },
            _ => false,
        })
    }

    fn module_index(&self, from: usize, source: &str) -> Option<usize> {
        if !source.starts_with('.') {
            return None;
        }
        let mut files = BTreeMap::new();
        for m in self.modules {
            files.insert(m.path.clone(), String::new());
        }
        let bundle = Bundle { entry: None, files, ..Bundle::default() };
        let target = resolve_module_path(&bundle, &self.modules[from].path, source)?;
        self.modules.iter().position(|m| m.path == target)
    }

    // ----- confirmation -----

    fn confirmation(&mut self) -> Option<Confirmation> {
        let root = self.root();
        let mut body: Option<ConfirmationBody<'a, 'm>> = None;
        for statement in &root.program.body {
            let Statement::ExportDeclaration(export) = statement else { continue };
            match &export.declaration {
                Declaration::FunctionDeclaration(function)
                    if function.id.as_ref().is_some_and(|id| id.name == "confirmation") =>
                {
                    body = Some(ConfirmationBody::Statements(
                        function.body.as_ref().map(|b| &b.statements[..]).unwrap_or(&[]),
                    ));
                }
                Declaration::VariableDeclaration(variables) => {
                    for declarator in &variables.declarations {
                        if declarator.id.get_identifier_name().is_some_and(|n| n == "confirmation") {
                            body = Some(match declarator.init.as_ref().map(|e| e.get_inner_expression()) {
                                Some(Expression::ArrowFunctionExpression(arrow)) => {
                                    match (arrow.get_expression(), arrow.get_function_body()) {
                                        (Some(e), _) => ConfirmationBody::Expression(e),
                                        (None, Some(body)) => ConfirmationBody::Statements(&body.statements[..]),
                                        (None, None) => ConfirmationBody::Statements(&[]),
                                    }
                                }
                                Some(Expression::FunctionExpression(function)) => ConfirmationBody::Statements(
                                    function.body.as_ref().map(|b| &b.statements[..]).unwrap_or(&[]),
                                ),
                                _ => ConfirmationBody::Statements(&[]),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        let object = match body? {
            ConfirmationBody::Expression(e) => object_of(e),
            ConfirmationBody::Statements(statements) => returned_object(statements),
        };
        let mut confirmation = Confirmation::default();
        if let Some(object) = object {
            for property in &object.properties {
                let ObjectPropertyKind::ObjectProperty(property) = property else { continue };
                let Some(key) = property.key.static_name() else { continue };
                match key.as_ref() {
                    "message" => confirmation.message = string_value(&property.value),
                    "style" => confirmation.style = style_value(&property.value),
                    "info" => {
                        if let Expression::ArrayExpression(items) = property.value.get_inner_expression() {
                            for item in &items.elements {
                                let Some(Expression::ObjectExpression(row)) =
                                    item.as_expression().map(|e| e.get_inner_expression())
                                else {
                                    continue;
                                };
                                let mut info = ConfirmationInfo::default();
                                for field in &row.properties {
                                    let ObjectPropertyKind::ObjectProperty(field) = field else { continue };
                                    match field.key.static_name().as_deref() {
                                        Some("name") => info.name = string_value(&field.value).unwrap_or_default(),
                                        Some("value") => info.value = string_value(&field.value),
                                        _ => {}
                                    }
                                }
                                confirmation.info.push(info);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(confirmation)
    }
}

enum ConfirmationBody<'a, 'm> {
    Expression(&'m Expression<'a>),
    Statements(&'m [Statement<'a>]),
}

fn type_name(name: &TSTypeName) -> String {
    match name {
        TSTypeName::IdentifierReference(id) => id.name.to_string(),
        TSTypeName::QualifiedName(q) => format!("{}.{}", type_name(&q.left), q.right.name),
        TSTypeName::ThisExpression(_) => "this".into(),
    }
}

fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

fn literal_value(literal: &TSLiteral) -> Option<Value> {
    match literal {
        TSLiteral::StringLiteral(s) => Some(Value::from(s.value.as_str())),
        TSLiteral::NumericLiteral(n) => Some(number(n.value)),
        TSLiteral::BooleanLiteral(b) => Some(Value::Bool(b.value)),
        TSLiteral::TemplateLiteral(t) if t.expressions.is_empty() => {
            t.quasis.first().and_then(|q| q.value.cooked.as_ref()).map(|c| Value::from(c.as_str()))
        }
        TSLiteral::UnaryExpression(u) => match (&u.operator, &u.argument) {
            (UnaryOperator::UnaryNegation, Expression::NumericLiteral(n)) => Some(number(-n.value)),
            _ => None,
        },
        _ => None,
    }
}

/// The JSON value of a literal expression (defaults in destructuring, confirmation fields).
fn expression_value(expression: &Expression) -> Option<Value> {
    match expression.get_inner_expression() {
        Expression::StringLiteral(s) => Some(Value::from(s.value.as_str())),
        Expression::NumericLiteral(n) => Some(number(n.value)),
        Expression::BooleanLiteral(b) => Some(Value::Bool(b.value)),
        Expression::NullLiteral(_) => Some(Value::Null),
        Expression::TemplateLiteral(t) if t.expressions.is_empty() => {
            t.quasis.first().and_then(|q| q.value.cooked.as_ref()).map(|c| Value::from(c.as_str()))
        }
        Expression::UnaryExpression(u) if u.operator == UnaryOperator::UnaryNegation => {
            expression_value(&u.argument).and_then(|v| v.as_f64()).map(|n| number(-n))
        }
        Expression::ArrayExpression(array) => array
            .elements
            .iter()
            .map(|e| e.as_expression().and_then(expression_value))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        Expression::ObjectExpression(object) => object
            .properties
            .iter()
            .map(|p| match p {
                ObjectPropertyKind::ObjectProperty(p) => {
                    Some((p.key.static_name()?.into_owned(), expression_value(&p.value)?))
                }
                ObjectPropertyKind::SpreadProperty(_) => None,
            })
            .collect::<Option<serde_json::Map<_, _>>>()
            .map(Value::Object),
        _ => None,
    }
}

fn string_value(expression: &Expression) -> Option<String> {
    match expression_value(expression)? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// `Action.Style.Destructive` → `destructive`.
fn style_value(expression: &Expression) -> Option<String> {
    match expression.get_inner_expression() {
        Expression::StaticMemberExpression(member) => Some(member.property.name.to_ascii_lowercase()),
        other => string_value(other).map(|s| s.to_ascii_lowercase()),
    }
}

fn object_of<'a, 'm>(expression: &'m Expression<'a>) -> Option<&'m ObjectExpression<'a>> {
    match expression.get_inner_expression() {
        Expression::ObjectExpression(object) => Some(object),
        _ => None,
    }
}

/// The first object literal the statements return (looking into blocks, `if` and `try`).
fn returned_object<'a, 'm>(statements: &'m [Statement<'a>]) -> Option<&'m ObjectExpression<'a>> {
    statements.iter().find_map(|statement| match statement {
        Statement::ReturnStatement(ret) => ret.argument.as_ref().and_then(object_of),
        Statement::BlockStatement(block) => returned_object(&block.body),
        Statement::IfStatement(branch) => returned_object(std::slice::from_ref(&branch.consequent))
            .or_else(|| branch.alternate.as_ref().and_then(|a| returned_object(std::slice::from_ref(a)))),
        Statement::TryStatement(attempt) => returned_object(&attempt.block.body),
        _ => None,
    })
}

fn literal_schema(values: Vec<Value>) -> Schema {
    let kind_of = |v: &Value| match v {
        Value::String(_) => Some(SchemaType::String),
        Value::Number(_) => Some(SchemaType::Number),
        Value::Bool(_) => Some(SchemaType::Boolean),
        _ => None,
    };
    let first = values.first().and_then(kind_of);
    let kind = if values.iter().all(|v| kind_of(v) == first) { first } else { None };
    Schema { kind, enumeration: Some(values.into_iter().map(EnumValue::new).collect()), ..Schema::default() }
}

/// `base` then `later`, where a property replaces every earlier one of its name and takes
/// its place at the end (as TypeScript's `&` and `extends` do), in linear time.
fn override_properties(base: Vec<Property>, later: Vec<Property>) -> Vec<Property> {
    let last: HashMap<&str, usize> = later.iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
    let keep_base: Vec<bool> = base.iter().map(|p| !last.contains_key(p.name.as_str())).collect();
    let keep_later: Vec<bool> = later.iter().enumerate().map(|(i, p)| last[p.name.as_str()] == i).collect();
    let kept = |(property, keep): (Property, bool)| keep.then_some(property);
    base.into_iter().zip(keep_base).filter_map(kept).chain(later.into_iter().zip(keep_later).filter_map(kept)).collect()
}

fn array_of(items: Schema) -> Schema {
    Schema { items: Some(Box::new(items)), ..Schema::of(SchemaType::Array) }
}

/// One schema for the members of a union: literal members merge into one enum, `true | false`
/// is a boolean, anything else becomes `any_of`.
fn merge_alternatives(mut alternatives: Vec<Schema>) -> Schema {
    match alternatives.len() {
        0 => return Schema::default(),
        1 => return alternatives.remove(0),
        _ => {}
    }
    let is_literal = |s: &Schema| {
        s.enumeration.is_some() && Schema { kind: None, enumeration: None, ..s.clone() } == Schema::default()
    };
    if alternatives.iter().all(is_literal) {
        let values: Vec<Value> =
            alternatives.iter().flat_map(|s| s.enumeration.iter().flatten().map(|e| e.value.clone())).collect();
        let mut schema = literal_schema(values);
        if schema.kind == Some(SchemaType::Boolean) {
            let set: HashSet<bool> = schema.enum_values().into_iter().flatten().filter_map(Value::as_bool).collect();
            if set.len() == 2 {
                schema.enumeration = None;
            }
        }
        return schema;
    }
    Schema { any_of: alternatives, ..Schema::default() }
}

fn destructured_defaults(pattern: &BindingPattern) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    if let BindingPattern::ObjectPattern(object) = pattern {
        for property in &object.properties {
            if let (Some(name), BindingPattern::AssignmentPattern(assign)) =
                (property.key.static_name(), &property.value)
                && let Some(value) = expression_value(&assign.right)
            {
                out.insert(name.into_owned(), value);
            }
        }
    }
    out
}

/// A comment's text with its delimiters and JSDoc stars removed.
#[derive(Clone, Debug)]
struct Doc {
    text: String,
    is_jsdoc: bool,
}

fn comment_text(module: &Module, comment: &Comment) -> String {
    let content = comment.content_span();
    let raw = &module.text[content.start as usize..content.end as usize];
    if comment.is_line() {
        return raw.strip_prefix(' ').unwrap_or(raw).trim_end().to_owned();
    }
    let raw = raw.strip_prefix('*').unwrap_or(raw);
    let lines: Vec<&str> = raw
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match trimmed.strip_prefix('*') {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => trimmed,
            }
            .trim_end()
        })
        .collect();
    lines.join("\n").trim_matches('\n').trim().to_owned()
}

fn starts_own_line(module: &Module, offset: usize) -> bool {
    module.text[module.at.line_start(offset)..offset].trim().is_empty()
}

/// The comment(s) right before the token at `at`: the last JSDoc block if there is one,
/// else the other comments joined.
fn leading_doc(module: &Module, at: u32) -> Option<Doc> {
    let comments: Vec<&Comment> = module
        .leading
        .get(&at)
        .into_iter()
        .flatten()
        .map(|&index| &module.program.comments[index])
        .filter(|c| starts_own_line(module, c.span.start as usize))
        .collect();
    if let Some(jsdoc) = comments.iter().rev().find(|c| c.is_jsdoc()) {
        return Some(Doc { text: comment_text(module, jsdoc), is_jsdoc: true });
    }
    let text: Vec<String> = comments.iter().map(|c| comment_text(module, c)).collect();
    let text = text.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(Doc { text, is_jsdoc: false })
}

/// A member's doc: its leading comment, else a comment on the same line after it (only the
/// first comment after the member can be: anything between them would be the first one).
fn member_doc(module: &Module, span: Span) -> Option<Doc> {
    leading_doc(module, span.start).or_else(|| {
        let end = span.end as usize;
        let comments = &module.program.comments;
        let c = comments.get(comments.partition_point(|c| (c.span.start as usize) < end))?;
        let between = module.text.get(end..c.span.start as usize)?;
        (!between.contains('\n')
            && between.trim_matches(|ch: char| ch.is_whitespace() || ch == ';' || ch == ',').is_empty())
        .then(|| Doc { text: comment_text(module, c), is_jsdoc: false })
        .filter(|d| !d.text.is_empty())
    })
}

/// Start of the statement containing `span` (where an `export` keyword and its JSDoc sit).
fn statement_start(module: &Module, span: Span) -> u32 {
    module
        .program
        .body
        .iter()
        .map(GetSpan::span)
        .find(|s| s.start <= span.start && span.end <= s.end)
        .map_or(span.start, |s| s.start)
}

/// Applies a doc comment to a schema: `@default` and `@example` tags become the default and
/// examples; everything else (other tags included) is the description, kept as written.
fn apply_doc(schema: &mut Schema, doc: Option<Doc>) {
    let Some(doc) = doc else { return };
    let parsed = parse_doc(&doc.text);
    if let Some(description) = parsed.description {
        schema.description = Some(description);
    }
    if let Some(default) = parsed.default
        && schema.default.is_none()
    {
        schema.default = Some(default);
    }
    schema.examples.extend(parsed.examples.into_iter().map(Value::String));
}

#[derive(Debug, Default, PartialEq)]
pub struct ParsedDoc {
    pub description: Option<String>,
    pub default: Option<Value>,
    pub examples: Vec<String>,
}

/// Splits doc text into its description and the `@default` / `@example` tags we map.
pub fn parse_doc(text: &str) -> ParsedDoc {
    let mut out = ParsedDoc::default();
    let mut description: Vec<&str> = Vec::new();
    // Which tag the current line continues: None = description.
    let mut current: Option<(&str, Vec<&str>)> = None;
    let finish = |tag: Option<(&str, Vec<&str>)>, out: &mut ParsedDoc| {
        if let Some((name, lines)) = tag {
            let body = lines.join("\n").trim().to_owned();
            if name == "default" {
                out.default = Some(doc_value(&body));
            } else {
                out.examples.push(body);
            }
        }
    };
    for line in text.lines() {
        let trimmed = line.trim_start();
        let tag = ["@defaultValue", "@default", "@example"]
            .into_iter()
            .find(|t| trimmed.starts_with(t) && !trimmed[t.len()..].starts_with(|c: char| c.is_alphanumeric()));
        if let Some(tag) = tag {
            finish(current.take(), &mut out);
            let name = if tag == "@example" { "example" } else { "default" };
            current = Some((name, vec![trimmed[tag.len()..].trim_start()]));
        } else if trimmed.starts_with('@') {
            finish(current.take(), &mut out);
            description.push(line);
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        } else {
            description.push(line);
        }
    }
    finish(current.take(), &mut out);
    let description = description.join("\n").trim().to_owned();
    out.description = (!description.is_empty()).then_some(description);
    out
}

/// A `@default` value: JSON when it parses, a single-quoted or bare word as a string.
fn doc_value(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return value;
    }
    let unquoted = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text);
    let unquoted = unquoted.strip_prefix('`').and_then(|t| t.strip_suffix('`')).unwrap_or(unquoted);
    Value::from(unquoted)
}
