use super::*;
use crate::loss::Carried;
use crate::{Diagnostic, Output, Parameter, Property, SchemaType, Tool};

fn reference(name: &str) -> Schema {
    Schema { reference: Some(name.into()), ..Schema::default() }
}

fn object(properties: &[(&str, Schema)]) -> Schema {
    Schema {
        properties: properties
            .iter()
            .map(|(n, s)| Property { name: (*n).into(), required: false, schema: s.clone() })
            .collect(),
        ..Schema::of(SchemaType::Object)
    }
}

fn definitions() -> IndexMap<String, Schema> {
    let mut defs = IndexMap::new();
    defs.insert("Id".to_owned(), Schema { description: Some("an id".into()), ..Schema::of(SchemaType::String) });
    defs.insert("Pair".to_owned(), object(&[("a", reference("Id")), ("b", reference("Id"))]));
    defs.insert(
        "Node".to_owned(),
        Schema { description: Some("a tree".into()), ..object(&[("children", reference("Node"))]) },
    );
    defs.insert("Holder".to_owned(), object(&[("pair", reference("Pair")), ("missing", reference("Nope"))]));
    defs.insert("Alias".to_owned(), Schema { description: Some("a pair".into()), ..reference("Pair") });
    defs
}

/// Compares diagnostics by code and path.
fn assert_diagnostics(diagnostics: Vec<Diagnostic>, expect: &[(&str, &str)]) {
    let got: Vec<(String, String)> = diagnostics.into_iter().map(|d| (d.code, d.path)).collect();
    let want: Vec<(String, String)> = expect.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
    assert_eq!(got, want);
}

/// Inlines `schema` against [`definitions`] and compares the result's JSON and the
/// diagnostics (code, path), plus the reference closure.
fn check(schema: Schema, expect_json: Value, expect_diagnostics: &[(&str, &str)], expect_closure: &[&str]) {
    let defs = definitions();
    assert_eq!(referenced(&schema, &defs), expect_closure, "closure");
    let (inlined, diagnostics) = inline(&schema, &defs, "/s");
    assert_eq!(serde_json::to_value(&inlined).unwrap(), expect_json);
    assert_diagnostics(diagnostics, expect_diagnostics);
}

#[test]
fn inlines_references_and_reports_cuts() {
    use serde_json::json;
    // A plain reference with a description beside it: the description wins.
    check(
        Schema { description: Some("user id".into()), ..reference("Id") },
        json!({"type": "string", "description": "user id"}),
        &[],
        &["Id"],
    );
    // Shared definitions are inlined at each use.
    check(
        reference("Pair"),
        json!({"type": "object", "properties": [
            {"name": "a", "schema": {"type": "string", "description": "an id"}},
            {"name": "b", "schema": {"type": "string", "description": "an id"}}]}),
        &[],
        &["Pair", "Id"],
    );
    // Recursion is cut at the first repeat with a loose object, reported once.
    check(
        reference("Node"),
        json!({"type": "object", "description": "a tree", "properties": [
            {"name": "children", "schema": {"type": "object", "description": "a tree"}}]}),
        &[("loss/schema", "/s/properties/0/schema/reference")],
        &["Node"],
    );
    // An unknown name is reported, never a panic.
    check(
        reference("Holder"),
        json!({"type": "object", "properties": [
            {"name": "pair", "schema": {"type": "object", "properties": [
                {"name": "a", "schema": {"type": "string", "description": "an id"}},
                {"name": "b", "schema": {"type": "string", "description": "an id"}}]}},
            {"name": "missing", "schema": {}}]}),
        &[("input/unresolved", "/s/properties/1/schema/reference")],
        &["Holder", "Pair", "Id"],
    );
}

/// Inlines `schema` within a document budget of `limit` bytes: the result's JSON, the
/// diagnostics (code, path) and the weight charged.
fn check_budget(schema: Schema, limit: usize, expect_json: Value, expect_diagnostics: &[(&str, &str)], spent: usize) {
    let budget = Budget::with_limit(limit);
    let (inlined, diagnostics) = inline_within(&schema, &definitions(), "/s", &budget);
    assert_eq!(serde_json::to_value(&inlined).unwrap(), expect_json);
    assert_diagnostics(diagnostics, expect_diagnostics);
    assert_eq!(budget.spent(), spent, "bytes charged");
}

/// The weight of definition `name` of [`definitions`].
fn weight(name: &str) -> usize {
    schema_weight(&definitions()[name])
}

