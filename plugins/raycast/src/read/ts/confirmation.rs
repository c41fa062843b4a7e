//! The tool's `confirmation` export: a function or arrow returning an object literal whose
//! `message`, `style` and `info` rows are read when they are literals.

use oxc_ast::ast::*;
use toolport_plugin::{Confirmation, ConfirmationInfo};

use super::Ctx;
use super::values::string_value;

impl<'a, 'm> Ctx<'a, 'm> {
    pub(super) fn confirmation(&mut self) -> Option<Confirmation> {
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
