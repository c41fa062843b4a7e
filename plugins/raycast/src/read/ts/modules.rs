//! The tool file and the files it imports: parsing each one (refusing what nests too deeply,
//! reporting syntax errors), following relative imports, and finding a named declaration in a
//! module or through its imports and re-exports.

use std::collections::{BTreeMap, HashMap};

use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_parser::Parser;
use oxc_span::{SourceType, Span};
use toolport_plugin::nesting::{self, Syntax};
use toolport_plugin::source::Locator;
use toolport_plugin::{Bundle, Diagnostic, codes};

use super::{Ctx, MAX_DEPTH};

/// One parsed TypeScript file.
pub(super) struct Module<'a> {
    pub(super) path: String,
    pub(super) text: &'a str,
    /// Positions in `text`, indexed once for every diagnostic.
    pub(super) at: Locator<'a>,
    pub(super) program: Program<'a>,
    /// The leading comments attached to each token start (indices into `program.comments`).
    pub(super) leading: HashMap<u32, Vec<usize>>,
}

pub(super) fn parse<'a>(
    allocator: &'a Allocator,
    path: &str,
    text: &'a str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Module<'a>> {
    // oxc parses recursively: refuse what nests too deeply (brackets, type arguments, JSX,
    // chains of operators) before it runs.
    let (syntax, source_type) =
        if path.ends_with(".tsx") { (Syntax::TSX, SourceType::tsx()) } else { (Syntax::TYPESCRIPT, SourceType::ts()) };
    if let Err(error) = nesting::check(path, text, syntax) {
        diagnostics.push(error);
        return None;
    }
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

pub(super) fn relative_imports(module: &Module) -> Vec<String> {
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
pub(super) fn resolve_module_path(bundle: &Bundle, from: &str, source: &str) -> Option<String> {
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
pub(super) enum TypeDef<'a, 'm> {
    Alias(&'m TSTypeAliasDeclaration<'a>),
    Interface(&'m TSInterfaceDeclaration<'a>),
    Enum(&'m TSEnumDeclaration<'a>),
}

/// A named type declaration found, and the index of the module that declares it.
pub(super) type Declared<'a, 'm> = (usize, TypeDef<'a, 'm>);

impl<'a, 'm> Ctx<'a, 'm> {
    /// Finds a named type in `module` or through its imports.
    pub(super) fn lookup(&mut self, module: usize, name: &str, at: Span, depth: usize) -> Option<Declared<'a, 'm>> {
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
    fn lookup_exported(&mut self, module: usize, name: &str, at: Span, depth: usize) -> Option<Declared<'a, 'm>> {
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

    pub(super) fn const_object_keys(&self, module: usize, name: &str) -> Option<Vec<String>> {
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
}
