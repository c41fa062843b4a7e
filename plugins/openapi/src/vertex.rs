//! The `vertex` format: a Vertex AI Extension resource as sent to `extensions:import`.
//!
//! The OpenAPI spec is read from `manifest.apiSpec.openApiYaml`, or for `openApiGcsUri` from a
//! file of the same name beside the import body (the converter never fetches from Cloud
//! Storage). Body fields map onto the tool set: `manifest.name` → id, `displayName` → title,
//! `description` → description, `manifest.description` (shown to the model) → instructions,
//! `authConfig` → the first auth entry, `runtimeConfig.defaultParams` → runtime defaults,
//! `toolUseExamples` → examples. Everything else is kept in `extras["vertex"]`. Bodies are
//! written with camelCase keys, as `extensions:import` documents them, whatever the source's
//! key style (protobuf JSON reads both).

use serde_json::{Map, Value, json};
use toolport_plugin::names::{NameRules, sanitize};
use toolport_plugin::source::child;
use toolport_plugin::{
    Auth, AuthKind, Bundle, Detection, Diagnostic, Example, Expectation, Format, FormatInfo, InputShape, Matcher,
    OptionSpec, Options, Outcome, ParamLocation, ToolCall, ToolSet, codes,
};

use crate::write::{self, Mode, VertexParts};
use crate::{locate_all, parse_any, pretty_json, read};

const VX: &str = "vertex";

/// The `vertex` format.
#[derive(Debug, Default)]
pub struct Vertex;

impl Format for Vertex {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            id: VX.into(),
            aliases: vec!["vertex-extension".into()],
            description: "Vertex AI Extension import body (JSON or YAML) with its OpenAPI spec inline or beside it"
                .into(),
            version: env!("CARGO_PKG_VERSION").into(),
            reads: true,
            writes: true,
            input: InputShape::FileWithSiblings,
            extensions: vec!["json".into(), "yaml".into(), "yml".into()],
            options: Some(vec![OptionSpec::url(
                "base_url",
                "the source's server, else the first tool's, else https://example.invalid",
                "the API's server URL, written when the source names no server (a skydeck or MCP source, say)",
            )]),
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        let head: String = text.chars().take(8192).collect();
        let manifest = head.contains("manifest");
        if manifest && (head.contains("apiSpec") || head.contains("api_spec")) {
            95
        } else if manifest && (head.contains("authConfig") || head.contains("auth_config")) {
            60
        } else {
            0
        }
    }

    fn read(&self, input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        let Some((file, text)) = input.entry_file() else {
            return Outcome::fail(Diagnostic::error(codes::INPUT_MISSING_FILE, "", "no input file"));
        };
        let (body, syntax) = match parse_any(file, text) {
            Ok(parsed) => parsed,
            Err(e) => return Outcome::fail(e),
        };
        match read_body(&body, file, input) {
            Ok((set, diagnostics)) => {
                let diagnostics = locate_all(diagnostics, file, text, syntax);
                Outcome::ok(set, diagnostics)
            }
            Err(diagnostics) => Outcome::failed(locate_all(diagnostics, file, text, syntax)),
        }
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let (body, diagnostics) = match write_body(model, options) {
            Ok(written) => written,
            Err(diagnostics) => return Outcome::failed(diagnostics),
        };
        let name = options.output_name("extension");
        Outcome::ok(Bundle::single(format!("{name}.json"), pretty_json(&body)), diagnostics)
    }
}

/// A key in camelCase or its snake_case form (protobuf JSON parsers accept both).
fn get<'a>(object: &'a Value, camel: &str) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake(camel).as_str()))
}

fn snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn text(object: &Value, key: &str) -> Option<String> {
    get(object, key).and_then(Value::as_str).map(str::to_owned)
}