#[test]
fn the_document_budget_cuts_expansions_once_spent() {
    use serde_json::json;
    let id = json!({"type": "string", "description": "an id"});
    let pair = json!({"type": "object", "properties": [
        {"name": "a", "schema": id}, {"name": "b", "schema": id}]});
    // Room enough: Pair (its node and two references) and two Ids.
    let whole = weight("Pair") + 2 * weight("Id");
    check_budget(reference("Pair"), whole + 1, pair, &[], whole);
    // Spent after Pair and its first Id: the second Id is cut, reported once with its place.
    let spent = weight("Pair") + weight("Id");
    check_budget(
        reference("Pair"),
        spent,
        json!({"type": "object", "properties": [
            {"name": "a", "schema": id}, {"name": "b", "schema": {"description": "an id"}}]}),
        &[("loss/schema", "/s/properties/1/schema/reference")],
        spent,
    );
    // Nothing to spend: the reference itself is cut, without its description (theirs is an
    // allowance as large as the limit); the schema's own nodes cost nothing.
    check_budget(
        object(&[("x", reference("Pair")), ("y", reference("Id"))]),
        0,
        json!({"type": "object", "properties": [
            {"name": "x", "schema": {"type": "object"}}, {"name": "y", "schema": {}}]}),
        &[("loss/schema", "/s/properties/0/schema/reference")],
        0,
    );
}

#[test]
fn a_copy_costs_the_bytes_it_writes_not_one_per_node() {
    // One node whose description is 10,000 bytes, used by ten properties: counted by nodes,
    // a budget of 35,000 would copy it ten times (100 KB); counted by weight, it is copied
    // four times (the last overshooting, as an expansion under way finishes) and then cut,
    // the cuts keeping the description while their own allowance (as large) lasts.
    let long = "x".repeat(10_000);
    let mut defs = IndexMap::new();
    defs.insert("Doc".to_owned(), Schema { description: Some(long.clone()), ..Schema::of(SchemaType::String) });
    let uses: Vec<(String, Schema)> = (0..10).map(|i| (format!("p{i}"), reference("Doc"))).collect();
    let uses: Vec<(&str, Schema)> = uses.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
    let budget = Budget::with_limit(35_000);
    let (inlined, diagnostics) = inline_within(&object(&uses), &defs, "/s", &budget);
    let kept: Vec<(Option<SchemaType>, bool)> =
        inlined.properties.iter().map(|p| (p.schema.kind, p.schema.description.as_deref() == Some(&*long))).collect();
    let (copy, described, bare) = ((Some(SchemaType::String), true), (None, true), (None, false));
    assert_eq!(kept, [copy, copy, copy, copy, described, described, described, bare, bare, bare]);
    assert_eq!(budget.spent(), 4 * schema_weight(&defs["Doc"]));
    assert!(schema_weight(&defs["Doc"]) > 10_000);
    assert_diagnostics(diagnostics, &[("loss/schema", "/s/properties/4/schema/reference")]);
    // The document's budget follows the model's weight, not its node count.
    let mut model = ToolSet { definitions: defs, ..ToolSet::default() };
    model.tools.push(Tool::new("t"));
    let limit = Budget::for_model(&model).limit();
    assert_eq!(limit, (model_weight(&model) * crate::limits::EXPANSION_FACTOR).max(crate::limits::MIN_EXPANSION_BYTES));
    model.definitions.insert("Big".into(), Schema { description: Some("y".repeat(1 << 20)), ..Schema::default() });
    assert!(Budget::for_model(&model).limit() >= crate::limits::EXPANSION_FACTOR << 20);
}

/// A value set's values copied into the fields naming it (as Gloodata's reader does) weigh
/// once, in the set: the copies are a reader's expansion, and counting them let one raise the
/// writer's budget (36 MB for a 0.56 MB document). A field's own shorter list still counts.
#[test]
fn a_value_sets_copies_do_not_raise_the_models_weight() {
    let entries: Vec<EnumValue> = (0..1_000)
        .map(|i| EnumValue { value: Value::from(format!("v{i}")), label: Some(format!("value {i}")) })
        .collect();
    let field = |enumeration: Option<Vec<EnumValue>>| Schema {
        value_set: Some("Big".into()),
        enumeration,
        ..Schema::of(SchemaType::String)
    };
    let model_with = |fields: Vec<Schema>| {
        let mut model = ToolSet::default();
        model.value_sets.insert("Big".into(), ValueSet { entries: entries.clone(), ..ValueSet::default() });
        let mut tool = Tool::new("t");
        tool.parameters = fields.into_iter().enumerate().map(|(i, s)| Parameter::new(format!("p{i}"), s)).collect();
        model.tools.push(tool);
        model
    };
    let named = model_weight(&model_with(vec![field(None); 10]));
    assert_eq!(model_weight(&model_with(vec![field(Some(entries.clone())); 10])), named);
    let own = model_weight(&model_with(vec![field(Some(entries[..10].to_vec())); 10]));
    assert!(own > named, "{own} > {named}");
}

