//! Reading a tool's TypeScript file (`src/tools/<name>.ts`) with the oxc parser: the input
//! parameters of the default export (types, optionality, JSDoc descriptions, `@default`),
//! the tool's own JSDoc, and its `confirmation` export.
//!
//! Types are resolved in the tool file and in relative imports (`./types`) found in the bundle.
//! What cannot be resolved (a type imported from a package) becomes a warning with
//! file:line:column and a loosely typed parameter; a syntax error becomes an error diagnostic.
//!
//! The parts: `modules` loads the tool file and its relative imports and finds named
//! declarations in them; `function` finds the default-exported tool function and reads its
//! input parameter; `types` turns TypeScript types into schemas; `confirmation` reads the
//! `confirmation` export; `jsdoc` reads doc comments; `values` reads literal expressions;
//! `parts` says where each of those parts is written, for a writer that rewrites one.

mod confirmation;
mod function;
mod jsdoc;
mod modules;
mod parts;
mod types;
mod values;

use std::collections::HashSet;

use oxc_allocator::Allocator;
use oxc_span::Span;
use toolport_plugin::{Bundle, Confirmation, Diagnostic, Parameter, codes};

use crate::extension::SourceParts;

use jsdoc::leading_doc;
pub use jsdoc::{ParsedDoc, parse_doc};
use modules::{Module, parse, relative_imports, resolve_module_path};

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
    /// Where the parts above are written; `None` without a default-exported function.
    pub parts: Option<SourceParts>,
}

/// Reading one tool: its parsed files (the tool file first), what was found wrong, and the
/// limits that bound the work.
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
                tool.parts = Some(self.parts(&function));
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

    fn unresolved(&mut self, module: usize, span: Span, what: &str) {
        self.warn(
            module,
            span,
            codes::INPUT_UNRESOLVED,
            format!("cannot resolve {what}; read as a loosely typed value"),
        );
    }
}