/// The keys of `object` not in `known` (compared in camelCase), as written.
fn others(object: &Value, known: &[&str]) -> Map<String, Value> {
    object
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !known.contains(&camel(k).as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn read_body(body: &Value, file: &str, input: &Bundle) -> Result<(ToolSet, Vec<Diagnostic>), Vec<Diagnostic>> {
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

    // The OpenAPI spec: inline, or a file beside the body named like the GCS object.
    let api_spec = get(manifest, "apiSpec").cloned().unwrap_or(Value::Null);
    let spec_doc = if let Some(yaml) = get(&api_spec, "openApiYaml").and_then(Value::as_str) {
        let label = format!("{file}#/manifest/apiSpec/openApiYaml");
        toolport_plugin::yaml::parse(&label, yaml).map_err(|e| vec![e])?
    } else if let Some(uri) = get(&api_spec, "openApiGcsUri").and_then(Value::as_str) {
        vx.insert("openApiGcsUri".into(), Value::from(uri));
        let (spec_file, spec_text) = find_spec(uri, file, input, &mut diagnostics)?;
        let (doc, _) = parse_any(&spec_file, &spec_text).map_err(|e| vec![e])?;
        doc
    } else {
        return Err(vec![Diagnostic::error(
            codes::INPUT_INVALID,
            "/manifest/apiSpec",
            "`manifest.apiSpec` needs `openApiYaml` (the spec inline) or `openApiGcsUri`",
        )]);
    };
    let (mut set, spec_diagnostics) = read::read_document(&spec_doc).map_err(|e| vec![e])?;
    // Paths of the spec's diagnostics point into the spec, not the body.
    diagnostics.extend(spec_diagnostics.into_iter().map(|mut d| {
        d.path = format!("/manifest/apiSpec/openApiYaml{}", d.path);
        d
    }));

    // Titles: the body's displayName/description win; the spec's info keeps its own.
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
        if let Some(Value::Object(defaults)) = get(runtime, "defaultParams") {
            set.runtime_defaults = defaults.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            apply_runtime_defaults(&mut set);
        }
        let rest = others(runtime, &["defaultParams"]);
        if !rest.is_empty() || runtime.as_object().is_some_and(|m| m.is_empty()) {
            vx.insert("runtimeConfig".into(), Value::Object(rest));
        }
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

/// The spec file for an `openApiGcsUri`: the bundle file with the object's file name, else
/// the only OpenAPI document beside the body.
fn find_spec(
    uri: &str,
    entry: &str,
    input: &Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(String, String), Vec<Diagnostic>> {
    let base = uri.rsplit('/').next().unwrap_or(uri);
    let dir = entry.rsplit_once('/').map_or("", |(d, _)| d);
    let beside = |path: &str| path.rsplit_once('/').map_or("", |(d, _)| d) == dir;
    let name_of = |path: &str| path.rsplit('/').next().unwrap_or(path).to_owned();
    if let Some((path, text)) = input.files.iter().find(|(p, _)| p.as_str() != entry && beside(p) && name_of(p) == base)
    {
        return Ok((path.clone(), text.clone()));
    }
    let candidates: Vec<(&String, &String)> = input
        .files
        .iter()
        .filter(|(p, t)| {
            p.as_str() != entry && beside(p) && {
                let head: String = t.chars().take(2048).collect();
                head.lines().any(|l| l.trim_start().trim_start_matches(['{', '"']).starts_with("openapi"))
            }
        })
        .collect();
    if let [(path, text)] = candidates.as_slice() {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            "/manifest/apiSpec/openApiGcsUri",
            format!(
                "`{base}` (from {uri}) is not beside the import body; used `{path}`, the only OpenAPI document there"
            ),
        ));
        return Ok(((*path).clone(), (*text).clone()));
    }
    Err(vec![Diagnostic::error(
        codes::INPUT_MISSING_FILE,
        "/manifest/apiSpec/openApiGcsUri",
        format!(
            "the spec is at {uri}, which the converter does not fetch: put a copy named `{base}` beside the import body"
        ),
    )])
}

fn read_auth_config(config: &Value, diagnostics: &mut Vec<Diagnostic>) -> Auth {
    let mut auth = Auth::default();
    let auth_type = text(config, "authType").unwrap_or_default();
    let (kind, config_key) = match auth_type.as_str() {
        "NO_AUTH" | "" => (AuthKind::None, ""),
        "API_KEY_AUTH" => (AuthKind::ApiKey, "apiKeyConfig"),
        "HTTP_BASIC_AUTH" => (AuthKind::HttpBasic, "httpBasicAuthConfig"),
        "GOOGLE_SERVICE_ACCOUNT_AUTH" => (AuthKind::GoogleServiceAccount, "googleServiceAccountConfig"),
        "OAUTH" => (AuthKind::OAuth, "oauthConfig"),
        "OIDC_AUTH" => (AuthKind::Oidc, "oidcConfig"),
        other => {
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                "/manifest/authConfig/authType",
                format!("unknown authType `{other}`; kept as written"),
            ));
            auth.settings.insert("vertex:authType".into(), Value::from(other));
            (AuthKind::None, "")
        }
    };
    auth.kind = kind;
    if let Some(inner) = (!config_key.is_empty()).then(|| get(config, config_key)).flatten() {
        auth.secret = text(inner, "apiKeySecret").or_else(|| text(inner, "credentialSecret"));
        auth.value =
            text(inner, "apiKeyString").or_else(|| text(inner, "accessToken")).or_else(|| text(inner, "idToken"));
        auth.service_account = text(inner, "serviceAccount");
        auth.parameter_name = text(inner, "name");
        if let Some(place) = text(inner, "httpElementLocation") {
            auth.location = match place.as_str() {
                "HTTP_IN_QUERY" => Some(ParamLocation::Query),
                "HTTP_IN_HEADER" => Some(ParamLocation::Header),
                "HTTP_IN_PATH" => Some(ParamLocation::Path),
                "HTTP_IN_BODY" => Some(ParamLocation::Body),
                "HTTP_IN_COOKIE" => Some(ParamLocation::Cookie),
                _ => {
                    auth.settings.insert("vertex:httpElementLocation".into(), Value::from(place));
                    None
                }
            };
        }
        let known = [
            "apiKeySecret",
            "credentialSecret",
            "apiKeyString",
            "accessToken",
            "idToken",
            "serviceAccount",
            "name",
            "httpElementLocation",
        ];
        for (k, v) in others(inner, &known) {
            auth.settings.insert(format!("vertex:config:{k}"), v);
        }
    }
    for (k, v) in others(config, &["authType", config_key]) {
        if !k.is_empty() {
            auth.settings.insert(format!("vertex:{k}"), v);
        }
    }
    auth
}

