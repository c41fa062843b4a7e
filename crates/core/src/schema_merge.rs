//! Combining two schemas field by field ([`merge`]) under a [`MergePolicy`]: a reference
//! refined by the fields beside it, or the members of an `allOf` conjunction. Every field of
//! [`Schema`] is named here once, so a new field is combined in one place.

use std::collections::HashSet;

use serde_json::Value;

use crate::{ConstraintFields, Schema};

/// How [`merge`] combines what both schemas say. In both, `base` wins a single value
/// (`title`, `minimum`, …) it has, flags (`nullable`, …) are set when either sets them, and
/// extras are combined by format and then by key, `base`'s entries winning.
#[derive(Clone, Copy, Debug)]
pub enum MergePolicy {
    /// `other` is the definition a reference names and `base` the fields beside the reference
    /// ([`crate::definitions::refine`]): examples, items and alternatives come from `other` only
    /// when `base` has none; properties are added by name, the first of a name kept.
    Refine,
    /// `other` is one more member of an `allOf` (JSON Schema reading): examples are united;
    /// items and properties of the same name are merged in turn (a property either requires is
    /// required); `required` lists in extras are joined. The model holds one set of
    /// alternatives, so when both have some, `other`'s go to `keep_alternatives`.
    Conjunction { keep_alternatives: fn(&mut Schema, Vec<Schema>) },
}

/// Fills `base`'s unset constraints from `theirs` (nothing boxed when `theirs` sets none).
fn merge_constraints(base: &mut Schema, theirs: ConstraintFields) {
    if theirs == ConstraintFields::NONE {
        return;
    }
    let ConstraintFields {
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        min_length,
        max_length,
        pattern,
        min_items,
        max_items,
        unique_items,
    } = theirs;
    let mine = &mut *base.constraints;
    fill(&mut mine.minimum, minimum);
    fill(&mut mine.maximum, maximum);
    fill(&mut mine.exclusive_minimum, exclusive_minimum);
    fill(&mut mine.exclusive_maximum, exclusive_maximum);
    fill(&mut mine.min_length, min_length);
    fill(&mut mine.max_length, max_length);
    fill(&mut mine.pattern, pattern);
    fill(&mut mine.min_items, min_items);
    fill(&mut mine.max_items, max_items);
    mine.unique_items |= unique_items;
}

/// Merges `other` into `base` under `policy`.
pub fn merge(base: &mut Schema, other: Schema, policy: MergePolicy) {
    let conjunction = matches!(policy, MergePolicy::Conjunction { .. });
    let Schema {
        reference,
        kind,
        nullable,
        title,
        description,
        default,
        enumeration,
        value_set,
        examples,
        format,
        multiline,
        constraints,
        items,
        properties,
        additional_properties,
        any_of,
        extras,
    } = other;
    fill(&mut base.reference, reference);
    fill(&mut base.kind, kind);
    base.nullable |= nullable;
    fill(&mut base.title, title);
    fill(&mut base.description, description);
    fill(&mut base.default, default);
    fill(&mut base.enumeration, enumeration);
    fill(&mut base.value_set, value_set);
    if conjunction {
        for example in examples {
            if !base.examples.contains(&example) {
                base.examples.push(example);
            }
        }
    } else if base.examples.is_empty() {
        base.examples = examples;
    }
    fill(&mut base.format, format);
    base.multiline |= multiline;
    merge_constraints(base, constraints.into_inner());
    match (&mut base.items, items) {
        (Some(mine), Some(theirs)) if conjunction => merge(mine, *theirs, policy),
        (slot, theirs) => fill(slot, theirs),
    }
    merge_properties(base, properties, policy);
    fill(&mut base.additional_properties, additional_properties);
    if base.any_of.is_empty() {
        base.any_of = any_of;
    } else if let (MergePolicy::Conjunction { keep_alternatives }, false) = (policy, any_of.is_empty()) {
        keep_alternatives(base, any_of);
    }
    merge_extras(base, extras, conjunction);
}

