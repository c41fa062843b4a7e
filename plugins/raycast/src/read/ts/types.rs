//! TypeScript types to schemas: keywords, literals, unions, arrays, object literals,
//! intersections, interfaces with `extends`, enums, `keyof`, indexed access and the utility
//! types (`Partial`, `Pick`, `Record`, ...). Each type spends one unit of the input's type
//! budget, and nesting stops at [`MAX_DEPTH`].

use std::collections::{HashMap, HashSet};

use oxc_ast::ast::*;
use oxc_span::GetSpan;
use serde_json::Value;
use toolport_plugin::{EnumValue, Property, Schema, SchemaType, codes};

use super::jsdoc::{apply_doc, leading_doc, member_doc, statement_start};
use super::modules::TypeDef;
use super::values::number;
use super::{Ctx, MAX_DEPTH};

impl<'a, 'm> Ctx<'a, 'm> {
    /// The properties of an object type, or `None` when the type is not an object.
    pub(super) fn object_members(&mut self, module: usize, ty: &'m TSType<'a>, depth: usize) -> Option<Vec<Property>> {
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
                    // Only `?` makes a property optional: Raycast's schema extraction lists
                    // `m: "a" | "b" | undefined` as required, so the model is told to send it.
                    let (mut schema, _) = match &property.type_annotation {
                        Some(annotation) => self.schema(module, &annotation.type_annotation, depth + 1),
                        None => (Schema::default(), false),
                    };
                    let doc = member_doc(&self.modules[module], property.span);
                    apply_doc(&mut schema, doc);
                    out.push(Property { name: name.into_owned(), required: !property.optional, schema });
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
    pub(super) fn schema(&mut self, module: usize, ty: &'m TSType<'a>, depth: usize) -> (Schema, bool) {
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
        // A union of literals only (an enum, possibly a million wide) is read in one pass, as
        // the one type it is: its literals are the input itself, not an expansion of it, and a
        // schema per literal took a hundred times the file's size.
        let literals: Option<Vec<Value>> = types
            .iter()
            .map(|member| match member {
                TSType::TSLiteralType(literal) => literal_value(&literal.literal),
                _ => None,
            })
            .collect();
        if let Some(values) = literals {
            return (literal_union(values), false);
        }
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
}

fn type_name(name: &TSTypeName) -> String {
    match name {
        TSTypeName::IdentifierReference(id) => id.name.to_string(),
        TSTypeName::QualifiedName(q) => format!("{}.{}", type_name(&q.left), q.right.name),
        TSTypeName::ThisExpression(_) => "this".into(),
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
        return literal_union(values);
    }
    Schema { any_of: alternatives, ..Schema::default() }
}

/// The schema of a union of literal values: their enum, or `boolean` for `true | false`.
fn literal_union(values: Vec<Value>) -> Schema {
    let mut schema = literal_schema(values);
    if schema.kind == Some(SchemaType::Boolean) {
        let set: HashSet<bool> = schema.enum_values().into_iter().flatten().filter_map(Value::as_bool).collect();
        if set.len() == 2 {
            schema.enumeration = None;
        }
    }
    schema
}