fn write_auth_config(auth: Option<&Auth>, at: &str, out: &mut Vec<Diagnostic>) -> Value {
    let Some(auth) = auth else { return json!({"authType": "NO_AUTH"}) };
    let (auth_type, config_key) = match auth.kind {
        AuthKind::None => ("NO_AUTH", ""),
        AuthKind::ApiKey => ("API_KEY_AUTH", "apiKeyConfig"),
        AuthKind::HttpBasic => ("HTTP_BASIC_AUTH", "httpBasicAuthConfig"),
        AuthKind::GoogleServiceAccount => ("GOOGLE_SERVICE_ACCOUNT_AUTH", "googleServiceAccountConfig"),
        AuthKind::OAuth => ("OAUTH", "oauthConfig"),
        AuthKind::HttpBearer => {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                child(at, "kind"),
                "Vertex has no bearer-token auth: written as OAUTH (the token is sent as a bearer token)",
            ));
            ("OAUTH", "oauthConfig")
        }
        AuthKind::Oidc => ("OIDC_AUTH", "oidcConfig"),
    };
    let auth_type = auth.settings.get("vertex:authType").and_then(Value::as_str).unwrap_or(auth_type);
    let mut config = Map::new();
    config.insert("authType".into(), Value::from(auth_type));
    if !config_key.is_empty() {
        let mut inner = Map::new();
        let mut put = |key: &str, value: &Option<String>| {
            if let Some(v) = value {
                inner.insert(key.into(), Value::from(v.as_str()));
            }
        };
        match auth.kind {
            AuthKind::ApiKey => {
                put("name", &auth.parameter_name);
                put("apiKeySecret", &auth.secret);
                put("apiKeyString", &auth.value);
                let place = match auth.location {
                    Some(ParamLocation::Query) => Some("HTTP_IN_QUERY"),
                    Some(ParamLocation::Header) => Some("HTTP_IN_HEADER"),
                    Some(ParamLocation::Path) => Some("HTTP_IN_PATH"),
                    Some(ParamLocation::Body) => Some("HTTP_IN_BODY"),
                    Some(ParamLocation::Cookie) => Some("HTTP_IN_COOKIE"),
                    None => None,
                };
                if let Some(place) = place {
                    inner.insert("httpElementLocation".into(), Value::from(place));
                }
                if auth.secret.is_none() && auth.value.is_none() {
                    out.push(Diagnostic::warning(
                        codes::GENERATED,
                        at,
                        "Vertex needs `apiKeyConfig.apiKeySecret` (a Secret Manager version): fill it in before importing",
                    ));
                }
            }
            AuthKind::HttpBasic => put("credentialSecret", &auth.secret),
            AuthKind::GoogleServiceAccount => put("serviceAccount", &auth.service_account),
            AuthKind::OAuth | AuthKind::HttpBearer => {
                put("accessToken", &auth.value);
                put("serviceAccount", &auth.service_account);
            }
            AuthKind::Oidc => {
                put("idToken", &auth.value);
                put("serviceAccount", &auth.service_account);
            }
            AuthKind::None => {}
        }
        for (k, v) in &auth.settings {
            if let Some(key) = k.strip_prefix("vertex:config:") {
                inner.insert(key.into(), v.clone());
            }
        }
        config.insert(config_key.into(), Value::Object(inner));
    }
    for (k, v) in &auth.settings {
        if let Some(key) = k
            .strip_prefix("vertex:")
            .filter(|k| !k.starts_with("config:") && *k != "authType" && *k != "httpElementLocation")
        {
            config.insert(key.into(), v.clone());
        }
    }
    let dropped: Vec<&String> = auth.settings.keys().filter(|k| !k.starts_with("vertex:")).collect();
    if !dropped.is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_AUTH,
            child(at, "settings"),
            format!("Vertex's authConfig has no place for {dropped:?}; they stay in the spec's security schemes only"),
        ));
    }
    Value::Object(config)
}

