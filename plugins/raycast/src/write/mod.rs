//! Writing an extension directory a developer can build: package.json, the AI file when the
//! source had one, tsconfig.json and one `src/tools/<name>.ts` per tool with a typed `Input`,
//! JSDoc for every description, a `confirmation` export and a body (a `fetch` call when the
//! tool has an HTTP binding, else an explicit "not implemented" error).
//!
//! A model read from a Raycast extension gives back that extension: every file of it is carried
//! as it was (`carry`), tool files keep their bodies and have only parts the model changed
//! rewritten (`ts`), and package.json and the AI file are the source's own text while what they
//! hold is unchanged.
//!
//! The parts: `names` chooses file and extension names, `manifest` writes package.json (with
//! every key Raycast requires), `assets` a placeholder for every icon it names that the source
//! lacks, `ai` the instructions and evals (`evals`) in it or in the AI file, `ts` every
//! TypeScript file, `http` plans the request of a tool with an HTTP binding for `ts` to write,
//! and `carry` the source's own files.

mod ai;
mod assets;
mod carry;
pub mod evals;
mod http;
mod manifest;
mod names;
mod ts;

use std::fmt::Write as _;

use indexmap::IndexMap;
use serde_json::{Value, json};
use toolport_plugin::definitions::{Budget, value_set_weight};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::source::child;
use toolport_plugin::{
    AdditionalProperties, Bundle, Diagnostic, Icon, Options, Outcome, Schema, ToolSet, ValueSet, codes,
};

use crate::FORMAT_ID;

pub use ts::{GENERATED_STUB, HELPER, HELPER_PATH};

const CARRIED: Carried = Carried {
    tool_set: &[
        "id",
        "title",
        "description",
        "instructions",
        "version",
        "creator",
        "icon",
        "servers",
        "examples",
        "value_sets",
        "extras",
    ],
    // Pinned arguments are sent by the generated request (`write::http`).
    tool: &["title", "description", "usage_notes", "icon", "confirmation", "hints", "http", "pinned"],
    parameter: &["required", "location"],
    schema: &[
        "type",
        "nullable",
        "description",
        "default",
        "enum",
        "value_set",
        "examples",
        "items",
        "properties",
        "additional_properties",
        "any_of",
    ],
    example: &["prompt", "mocks", "expected", "used_as_example", "extras"],
};

pub fn write(model: &ToolSet, options: &Options) -> Outcome<Bundle> {
    // Raycast's TypeScript types are written inline: references are inlined first, so only
    // real losses (a recursive definition cut short) are reported.
    let (mut resolved, cuts) = toolport_plugin::definitions::resolve(model);
    let mut diagnostics = uncarried(&resolved, FORMAT_ID, &CARRIED);
    diagnostics.extend(cuts);
    list_value_sets(&mut resolved, &mut diagnostics);
    let model = &resolved;
    let set_extras = model.extras.get(FORMAT_ID).and_then(Value::as_object).cloned().unwrap_or_default();
    let from_raycast = set_extras.contains_key("manifest") || set_extras.contains_key("no_package_json");

    // Tool file names: names that are already safe stay; others are slugged, never colliding.
    let file_names = names::tool_file_names(model, from_raycast, &mut diagnostics);
    let tool_indices = model.tool_indices();
    let rename =
        |name: &str| -> String { tool_indices.get(name).map_or_else(|| name.to_owned(), |&i| file_names[i].clone()) };

    let id = names::extension_id(model, options, from_raycast, &mut diagnostics);
    // A Raycast source's own files, given back as they were unless written below.
    let source = carry::source_files(&set_extras);
    let mut bundle = source.clone().unwrap_or_default();

    // ai: instructions and evals, plus whatever the source's ai object had besides.
    let ai = ai::ai_object(model, &set_extras, &id, from_raycast, &rename, &mut diagnostics);
    let ai_in_package = ai::place(ai, &set_extras, &mut bundle);

    let tools = manifest::tool_entries(model, &file_names, &set_extras, &mut diagnostics);
    let package = if from_raycast && set_extras.contains_key("no_package_json") {
        None
    } else {
        Some(manifest::manifest(model, &id, tools, ai_in_package, &set_extras, from_raycast, &mut diagnostics))
    };
    if let Some(package) = &package {
        bundle.insert("package.json", carry::same_or_written(&bundle, "package.json", package, pretty(package)));
        let source_icon = match &model.icon {
            Some(Icon::Path { path }) => Some(path.as_str()),
            _ => None,
        };
        assets::placeholder_icons(package, source_icon, &file_names, &mut bundle, &mut diagnostics);
    }
    if !bundle.files.contains_key("tsconfig.json") {
        if source.is_some() {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                "",
                "the extension has no tsconfig.json, which Raycast builds with: the one `create-extension` writes is written",
            ));
        }
        bundle.insert("tsconfig.json", pretty(&tsconfig()));
    }
    let tool_files = ts::tool_files(model, &file_names, source.as_ref(), &mut bundle, &mut diagnostics);
    if let Some(source) = &source {
        carry::drop_unwritten_tool_files(source, &tool_files, &mut bundle, &mut diagnostics);
    }
    if let Some(package) = &package {
        let commands_generated = manifest::commands_generated(&set_extras);
        ts::command_sources(package, commands_generated, &id, &file_names, &mut bundle, &mut diagnostics);
    }
    Outcome::ok(bundle, diagnostics)
}

