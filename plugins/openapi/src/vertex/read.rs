//! Import body → tool set: the spec (inline or the file beside the body) read as OpenAPI, the
//! body's fields mapped onto the set, the rest kept in `extras["vertex"]`.

use serde_json::{Map, Value};
use toolport_plugin::source::Parsed;
use toolport_plugin::{Bundle, Diagnostic, Options, ToolSet, codes};

use super::auth::read_auth_config;
use super::examples::read_example;
use super::{VX, get, others, text};
use crate::{parse_any, read};

/// Reads an import body. `file` is its name in `input`, which holds the files beside it.
pub(super) fn read_body(
    body: &Value,
    file: &str,
    input: &Bundle,
    options: &Options,
) -> Result<(ToolSet, Vec<Diagnostic>), Vec<Diagnostic>> {
    if !body.is_object() {
        return Err(vec![Diagnostic::error(
            codes::INPUT_INVALID,
            "",
            "a Vertex extension must be a JSON or YAML object",
        )]);
    }
    let Some(manifest) = get(body, "manifest").filter(|m| m.is_object()) else {
        return Err(vec![Diagnostic::error(
            codes::INPUT_INVALID,
            "",
            "not a Vertex Extension import body: there is no `manifest` object",
        )]);
    };
    let mut diagnostics = Vec::new();
    let mut vx = Map::new();
    let snake_case = body.get("display_name").is_some() || manifest.get("api_spec").is_some();
    if snake_case {
        vx.insert("keyStyle".into(), Value::from("snake"));
    }

    let api_spec = get(manifest, "apiSpec").cloned().unwrap_or(Value::Null);
    let spec_doc = read_spec(&api_spec, file, input, &mut vx, &mut diagnostics)?;
    let (mut set, spec_diagnostics) = read::read_document(spec_doc, options).map_err(|e| vec![e])?;
    // Paths of the spec's diagnostics point into the spec, not the body.
    diagnostics.extend(spec_diagnostics.into_iter().map(|mut d| {
        d.path = format!("/manifest/apiSpec/openApiYaml{}", d.path);
        d
    }));

    read_titles(body, &mut set, &mut vx);
    set.id = text(manifest, "name");
    set.instructions = text(manifest, "description");
    set.timestamps.created = text(body, "createTime");
    set.timestamps.updated = text(body, "updateTime");

    if let Some(config) = get(manifest, "authConfig") {
        set.auth.insert(0, read_auth_config(config, &mut diagnostics));
        vx.insert("authConfig".into(), Value::Bool(true));
    } else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            "/manifest",
            "`manifest.authConfig` is required; none given",
        ));
    }
    let manifest_rest = others(manifest, &["name", "description", "apiSpec", "authConfig"]);
    if !manifest_rest.is_empty() {
        vx.insert("manifest".into(), Value::Object(manifest_rest));
    }
    let spec_rest = others(&api_spec, &["openApiYaml", "openApiGcsUri"]);
    if !spec_rest.is_empty() {
        vx.insert("apiSpec".into(), Value::Object(spec_rest));
    }

    if let Some(runtime) = get(body, "runtimeConfig") {
        read_runtime_config(runtime, &mut set, &mut vx);
    }
    if let Some(examples) = get(body, "toolUseExamples") {
        match examples.as_array() {
            Some(list) => {
                for (i, example) in list.iter().enumerate() {
                    set.examples.push(read_example(example, &set, i, &mut diagnostics));
                }
            }
            None => diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/toolUseExamples",
                "must be an array; ignored",
            )),
        }
    }
    let body_rest = others(
        body,
        &["displayName", "description", "createTime", "updateTime", "manifest", "runtimeConfig", "toolUseExamples"],
    );
    if !body_rest.is_empty() {
        vx.insert("body".into(), Value::Object(body_rest));
    }
    set.extras.insert(VX.into(), Value::Object(vx));
    Ok((set, diagnostics))
}