/// Decodes the verbose protobuf `Struct` form `{fields: [{key, value: {string_value: …}}]}`.
fn decode_struct(value: &Value) -> Option<Value> {
    let fields = value.as_object().filter(|m| m.len() == 1)?.get("fields")?.as_array()?;
    let mut out = Map::new();
    for field in fields {
        let key = field.get("key")?.as_str()?;
        out.insert(key.to_owned(), decode_value(field.get("value")?)?);
    }
    Some(Value::Object(out))
}

fn decode_value(value: &Value) -> Option<Value> {
    let map = value.as_object().filter(|m| m.len() == 1)?;
    let (kind, inner) = map.iter().next()?;
    Some(match camel(kind).as_str() {
        "stringValue" | "numberValue" | "boolValue" => inner.clone(),
        "nullValue" => Value::Null,
        "structValue" => decode_struct(inner).or_else(|| inner.is_object().then(|| inner.clone()))?,
        "listValue" => {
            Value::Array(inner.get("values")?.as_array()?.iter().map(decode_value).collect::<Option<Vec<_>>>()?)
        }
        _ => return None,
    })
}

fn encode_struct(value: &Value) -> Value {
    let fields: Vec<Value> =
        value.as_object().into_iter().flatten().map(|(k, v)| json!({"key": k, "value": encode_value(v)})).collect();
    json!({ "fields": fields })
}

