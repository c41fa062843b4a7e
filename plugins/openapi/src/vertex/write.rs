//! Tool set → import body: the spec written as an OpenAPI 3.0 document (YAML, inline), and
//! the body's fields from the set, each within Vertex's rules.

use serde_json::{Map, Value};
use toolport_plugin::names::{NameRules, tool_set_name};
use toolport_plugin::{Auth, AuthKind, Diagnostic, Options, ToolSet, codes};

use super::VX;
use super::auth::write_auth_config;
use super::examples::{example_fits, write_example};
use crate::write::{self, Mode, VertexParts};

/// The inverse of [`super::read::apply_runtime_defaults`] for the inline spec: a parameter default equal
/// to its `defaultParams` value is said once, in `defaultParams`.
fn without_runtime_defaults(set: &ToolSet) -> std::borrow::Cow<'_, ToolSet> {
    let repeats = |p: &toolport_plugin::Parameter| {
        p.schema.default.is_some() && p.schema.default.as_deref() == set.runtime_defaults.get(&p.name)
    };
    if !set.tools.iter().flat_map(|t| &t.parameters).any(repeats) {
        return std::borrow::Cow::Borrowed(set);
    }
    let mut trimmed = set.clone();
    for parameter in trimmed.tools.iter_mut().flat_map(|t| t.parameters.iter_mut()) {
        if repeats(parameter) {
            parameter.schema.default = None;
        }
    }
    std::borrow::Cow::Owned(trimmed)
}

/// Writes the import body for `set`.
pub(super) fn write_body(set: &ToolSet, options: &Options) -> Result<(Value, Vec<Diagnostic>), Vec<Diagnostic>> {
    let empty = Map::new();
    let vx = set.extras.get(VX).and_then(Value::as_object).unwrap_or(&empty);
    let auth_config = (vx.get("authConfig") == Some(&Value::Bool(true)) && !set.auth.is_empty()).then_some(0);
    let parts = VertexParts {
        auth_config,
        carried_by_body: &["id", "instructions", "timestamps", "runtime_defaults", "examples"],
        base_url: options.get("base_url"),
        fallback_title: Some(options.output_title("Extension")),
        default_version: None,
        required_version: None,
    };
    let mut out = Vec::new();
    let set = write::output_schemas(set, options, &mut out);
    let set = &*set;
    let written = write::document(&without_runtime_defaults(set), Mode::Vertex, &parts);
    out.extend(written.diagnostics);
    let yaml = toolport_plugin::yaml::value_to_string(&written.document);
    // The document lives on only as its YAML text.
    options.free(written.document);

    let mut body = Map::new();
    let body_ext = vx.get("body").and_then(Value::as_object).unwrap_or(&empty);
    if let Some(name) = body_ext.get("name") {
        body.insert("name".into(), name.clone());
    }
    let display_name = filled(&set.title).or_else(|| filled(&set.id)).unwrap_or_else(|| {
        let title = options.output_title("Extension");
        out.push(Diagnostic::info(
            codes::GENERATED,
            "/title",
            format!("Vertex needs a displayName: `{title}` was made from the file name"),
        ));
        title
    });
    body.insert("displayName".into(), Value::String(limit(&display_name, "/title", "displayName", &mut out)));
    if let Some(d) = &set.description {
        body.insert("description".into(), Value::from(d.as_str()));
    }
    for (key, field, value) in
        [("createTime", "created", &set.timestamps.created), ("updateTime", "updated", &set.timestamps.updated)]
    {
        if let Some(time) = value.as_deref().and_then(|t| timestamp(t, field, key, &mut out)) {
            body.insert(key.into(), Value::String(time));
        }
    }
    if let Some(etag) = body_ext.get("etag") {
        body.insert("etag".into(), etag.clone());
    }

    let manifest = write_manifest(set, vx, auth_config, yaml, &written.names, options, &mut out);
    body.insert("manifest".into(), Value::Object(manifest));

    let runtime_rest = vx.get("runtimeConfig").and_then(Value::as_object);
    if !set.runtime_defaults.is_empty() || runtime_rest.is_some() {
        let mut runtime = Map::new();
        if !set.runtime_defaults.is_empty() {
            runtime.insert("defaultParams".into(), Value::Object(set.runtime_defaults.clone().into_iter().collect()));
        }
        if let Some(rest) = runtime_rest {
            runtime.extend(rest.clone());
        }
        body.insert("runtimeConfig".into(), Value::Object(runtime));
    }
    if !set.examples.is_empty() {
        let mut examples = Vec::with_capacity(set.examples.len());
        let tools = set.tool_indices();
        for (i, example) in set.examples.iter().enumerate() {
            if example_fits(example, i, &tools, &mut out) {
                examples.push(write_example(example, i, &tools, &written.names, &mut out));
            }
        }
        if !examples.is_empty() {
            body.insert("toolUseExamples".into(), Value::Array(examples));
        }
    }
    for (k, v) in body_ext {
        body.entry(k.clone()).or_insert_with(|| v.clone());
    }
    if vx.get("keyStyle").and_then(Value::as_str) == Some("snake") {
        // The SDK's hub entries use the protobuf field names; an import body is the JSON the
        // REST API documents, which the platform's checks and other tools expect.
        out.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            "/extras/vertex/keyStyle",
            "the source's snake_case keys (display_name, api_spec) were written in camelCase (displayName, apiSpec), as extensions:import documents them; protobuf JSON reads both",
        ));
    }
    Ok((Value::Object(body), out))
}