#[test]
fn cut_references_leave_loose_schemas_and_no_reference_to_the_cut() {
    use serde_json::json;
    let defs = definitions();
    let mut kept = serde_json::Map::new();
    kept.insert("not".into(), json!({"$ref": "#/$defs/Pair"}));
    kept.insert("x-id".into(), json!({"$ref": "#/$defs/Id"}));
    let mut schema = object(&[("pair", reference("Pair")), ("id", reference("Id")), ("gone", reference("Nope"))]);
    schema.extras.insert("jsonschema".into(), Value::Object(kept));
    let (cut, first) = cut_references(&schema, &defs, "/s", &|name| name != "Pair", &Budget::unlimited());
    assert_eq!(first.as_deref(), Some("/s/extras/jsonschema"));
    assert_eq!(
        serde_json::to_value(&cut).unwrap(),
        json!({"type": "object", "properties": [
            {"name": "pair", "schema": {"type": "object"}},
            {"name": "id", "schema": {"reference": "Id"}},
            {"name": "gone", "schema": {"reference": "Nope"}}],
            "extras": {"jsonschema": {"x-id": {"$ref": "#/$defs/Id"}}}})
    );
    let (_, first) = cut_references(&reference("Holder"), &defs, "/s", &|name| name != "Holder", &Budget::unlimited());
    assert_eq!(first.as_deref(), Some("/s/reference"));
    assert_eq!(referenced(&cut, &defs), ["Id"], "nothing left refers to the cut definition");
}

#[test]
fn refine_keeps_the_first_property_of_a_name() {
    let mut base = object(&[("a", Schema::of(SchemaType::String))]);
    refine(&mut base, object(&[("b", Schema::default()), ("a", Schema::default()), ("b", Schema::default())]));
    let names: Vec<&str> = base.properties.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(base.properties[0].schema.kind, Some(SchemaType::String));
    assert_eq!(schema_nodes(&base), 3);
}

#[test]
fn finds_recursion_and_resolves_a_model() {
    let defs = definitions();
    assert_eq!(recursive(&reference("Node"), &defs).as_deref(), Some("Node"));
    assert_eq!(recursive(&reference("Holder"), &defs), None);
    let mut tool = Tool::new("t");
    tool.parameters.push(Parameter::new("p", reference("Pair")));
    let model = ToolSet { definitions: defs, tools: vec![tool], ..ToolSet::default() };
    assert_eq!(used_by(&model), ["Pair", "Id"]);
    let (resolved, diagnostics) = resolve(&model);
    assert!(diagnostics.is_empty());
    assert!(resolved.definitions.is_empty());
    assert!(!uses_references(&resolved.tools[0].parameters[0].schema));
    assert_eq!(free_name("Id", |n| model.definitions.contains_key(n)), "Id_2");
}

#[test]
fn one_recursion_check_walks_each_definition_of_a_shared_chain_once() {
    // D0 -> D1 -> ... -> D199, and a recursive Loop beside it.
    let mut defs: IndexMap<String, Schema> = (0..200)
        .map(|i| {
            let next = if i + 1 < 200 { vec![("next", reference(&format!("D{}", i + 1)))] } else { Vec::new() };
            (format!("D{i}"), object(&next))
        })
        .collect();
    defs.insert("Loop".to_owned(), object(&[("again", reference("Loop"))]));
    let mut check = Recursion::new(&defs);
    for _ in 0..200 {
        assert_eq!(check.first_in(&reference("D0")), None);
    }
    assert_eq!(check.walked(), 200, "each definition of the chain is walked once over 200 tools");
    assert_eq!(check.first_in(&object(&[("a", reference("D5")), ("b", reference("Loop"))])).as_deref(), Some("Loop"));
    assert_eq!(check.first_in(&reference("Loop")).as_deref(), Some("Loop"), "a recursion is found every time");
}