fn encode_value(value: &Value) -> Value {
    match value {
        Value::String(_) => json!({ "string_value": value }),
        Value::Number(_) => json!({ "number_value": value }),
        Value::Bool(_) => json!({ "bool_value": value }),
        Value::Null => json!({ "null_value": "NULL_VALUE" }),
        Value::Object(_) => json!({ "struct_value": encode_struct(value) }),
        Value::Array(items) => {
            json!({ "list_value": { "values": items.iter().map(encode_value).collect::<Vec<_>>() } })
        }
    }
}

fn read_example(example: &Value, set: &ToolSet, i: usize, diagnostics: &mut Vec<Diagnostic>) -> Example {
    let at = child("/toolUseExamples", i.to_string());
    let mut ext = Map::new();
    let mut out = Example { name: text(example, "displayName"), ..Example::default() };
    match text(example, "query") {
        Some(query) => out.prompt = query,
        None => diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &at, "a tool-use example needs a `query`")),
    }
    let mut verbose = false;
    let mut decode = |value: &Value| match decode_struct(value) {
        Some(decoded) => {
            verbose = true;
            decoded
        }
        None => value.clone(),
    };
    let arguments = get(example, "requestParams").map(&mut decode);
    out.response = get(example, "responseParams").map(&mut decode);
    if verbose {
        ext.insert("struct".into(), Value::Bool(true));
    }
    out.response_summary = text(example, "responseSummary");
    let target = if let Some(operation) = get(example, "extensionOperation") {
        let rest = others(operation, &["operationId"]);
        if !rest.is_empty() {
            ext.insert("extensionOperation".into(), Value::Object(rest));
        }
        text(operation, "operationId")
    } else if let Some(name) = text(example, "functionName") {
        ext.insert("target".into(), Value::from("functionName"));
        Some(name)
    } else {
        ext.insert("target".into(), Value::from("none"));
        None
    };
    if let Some(operation_id) = target {
        // The tool whose operation this is (its name differs when the id was repeated).
        let tool = set
            .tools
            .iter()
            .find(|t| t.http.as_ref().and_then(|h| h.operation_id.as_deref()) == Some(operation_id.as_str()))
            .map(|t| t.name.clone())
            .unwrap_or_else(|| {
                if set.tool(&operation_id).is_none() {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNRESOLVED,
                        &at,
                        format!("operation `{operation_id}` is not in the spec"),
                    ));
                }
                operation_id
            });
        let arguments = arguments
            .as_ref()
            .and_then(Value::as_object)
            .map(|args| args.iter().map(|(k, v)| (k.clone(), Matcher::eq(v.clone()))).collect());
        if arguments.is_none() {
            ext.insert("noRequestParams".into(), Value::Bool(true));
        }
        out.expected.push(Expectation::CallsTool(ToolCall { tool, arguments, long_form: false }));
    } else if let Some(arguments) = arguments {
        ext.insert("requestParams".into(), arguments);
    }
    let rest = others(
        example,
        &[
            "displayName",
            "query",
            "requestParams",
            "responseParams",
            "responseSummary",
            "extensionOperation",
            "functionName",
        ],
    );
    if !rest.is_empty() {
        ext.insert("other".into(), Value::Object(rest));
    }
    if !ext.is_empty() {
        out.extras.insert(VX.into(), Value::Object(ext));
    }
    out
}

/// Whether an example can be a Vertex tool-use example: Vertex needs the user's `query`, and
/// an example names an operation of the spec (Raycast evals may call tools the extension does
/// not list). One that cannot is left out with a `loss/examples` diagnostic.
fn example_fits(example: &Example, i: usize, set: &ToolSet, out: &mut Vec<Diagnostic>) -> bool {
    let at = format!("/examples/{i}");
    if example.prompt.trim().is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            child(&at, "prompt"),
            "a Vertex tool-use example needs a `query` (what the user asked); this example has none: left out",
        ));
        return false;
    }
    if let Some(call) = example.called_tools().next()
        && set.tool(&call.tool).is_none()
    {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            child(&at, "expected"),
            format!(
                "this example calls `{}`, which is not one of the tools, so not an operation of the spec: left out",
                call.tool
            ),
        ));
        return false;
    }
    true
}