/// The spec for an `openApiGcsUri`: the file beside the body named like the Cloud Storage
/// object. When there is none (the URI is a placeholder, such as the documentation's
/// `gs://BUCKET_NAME/SPECIFICATION_FILE_NAME.yaml`), the only OpenAPI document beside the body,
/// with a warning naming both; the host offers those documents only to a body whose strings
/// name no file beside it, so a body whose spec is there reads nothing else.
fn find_spec(
    uri: &str,
    entry: &str,
    input: &Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Parsed, Vec<Diagnostic>> {
    let base = uri.rsplit('/').next().unwrap_or(uri);
    let dir = entry.rsplit_once('/').map_or("", |(d, _)| d);
    let name_of = |path: &str| path.rsplit('/').next().unwrap_or(path).to_owned();
    let beside: Vec<(&String, &String)> = input
        .files
        .iter()
        .filter(|(p, _)| p.as_str() != entry && p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
        .collect();
    if let Some((path, text)) = beside.iter().find(|(p, _)| name_of(p) == base) {
        return parse_any(path, text).map(|(doc, _)| doc).map_err(|e| vec![e]);
    }
    // Files that do not parse or are no OpenAPI document are not candidates, never errors.
    let mut documents = beside.into_iter().filter_map(|(path, text)| {
        let (doc, _) = parse_any(path, text).ok()?;
        doc.value.get("openapi").is_some().then_some((path, doc))
    });
    let pointer = "/manifest/apiSpec/openApiGcsUri";
    let mut message = format!(
        "the spec is at {uri}, which the converter does not fetch: put a copy named `{base}` beside the import body"
    );
    match (documents.next(), documents.next()) {
        (Some((path, doc)), None) => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_TOLERATED,
                pointer,
                format!(
                    "no file named `{base}` (from {uri}) is beside the import body; used `{path}`, the only OpenAPI document there"
                ),
            ));
            return Ok(doc);
        }
        (Some((first, _)), Some((second, _))) => message.push_str(&format!(
            " (`{first}` and `{second}` beside it are both OpenAPI documents: which one is meant cannot be told)"
        )),
        _ => {}
    }
    Err(vec![Diagnostic::error(codes::INPUT_MISSING_FILE, pointer, message)])
}

/// `defaultParams` apply to every call: they become the default of each parameter of that
/// name that has none of its own, so targets without run-time defaults still carry them.
pub(super) fn apply_runtime_defaults(set: &mut ToolSet) {
    for parameter in set.tools.iter_mut().flat_map(|t| t.parameters.iter_mut()) {
        if parameter.schema.default.is_none()
            && let Some(value) = set.runtime_defaults.get(&parameter.name)
        {
            parameter.schema.default = Some(Box::new(value.clone()));
        }
    }
}

/// The OpenAPI spec: inline (`openApiYaml`), or the file beside the body for
/// `openApiGcsUri` ([`find_spec`]).
fn read_spec(
    api_spec: &Value,
    file: &str,
    input: &Bundle,
    vx: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Value, Vec<Diagnostic>> {
    let parsed = if let Some(yaml) = get(api_spec, "openApiYaml").and_then(Value::as_str) {
        let label = format!("{file}#/manifest/apiSpec/openApiYaml");
        toolport_plugin::yaml::parse(&label, yaml)
    } else if let Some(uri) = get(api_spec, "openApiGcsUri").and_then(Value::as_str) {
        vx.insert("openApiGcsUri".into(), Value::from(uri));
        Ok(find_spec(uri, file, input, diagnostics)?)
    } else {
        return Err(vec![Diagnostic::error(
            codes::INPUT_INVALID,
            "/manifest/apiSpec",
            "`manifest.apiSpec` needs `openApiYaml` (the spec inline) or `openApiGcsUri`",
        )]);
    };
    let parsed = parsed.map_err(|e| vec![e])?;
    diagnostics.extend(parsed.tolerated);
    Ok(parsed.value)
}

/// Titles: the body's displayName and description win; the spec's own `info` texts are kept
/// in `specInfo`.
fn read_titles(body: &Value, set: &mut ToolSet, vx: &mut Map<String, Value>) {
    let mut spec_info = Map::new();
    for (key, body_key) in [("title", "displayName"), ("description", "description")] {
        let from_spec = if key == "title" { set.title.take() } else { set.description.take() };
        if let Some(value) = from_spec {
            spec_info.insert(key.into(), Value::String(value));
        }
        let from_body = text(body, body_key);
        if key == "title" {
            set.title = from_body;
        } else {
            set.description = from_body;
        }
    }
    if !spec_info.is_empty() {
        vx.insert("specInfo".into(), Value::Object(spec_info));
    }
}

/// `runtimeConfig`: its `defaultParams` are the set's runtime defaults; the rest is kept.
fn read_runtime_config(runtime: &Value, set: &mut ToolSet, vx: &mut Map<String, Value>) {
    if let Some(Value::Object(defaults)) = get(runtime, "defaultParams") {
        set.runtime_defaults = defaults.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        apply_runtime_defaults(set);
    }
    let rest = others(runtime, &["defaultParams"]);
    if !rest.is_empty() || runtime.as_object().is_some_and(|m| m.is_empty()) {
        vx.insert("runtimeConfig".into(), Value::Object(rest));
    }
}
