//! The JSON value of a literal expression: defaults in destructuring, confirmation fields,
//! enum members.

use oxc_ast::ast::*;
use serde_json::Value;

pub(super) fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

/// The JSON value of a literal expression (defaults in destructuring, confirmation fields).
pub(super) fn expression_value(expression: &Expression) -> Option<Value> {
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

pub(super) fn string_value(expression: &Expression) -> Option<String> {
    match expression_value(expression)? {
        Value::String(s) => Some(s),
        _ => None,
    }
}