fn write_example(example: &Example, i: usize, set: &ToolSet, names: &[String], out: &mut Vec<Diagnostic>) -> Value {
    let at = format!("/examples/{i}");
    let empty = Map::new();
    let ext = example.extras.get(VX).and_then(Value::as_object).unwrap_or(&empty);
    let verbose = ext.get("struct") == Some(&Value::Bool(true));
    let encode = |v: &Value| if verbose { encode_struct(v) } else { v.clone() };
    let mut m = Map::new();
    let mut calls = example.called_tools();
    if let Some(call) = calls.next() {
        let name =
            set.tools.iter().position(|t| t.name == call.tool).map_or(call.tool.clone(), |index| names[index].clone());
        if ext.get("target").and_then(Value::as_str) == Some("functionName") {
            m.insert("functionName".into(), Value::String(name));
        } else {
            let mut operation = Map::new();
            if let Some(Value::Object(rest)) = ext.get("extensionOperation") {
                operation.extend(rest.clone());
            }
            operation.insert("operationId".into(), Value::String(name));
            m.insert("extensionOperation".into(), Value::Object(operation));
        }
        if let Some(arguments) = &call.arguments {
            let mut params = Map::new();
            for (k, matcher) in arguments {
                match matcher.as_eq() {
                    Some(v) => drop(params.insert(k.clone(), v.clone())),
                    None => out.push(Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        format!("{at}/expected/0/calls_tool/arguments/{k}"),
                        "Vertex example arguments are plain values: a matcher other than equality was left out",
                    )),
                }
            }
            if !(params.is_empty() && ext.get("noRequestParams") == Some(&Value::Bool(true))) {
                m.insert("requestParams".into(), encode(&Value::Object(params)));
            }
        }
    } else if ext.get("target").and_then(Value::as_str) != Some("none") {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected"),
            "a Vertex tool-use example names the operation it calls; this example calls none",
        ));
    }
    if let Some(Value::Object(params)) = ext.get("requestParams") {
        m.insert("requestParams".into(), encode(&Value::Object(params.clone())));
    }
    let display_name = example.name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
        out.push(Diagnostic::info(
            codes::GENERATED,
            format!("{at}/name"),
            "Vertex examples need a displayName: the prompt was used",
        ));
        example.prompt.chars().take(128).collect()
    });
    m.insert("displayName".into(), Value::String(display_name));
    m.insert("query".into(), Value::from(example.prompt.as_str()));
    if let Some(response) = &example.response {
        m.insert("responseParams".into(), encode(response));
    }
    if let Some(summary) = &example.response_summary {
        m.insert("responseSummary".into(), Value::from(summary.as_str()));
    }
    if let Some(Value::Object(rest)) = ext.get("other") {
        for (k, v) in rest {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let mut expectations = example.expected.iter().enumerate().filter(|(_, e)| !matches!(e, Expectation::CallsTool(_)));
    if let Some((j, _)) = expectations.next() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected/{j}"),
            "Vertex examples hold no checks on the response other than the call; left out",
        ));
    }
    if example.called_tools().count() > 1 {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/expected"),
            "Vertex examples name one call; the others were left out",
        ));
    }
    if !example.mocks.is_empty() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/mocks"),
            "Vertex examples have no mocked tool results; left out",
        ));
    }
    if example.used_as_example.is_some() {
        out.push(Diagnostic::loss(
            codes::LOSS_EXAMPLES,
            format!("{at}/used_as_example"),
            "Vertex has no `usedAsExample`; left out",
        ));
    }
    for key in example.extras.keys().filter(|k| k.as_str() != VX) {
        out.push(Diagnostic::loss(
            codes::LOSS_EXTRAS,
            format!("{at}/extras/{key}"),
            format!("vertex cannot hold data only {key} has"),
        ));
    }
    Value::Object(m)
}