/// The `manifest`: name, description, the spec inline, the auth config, and the source's
/// other manifest keys. `names` are the tools' written names.
fn write_manifest(
    set: &ToolSet,
    vx: &Map<String, Value>,
    auth_config: Option<usize>,
    yaml: String,
    names: &[String],
    options: &Options,
    out: &mut Vec<Diagnostic>,
) -> Map<String, Value> {
    let mut manifest = Map::new();
    let manifest_name = manifest_name(set, options, out);
    manifest.insert("name".into(), Value::String(limit(&manifest_name, "/id", "manifest.name", out)));
    let manifest_description = manifest_description(set, names, out);
    manifest.insert("description".into(), Value::String(manifest_description));
    let mut api_spec = Map::new();
    api_spec.insert("openApiYaml".into(), Value::String(yaml));
    if let Some(Value::Object(rest)) = vx.get("apiSpec") {
        api_spec.extend(rest.clone());
    }
    if let Some(uri) = vx.get("openApiGcsUri").and_then(Value::as_str) {
        out.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            "/extras/vertex/openApiGcsUri",
            format!("the spec from {uri} is written inline in `openApiYaml`"),
        ));
    }
    manifest.insert("apiSpec".into(), Value::Object(api_spec));
    let chosen = chosen_auth(set, auth_config, out);
    let at = format!("/auth/{}", auth_config.unwrap_or_default());
    manifest.insert("authConfig".into(), write_auth_config(chosen, &at, out));
    if let Some(Value::Object(rest)) = vx.get("manifest") {
        for (k, v) in rest {
            manifest.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    manifest
}

/// `manifest.name`: the set's id, else made from the title or the file name.
fn manifest_name(set: &ToolSet, options: &Options, out: &mut Vec<Diagnostic>) -> String {
    let (name, made_from) =
        tool_set_name(set.id.as_deref(), set.title.as_deref(), options.output_name("extension"), &NameRules::FUNCTION);
    if let Some(from) = made_from {
        out.push(Diagnostic::info(
            codes::GENERATED,
            "/id",
            format!("Vertex needs `manifest.name`: `{name}` was made from {from}"),
        ));
    }
    name
}

/// `manifest.description`, shown to the model and required: the instructions, else the best
/// text the source has (`names`, the tools' written names, at the least).
fn manifest_description(set: &ToolSet, names: &[String], out: &mut Vec<Diagnostic>) -> String {
    let fallbacks = [(&set.description, "description"), (&set.title, "title"), (&set.id, "id")];
    filled(&set.instructions).unwrap_or_else(|| {
        let found = fallbacks.iter().find_map(|(value, field)| Some((filled(value)?, *field)));
        let (text, field) = found.unwrap_or_else(|| {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            (format!("Tools: {}", names.join(", ")), "tool names")
        });
        let message = format!(
            "Vertex needs `manifest.description` (shown to the model) and there are no instructions: the {field} was used"
        );
        out.push(if field == "description" {
            Diagnostic::info(codes::GENERATED, "/instructions", message)
        } else {
            Diagnostic::warning(codes::GENERATED, "/instructions", message)
        });
        text
    })
}

/// The auth entry written as `authConfig`: the one read from it (`auth_config`), else the
/// first that authenticates.
fn chosen_auth<'a>(set: &'a ToolSet, auth_config: Option<usize>, out: &mut Vec<Diagnostic>) -> Option<&'a Auth> {
    match auth_config {
        Some(index) => set.auth.get(index),
        None => {
            let first = set.auth.iter().position(|a| a.kind != AuthKind::None);
            if set.auth.is_empty() {
                out.push(Diagnostic::info(codes::GENERATED, "/auth", "no authentication given: written as NO_AUTH"));
            } else if set.auth.len() > 1 {
                out.push(Diagnostic::warning(
                    codes::CHANGED_VALUE,
                    "/auth",
                    "Vertex takes one authConfig: the first scheme was used; the others stay in the spec",
                ));
            }
            first.and_then(|i| set.auth.get(i))
        }
    }
}