fn fill<T>(slot: &mut Option<T>, value: Option<T>) {
    if slot.is_none() {
        *slot = value;
    }
}

fn merge_properties(base: &mut Schema, properties: Vec<crate::Property>, policy: MergePolicy) {
    if let MergePolicy::Conjunction { .. } = policy {
        for property in properties {
            match base.properties.iter_mut().find(|p| p.name == property.name) {
                Some(mine) => {
                    mine.required |= property.required;
                    merge(&mut mine.schema, property.schema, policy);
                }
                None => base.properties.push(property),
            }
        }
    } else if base.properties.is_empty() && properties.len() <= 1 {
        base.properties = properties;
    } else if !properties.is_empty() {
        // By name, the first of a name kept (a set, not a scan per property: both lists can be long).
        let mut named: HashSet<String> = base.properties.iter().map(|p| p.name.clone()).collect();
        base.properties.extend(properties.into_iter().filter(|p| named.insert(p.name.clone())));
    }
}

/// Extras by format, then by key (`base`'s entries win); in a conjunction, `required` lists
/// are joined.
fn merge_extras(base: &mut Schema, extras: crate::Extras, join_required: bool) {
    if base.extras.is_empty() {
        // The usual case (a bare reference): every entry would be inserted as is, in order.
        base.extras = extras;
        return;
    }
    for (format_id, value) in extras {
        match (base.extras.get_mut(&format_id), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (k, v) in theirs {
                    if join_required
                        && k == "required"
                        && let (Some(Value::Array(a)), Value::Array(b)) = (mine.get_mut("required"), &v)
                    {
                        a.extend(b.iter().cloned());
                        continue;
                    }
                    mine.entry(k).or_insert(v);
                }
            }
            (None, value) => {
                base.extras.insert(format_id, value);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Property, SchemaType};

    /// `base` has an example, items, a property `a` and alternatives; `other` has the same
    /// fields with different content.
    fn merged(policy: MergePolicy) -> Value {
        let property = |required, schema| Property { name: "a".into(), required, schema };
        let mut base = Schema {
            title: Some("base".into()),
            examples: vec![json!(1)],
            items: Some(Box::new(Schema::of(SchemaType::String))),
            properties: vec![property(false, Schema::of(SchemaType::String))],
            any_of: vec![Schema::of(SchemaType::Integer)],
            ..Schema::default()
        };
        let other = Schema {
            title: Some("other".into()),
            nullable: true,
            examples: vec![json!(2)],
            items: Some(Box::new(Schema {
                constraints: ConstraintFields { min_length: Some(1), ..ConstraintFields::NONE }.into(),
                ..Schema::default()
            })),
            properties: vec![property(
                true,
                Schema {
                    constraints: ConstraintFields { max_length: Some(2), ..ConstraintFields::NONE }.into(),
                    ..Schema::default()
                },
            )],
            any_of: vec![Schema::of(SchemaType::Boolean)],
            ..Schema::default()
        };
        merge(&mut base, other, policy);
        serde_json::to_value(&base).unwrap()
    }

    #[test]
    fn refining_fills_gaps_and_a_conjunction_combines_deeply() {
        assert_eq!(
            merged(MergePolicy::Refine),
            json!({"nullable": true, "title": "base", "examples": [1], "items": {"type": "string"},
                "properties": [{"name": "a", "schema": {"type": "string"}}], "any_of": [{"type": "integer"}]})
        );
        fn keep_alternatives(base: &mut Schema, any_of: Vec<Schema>) {
            base.extras.insert("kept".into(), json!(any_of.len()));
        }
        assert_eq!(
            merged(MergePolicy::Conjunction { keep_alternatives }),
            json!({"nullable": true, "title": "base", "examples": [1, 2], "items": {"type": "string", "min_length": 1},
                "properties": [{"name": "a", "required": true, "schema": {"type": "string", "max_length": 2}}],
                "any_of": [{"type": "integer"}], "extras": {"kept": 1}})
        );
    }
}