/// `defaultParams` apply to every call: they become the default of each parameter of that
/// name that has none of its own, so targets without run-time defaults still carry them.
fn apply_runtime_defaults(set: &mut ToolSet) {
    for parameter in set.tools.iter_mut().flat_map(|t| t.parameters.iter_mut()) {
        if parameter.schema.default.is_none()
            && let Some(value) = set.runtime_defaults.get(&parameter.name)
        {
            parameter.schema.default = Some(value.clone());
        }
    }
}

/// The inverse of [`apply_runtime_defaults`] for the inline spec: a parameter default equal
/// to its `defaultParams` value is said once, in `defaultParams`.
fn without_runtime_defaults(set: &ToolSet) -> std::borrow::Cow<'_, ToolSet> {
    let repeats = |p: &toolport_plugin::Parameter| {
        p.schema.default.is_some() && p.schema.default.as_ref() == set.runtime_defaults.get(&p.name)
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

fn write_body(set: &ToolSet, options: &Options) -> Result<(Value, Vec<Diagnostic>), Vec<Diagnostic>> {
    let empty = Map::new();
    let vx = set.extras.get(VX).and_then(Value::as_object).unwrap_or(&empty);
    let auth_config = (vx.get("authConfig") == Some(&Value::Bool(true)) && !set.auth.is_empty()).then_some(0);
    let parts = VertexParts {
        auth_config,
        carried_by_body: &["id", "instructions", "timestamps", "runtime_defaults", "examples"],
        base_url: options.get("base_url"),
        fallback_title: Some(options.output_title("Extension")),
    };
    let written = write::document(&without_runtime_defaults(set), Mode::Vertex, &parts);
    let mut out = written.diagnostics;
    let yaml = toolport_plugin::yaml::to_string(&written.document)
        .map_err(|e| vec![Diagnostic::error(codes::PLUGIN_FAILED, "", format!("YAML output failed: {e}"))])?;

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

    let mut manifest = Map::new();
    let manifest_name = match (&set.id, &set.title) {
        (Some(id), _) => id.clone(),
        (None, title) => {
            let (source, origin) = match title {
                Some(title) => (title.as_str(), "the title"),
                None => (options.output_name("extension"), "the file name"),
            };
            let name = sanitize(source, &NameRules::FUNCTION);
            out.push(Diagnostic::info(
                codes::GENERATED,
                "/id",
                format!("Vertex needs `manifest.name`: `{name}` was made from {origin}"),
            ));
            name
        }
    };
    manifest.insert("name".into(), Value::String(limit(&manifest_name, "/id", "manifest.name", &mut out)));
    // Shown to the model and required: the instructions, else the best text the source has.
    let fallbacks = [(&set.description, "description"), (&set.title, "title"), (&set.id, "id")];
    let manifest_description = filled(&set.instructions).unwrap_or_else(|| {
        let found = fallbacks.iter().find_map(|(value, field)| Some((filled(value)?, *field)));
        let (text, field) = found.unwrap_or_else(|| {
            let names: Vec<&str> = written.names.iter().map(String::as_str).collect();
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
    });
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
    let chosen = match auth_config {
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
    };
    let at = format!("/auth/{}", auth_config.unwrap_or_default());
    manifest.insert("authConfig".into(), write_auth_config(chosen, &at, &mut out));
    if let Some(Value::Object(rest)) = vx.get("manifest") {
        for (k, v) in rest {
            manifest.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
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
        for (i, example) in set.examples.iter().enumerate() {
            if example_fits(example, i, set, &mut out) {
                examples.push(write_example(example, i, set, &written.names, &mut out));
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
