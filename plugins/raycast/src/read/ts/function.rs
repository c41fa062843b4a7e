//! Finding the tool function (the file's default export, however it is declared or wrapped)
//! and reading its first parameter, the tool's input, into parameters.

use std::collections::BTreeMap;

use oxc_ast::ast::*;
use oxc_span::GetSpan;
use serde_json::Value;
use toolport_plugin::{Parameter, Schema, codes};

use super::values::expression_value;
use super::{Ctx, MAX_DEPTH};

/// Something callable whose first parameter is the tool's input.
pub(super) struct FnLike<'a, 'm> {
    pub(super) params: &'m FormalParameters<'a>,
    /// Offsets where the tool's JSDoc may be attached (statement starts), best first.
    pub(super) doc_at: Vec<u32>,
}

impl<'a, 'm> Ctx<'a, 'm> {
    pub(super) fn default_export(&self) -> Option<FnLike<'a, 'm>> {
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

    pub(super) fn input_parameters(&mut self, params: &'m FormalParameters<'a>) -> Vec<Parameter> {
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
                        let schema =
                            Schema { default: defaults.get(name.as_ref()).cloned().map(Box::new), ..Schema::default() };
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
                        schema.default = defaults.get(&p.name).cloned().map(Box::new);
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
