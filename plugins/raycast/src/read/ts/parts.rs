//! Where the tool file holds each part the model describes (its input type, the default
//! export's JSDoc, the `confirmation` export), so a writer that must change one part rewrites
//! that part only and keeps the rest of the file (the tool's body) as written.

use oxc_ast::ast::*;
use oxc_span::{GetSpan, Span};

use super::Ctx;
use super::function::FnLike;
use super::jsdoc::leading_jsdoc_span;
use crate::extension::{InputPlace, SourceParts, TextRange};

impl<'a, 'm> Ctx<'a, 'm> {
    pub(super) fn parts(&self, function: &FnLike<'a, 'm>) -> SourceParts {
        let root = self.root();
        let export_start = function.doc_at.first().copied().unwrap_or(0);
        let doc = function
            .doc_at
            .iter()
            .find_map(|&at| leading_jsdoc_span(root, at))
            .map_or(TextRange { start: export_start, end: export_start }, range);
        // A new confirmation goes before the default export and its JSDoc.
        let before_export = doc.start.min(export_start);
        let confirmation =
            confirmation_statement(&root.program).map_or(TextRange { start: before_export, end: before_export }, range);
        SourceParts {
            input: self.input_place(function.params),
            doc,
            confirmation,
            raycast_imports: raycast_imports(&root.program),
        }
    }

    fn input_place(&self, params: &FormalParameters<'a>) -> InputPlace {
        let Some(first) = params.items.first() else { return InputPlace::Parameters { range: range(params.span) } };
        let Some(annotation) = &first.type_annotation else {
            // An untyped input gets a type after its binding (`{ a, b }` keeps its names).
            let end = first.pattern.span().end;
            return InputPlace::Annotation { range: TextRange { start: end, end } };
        };
        let ty = &annotation.type_annotation;
        if let TSType::TSTypeReference(reference) = ty
            && reference.type_arguments.is_none()
            && let TSTypeName::IdentifierReference(name) = &reference.type_name
            && let Some(declared) = local_type_declaration(&self.root().program, &name.name)
        {
            return InputPlace::Declaration { name: name.name.to_string(), range: range(declared) };
        }
        InputPlace::Annotation { range: range(ty.span()) }
    }
}

fn range(span: Span) -> TextRange {
    TextRange { start: span.start, end: span.end }
}

/// The span of `type name = …` or `interface name …` declared in the file (after any `export`).
fn local_type_declaration(program: &Program, name: &str) -> Option<Span> {
    program.body.iter().find_map(|statement| {
        let declaration = match statement {
            Statement::ExportDeclaration(export) => &export.declaration,
            other => other.as_declaration()?,
        };
        match declaration {
            Declaration::TSTypeAliasDeclaration(alias) if alias.id.name == name => Some(alias.span),
            Declaration::TSInterfaceDeclaration(interface) if interface.id.name == name => Some(interface.span),
            _ => None,
        }
    })
}

/// The statement that exports `confirmation`.
fn confirmation_statement(program: &Program) -> Option<Span> {
    program.body.iter().find_map(|statement| {
        let Statement::ExportDeclaration(export) = statement else { return None };
        let exports = match &export.declaration {
            Declaration::FunctionDeclaration(function) => {
                function.id.as_ref().is_some_and(|id| id.name == "confirmation")
            }
            Declaration::VariableDeclaration(variables) => {
                variables.declarations.iter().any(|d| d.id.get_identifier_name().is_some_and(|n| n == "confirmation"))
            }
            _ => false,
        };
        exports.then_some(export.span)
    })
}

/// The local names the file imports from `@raycast/api`.
fn raycast_imports(program: &Program) -> Vec<String> {
    let mut names = Vec::new();
    for statement in &program.body {
        let Statement::ImportDeclaration(import) = statement else { continue };
        if import.source.value != "@raycast/api" {
            continue;
        }
        for specifier in import.specifiers.iter().flatten() {
            if let ImportDeclarationSpecifier::ImportSpecifier(specifier) = specifier {
                names.push(specifier.local.name.to_string());
            }
        }
    }
    names
}