/// The text when it has more than blanks.
fn filled(value: &Option<String>) -> Option<String> {
    value.as_ref().filter(|v| !v.trim().is_empty()).cloned()
}

/// A protobuf `Timestamp` in JSON is RFC 3339 (`2023-11-02T00:00:00Z`). A date alone is
/// written as its midnight UTC; anything else (`2023-11`) is left out. Both are reported.
fn timestamp(text: &str, field: &str, key: &str, out: &mut Vec<Diagnostic>) -> Option<String> {
    if is_rfc3339(text) {
        return Some(text.to_owned());
    }
    let path = format!("/timestamps/{field}");
    if is_date(text) {
        let time = format!("{text}T00:00:00Z");
        out.push(Diagnostic::info(
            codes::CHANGED_VALUE,
            path,
            format!("Vertex's `{key}` is an RFC 3339 time: the date `{text}` was written as `{time}`"),
        ));
        return Some(time);
    }
    out.push(Diagnostic::loss(
        codes::LOSS_FIELD,
        path,
        format!("Vertex's `{key}` is an RFC 3339 time (2023-11-02T10:00:00Z), and `{text}` is not one: left out"),
    ));
    None
}

/// `YYYY-MM-DD` with a plausible month and day.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| b.get(range).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let number = |range: std::ops::Range<usize>| text.get(range).and_then(|t| t.parse::<u32>().ok()).unwrap_or(0);
    b.len() == 10
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && (1..=12).contains(&number(5..7))
        && (1..=31).contains(&number(8..10))
}

/// RFC 3339 `date-time`: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
fn is_rfc3339(text: &str) -> bool {
    let Some((date, time)) = text.split_once(['T', 't']) else { return false };
    let digits = |t: &str, max: u32| {
        t.len() == 2 && t.bytes().all(|b| b.is_ascii_digit()) && t.parse::<u32>().is_ok_and(|n| n <= max)
    };
    let clock = |t: &str| {
        let parts: Vec<&str> = t.split(':').collect();
        matches!(parts.as_slice(), [h, m, s] if digits(h, 23) && digits(m, 59) && digits(s, 60))
    };
    let (rest, zone) = if let Some(rest) = time.strip_suffix(['Z', 'z']) {
        (rest, true)
    } else {
        match time.rfind(['+', '-']) {
            Some(i) => {
                let zone = &time[i + 1..];
                let ok = matches!(zone.split_once(':'), Some((h, m)) if digits(h, 23) && digits(m, 59));
                (&time[..i], ok)
            }
            None => (time, false),
        }
    };
    let (clock_part, fraction) = rest.split_once('.').unwrap_or((rest, "0"));
    is_date(date) && zone && clock(clock_part) && !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit())
}

fn limit(value: &str, path: &str, field: &str, out: &mut Vec<Diagnostic>) -> String {
    if value.chars().count() <= 128 {
        return value.to_owned();
    }
    out.push(Diagnostic::warning(
        codes::CHANGED_VALUE,
        path,
        format!("Vertex allows 128 characters in `{field}`: it was cut"),
    ));
    value.chars().take(128).collect()
}