/// JSON as the extension's files hold it: pretty, with a final newline.
pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The tsconfig.json of a Raycast extension (as `create-extension` writes it).
fn tsconfig() -> Value {
    json!({
        "$schema": "https://json.schemastore.org/tsconfig",
        "include": ["src/**/*"],
        "compilerOptions": {
            "lib": ["ES2023"],
            "module": "commonjs",
            "target": "ES2022",
            "strict": true,
            "isolatedModules": true,
            "esModuleInterop": true,
            "skipLibCheck": true,
            "forceConsistentCasingInFileNames": true,
            "jsx": "react-jsx",
            "resolveJsonModule": true,
            "types": ["node"]
        }
    })
}

/// Gives each field that names a value set, and lists no values of its own, the set's values as
/// its enum, charged to the document's expansion budget: TypeScript has no shared place for
/// them, so every tool file lists its own, and a large set used by many fields multiplied the
/// output (a 0.56 MB Gloodata document wrote 42 MB). Past the budget the field keeps its plain
/// type, its value set left out with a `loss/schema`.
fn list_value_sets(model: &mut ToolSet, diagnostics: &mut Vec<Diagnostic>) {
    if model.value_sets.is_empty() {
        return;
    }
    let budget = Budget::for_model(model);
    let sets = std::mem::take(&mut model.value_sets);
    let mut path = String::new();
    for (i, tool) in model.tools.iter_mut().enumerate() {
        for (j, parameter) in tool.parameters.iter_mut().enumerate() {
            path.clear();
            let _ = write!(path, "/tools/{i}/parameters/{j}/schema");
            list_value_sets_in(&mut parameter.schema, &sets, &budget, &mut path, diagnostics);
        }
    }
    model.value_sets = sets;
}

/// `path` is the schema's model path, one buffer for the whole walk (each level's part added,
/// then cut off again): most schemas never need theirs.
fn list_value_sets_in(
    schema: &mut Schema,
    sets: &IndexMap<String, ValueSet>,
    budget: &Budget,
    path: &mut String,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if schema.enumeration.is_none()
        && let Some((id, set)) = schema.value_set.as_ref().and_then(|id| Some((id, sets.get(id)?)))
    {
        if budget.take(value_set_weight(set)) {
            schema.enumeration = Some(set.entries.clone());
        } else {
            diagnostics.push(Diagnostic::loss(
                codes::LOSS_SCHEMA,
                child(path, "value_set"),
                format!(
                    "{}; the {} values of value set `{id}` were left out of this field's type (any value of it is accepted)",
                    budget.describe(),
                    set.entries.len()
                ),
            ));
            schema.value_set = None;
        }
    }
    let parent = path.len();
    if let Some(items) = schema.items.as_deref_mut() {
        path.push_str("/items");
        list_value_sets_in(items, sets, budget, path, diagnostics);
        path.truncate(parent);
    }
    for (k, property) in schema.properties.iter_mut().enumerate() {
        let _ = write!(path, "/properties/{k}/schema");
        list_value_sets_in(&mut property.schema, sets, budget, path, diagnostics);
        path.truncate(parent);
    }
    if let Some(AdditionalProperties::Schema(extra)) = schema.additional_properties.as_mut() {
        path.push_str("/additional_properties");
        list_value_sets_in(extra, sets, budget, path, diagnostics);
        path.truncate(parent);
    }
    for (k, member) in schema.any_of.iter_mut().enumerate() {
        let _ = write!(path, "/any_of/{k}");
        list_value_sets_in(member, sets, budget, path, diagnostics);
        path.truncate(parent);
    }
}