/// Resolves a model of one tool (parameter `schema`, output schema `output`) for a writer that
/// carries the schema fields `fields` (and the tool's `output` when `output_carried`); compares
/// the parameter's and the output's JSON and the diagnostics (code, path).
fn check_carried(
    schema: Schema,
    output: Schema,
    fields: &[&str],
    output_carried: bool,
    expect: (Value, Value),
    expect_diagnostics: &[(&str, &str)],
) {
    let mut tool = Tool::new("t");
    tool.parameters.push(Parameter::new("p", schema));
    tool.output = Some(Box::new(Output { schema: Some(output), ..Output::default() }));
    let model = ToolSet { definitions: definitions(), tools: vec![tool], ..ToolSet::default() };
    let tool_fields: &[&str] = if output_carried { &["output"] } else { &[] };
    let (resolved, diagnostics) =
        resolve_carried(&model, &Carried { schema: fields, tool: tool_fields, ..Carried::default() });
    assert!(resolved.definitions.is_empty());
    let tool = &resolved.tools[0];
    let got = (
        serde_json::to_value(&tool.parameters[0].schema).unwrap(),
        serde_json::to_value(tool.output.as_ref().and_then(|o| o.schema.as_ref())).unwrap(),
    );
    assert_eq!(got, expect);
    assert_diagnostics(diagnostics, expect_diagnostics);
}

#[test]
fn resolving_for_a_writer_inlines_only_what_it_carries() {
    use serde_json::json;
    let holder = json!({"type": "object", "properties": [
        {"name": "pair", "schema": {"reference": "Pair"}}, {"name": "missing", "schema": {"reference": "Nope"}}]});
    // Flat fields: the root reference is inlined; the properties, which the writer reports
    // lost whole, keep their references, and the unknown name inside them is not reported.
    // The output, not carried, is left as it is.
    check_carried(
        reference("Holder"),
        reference("Holder"),
        &["type"],
        false,
        (holder, json!({"reference": "Holder"})),
        &[],
    );
    // Properties carried: inlined inside them too, the unknown name reported.
    check_carried(
        reference("Holder"),
        reference("Id"),
        &["type", "description", "properties"],
        false,
        (
            json!({"type": "object", "properties": [
                {"name": "pair", "schema": {"type": "object", "properties": [
                    {"name": "a", "schema": {"type": "string", "description": "an id"}},
                    {"name": "b", "schema": {"type": "string", "description": "an id"}}]}},
                {"name": "missing", "schema": {}}]}),
            json!({"reference": "Id"}),
        ),
        &[("input/unresolved", "/tools/0/parameters/0/schema/properties/1/schema/reference")],
    );
    // Items carried: a definition whose root is a reference is chased (its description
    // wins), the alternatives are left; a carried output is inlined at its root, so the
    // recursion inside its properties is neither expanded nor reported.
    check_carried(
        Schema {
            items: Some(Box::new(reference("Alias"))),
            any_of: vec![reference("Id")],
            ..Schema::of(SchemaType::Array)
        },
        reference("Node"),
        &["type", "items"],
        true,
        (
            json!({"type": "array", "items": {"type": "object", "description": "a pair", "properties": [
                {"name": "a", "schema": {"reference": "Id"}}, {"name": "b", "schema": {"reference": "Id"}}]},
                "any_of": [{"reference": "Id"}]}),
            json!({"type": "object", "description": "a tree", "properties": [
                {"name": "children", "schema": {"reference": "Node"}}]}),
        ),
        &[],
    );
}

#[test]
fn a_chain_of_definitions_is_inlined_no_deeper_than_the_limit() {
    // `D0.next` is `D1`, …, 200 deep: inlined whole, it would nest 200 levels (written with
    // indentation growing with the square of the depth); it stops at `INLINE_DEPTH`, once.
    let mut defs = IndexMap::new();
    for i in 0..200 {
        let next = if i < 199 { vec![("next", reference(&format!("D{}", i + 1)))] } else { Vec::new() };
        defs.insert(format!("D{i}"), object(&next));
    }
    let (inlined, diagnostics) = inline(&reference("D0"), &defs, "/s");
    let mut depth = 0;
    let mut at = &inlined;
    while let Some(next) = at.properties.first() {
        depth += 1;
        at = &next.schema;
    }
    assert_eq!(depth, INLINE_DEPTH);
    assert_eq!(at.kind, Some(SchemaType::Object), "cut to a loose object");
    let path = format!("/s{}/reference", "/properties/0/schema".repeat(INLINE_DEPTH));
    assert_diagnostics(diagnostics, &[("loss/schema", path.as_str())]);
}
