//! OpenAPI 3.0 / 3.1 document → canonical model: one tool per operation.
//!
//! What the model has no place for is kept in `extras["openapi"]` (see `write.rs` for how it
//! is used): leftover keys at each level, and — only where regenerating an operation from the
//! model would not give back the source exactly (`$ref`s, merged path parameters) — the
//! operation as written plus a digest of its regenerated form, so an unchanged tool is written
//! back verbatim and a changed one is regenerated.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use toolport_plugin::jsonschema::{Dialect, Reader};
use toolport_plugin::names::stable_hash;
use toolport_plugin::source::child;
use toolport_plugin::{
    Auth, AuthKind, Creator, Diagnostic, HttpBinding, Output, ParamLocation, Parameter, Schema, SchemaType, Server,
    Tool, ToolSet, Version, codes,
};

use crate::write::{self, OpWriter};
use crate::{ID, METHODS, XT};

/// Reads an OpenAPI document. `Err` when it is not an OpenAPI 3 document at all.
pub(crate) fn read_document(doc: &Value) -> Result<(ToolSet, Vec<Diagnostic>), Diagnostic> {
    // A copy only where the document needs preparing: toolport's bookkeeping put back, enums
    // listing a value twice (OpenAI's spec) listed once.
    let mut diagnostics = Vec::new();
    let mut prepared = doc.get(write::BOOKKEEPING).is_some().then(|| bookkeeping_in(doc, &mut diagnostics));
    let mut repeated = Vec::new();
    repeated_enums(prepared.as_ref().unwrap_or(doc), "", &mut repeated);
    if !repeated.is_empty() {
        let fixed = prepared.get_or_insert_with(|| doc.clone());
        for pointer in repeated {
            if let Some(Value::Array(values)) = fixed.pointer_mut(&pointer) {
                let mut seen = std::collections::HashSet::new();
                values.retain(|v| seen.insert(v.to_string()));
            }
            diagnostics.push(Diagnostic::warning(
                codes::INPUT_TOLERATED,
                pointer,
                "this enum lists a value more than once (OpenAPI needs unique values): read and written once",
            ));
        }
    }
    let (set, more) = read_plain(prepared.as_ref().unwrap_or(doc))?;
    diagnostics.extend(more);
    Ok((set, diagnostics))
}

/// Pointers of the `enum` lists in `value` that repeat a value. Values a user wrote (`x-`
/// extensions, examples, defaults) are not searched.
fn repeated_enums(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let here = child(at, key);
                match (key.as_str(), value) {
                    ("enum", Value::Array(values)) => {
                        let mut seen = std::collections::HashSet::new();
                        if values.len() > 1 && !values.iter().all(|v| seen.insert(v.to_string())) {
                            out.push(here);
                        }
                    }
                    ("example" | "examples" | "default" | "const", _) => {}
                    _ if key.starts_with("x-") => {}
                    _ => repeated_enums(value, &here, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                repeated_enums(item, &child(at, i.to_string()), out);
            }
        }
        _ => {}
    }
}

/// The document with toolport's bookkeeping section (see [`write::BOOKKEEPING`]) put back
/// where a writer took it from, so the rest of reading sees what the writer built.
fn bookkeeping_in(doc: &Value, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let mut doc = doc.clone();
    let section = doc.as_object_mut().and_then(|root| root.remove(write::BOOKKEEPING));
    let Some(Value::Object(section)) = section else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            child("", write::BOOKKEEPING),
            "toolport's bookkeeping section must be an object; ignored",
        ));
        return doc;
    };
    for (pointer, keys) in section {
        let at = child(&child("", write::BOOKKEEPING), &pointer);
        match (doc.pointer_mut(&pointer), keys) {
            (Some(Value::Object(target)), Value::Object(keys)) if keys.keys().all(|k| k.starts_with(XT)) => {
                target.extend(keys);
            }
            _ => diagnostics.push(Diagnostic::warning(
                codes::INPUT_INVALID,
                at,
                "this bookkeeping entry names no object of the document, or holds keys other than x-toolport-*; ignored",
            )),
        }
    }
    doc
}

fn read_plain(doc: &Value) -> Result<(ToolSet, Vec<Diagnostic>), Diagnostic> {
    let Some(root) = doc.as_object() else {
        return Err(Diagnostic::error(codes::INPUT_INVALID, "", "an OpenAPI document must be an object"));
    };
    if root.contains_key("swagger") {
        return Err(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            "/swagger",
            "Swagger 2.0 is not OpenAPI 3; convert it first (for example with `npx swagger2openapi in.json -o out.yaml`), then convert the result",
        ));
    }
    let version = match root.get("openapi") {
        Some(Value::String(v)) => v.clone(),
        Some(other) => other.to_string(),
        None => {
            return Err(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                "not an OpenAPI document: there is no `openapi` version key",
            ));
        }
    };
    let mut diagnostics = Vec::new();
    let dialect = if version.starts_with("3.0") {
        Dialect::OpenApi30
    } else if version.starts_with("3.1") {
        Dialect::OpenApi31
    } else if version.starts_with('3') {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            "/openapi",
            format!("OpenAPI {version} is newer than 3.1; read as 3.1"),
        ));
        Dialect::OpenApi31
    } else {
        return Err(Diagnostic::error(
            codes::INPUT_UNSUPPORTED,
            "/openapi",
            format!("OpenAPI {version} is not supported; this reader reads OpenAPI 3.0 and 3.1"),
        ));
    };

    let mut reader = Reader::new(doc, dialect);
    let mut set = ToolSet::default();
    let mut extras = Map::new();
    extras.insert("openapi".into(), Value::String(version));
    if !matches!(root.get("openapi"), Some(Value::String(_))) {
        extras.insert("openapiRaw".into(), root["openapi"].clone());
    }

    read_info(root.get("info"), &mut set, &mut extras, &mut diagnostics);
    set.servers = read_servers(root.get("servers"), "/servers", &mut diagnostics);
    // A URL YAML read as a list is written as the text it was read as (no reader takes a
    // list there), so that form is not kept.
    let list_url = root.get("servers").and_then(Value::as_array).is_some_and(|s| s.iter().any(|s| s["url"].is_array()));
    if !list_url {
        preserve(&mut extras, "servers", root.get("servers"), &write::servers_value(&set.servers));
    }

    let schemes = root.get("components").and_then(|c| c.get("securitySchemes"));
    if let Some(Value::Object(schemes)) = schemes {
        for (id, scheme) in schemes {
            let scheme = reader.follow(scheme, "").map_or(scheme, |(v, _)| v);
            set.auth.push(read_security_scheme(id, scheme));
        }
        let regenerated = write::security_schemes(&set.auth);
        preserve(&mut extras, "securitySchemes", Some(&Value::Object(schemes.clone())), &Value::Object(regenerated));
    }

    let mut document = Map::new();
    for (key, value) in root {
        match key.as_str() {
            "openapi" | "info" | "servers" | "paths" => {}
            "components" => {
                let mut components = value.as_object().cloned().unwrap_or_default();
                components.remove("securitySchemes");
                if !components.is_empty() || !value.is_object() {
                    document.insert(key.clone(), Value::Object(components));
                }
                if value.as_object().is_some_and(|c| c.contains_key("securitySchemes")) {
                    extras.insert("hasSecuritySchemes".into(), Value::Bool(true));
                }
            }
            _ if key.starts_with(XT) => {}
            _ => {
                document.insert(key.clone(), value.clone());
            }
        }
    }
    restore_set_x_toolport(root, &mut set, &mut diagnostics);

    let writer = OpWriter::for_openapi(dialect);
    let mut path_items = Map::new();
    let mut names: IndexMap<String, usize> = IndexMap::new();
    match root.get("paths") {
        Some(Value::Object(paths)) => {
            for (path, item) in paths {
                let at = child("/paths", path);
                let Some((item, _)) = reader.follow(item, &at) else {
                    diagnostics.push(Diagnostic::warning(
                        codes::INPUT_UNRESOLVED,
                        &at,
                        "this path item's `$ref` names nothing; its operations were skipped",
                    ));
                    path_items.insert(path.clone(), item.clone());
                    continue;
                };
                let Some(item) = item.as_object() else {
                    diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &at, "a path item must be an object"));
                    continue;
                };
                let mut leftovers = Map::new();
                for (key, value) in item {
                    if !METHODS.contains(&key.as_str()) || !value.is_object() {
                        leftovers.insert(key.clone(), value.clone());
                    }
                }
                let item_servers = read_servers(item.get("servers"), &child(&at, "servers"), &mut diagnostics);
                for (method, operation) in item {
                    if !METHODS.contains(&method.as_str()) {
                        continue;
                    }
                    let Some(operation) = operation.as_object() else {
                        diagnostics.push(Diagnostic::warning(
                            codes::INPUT_INVALID,
                            child(&at, method),
                            "an operation must be an object; kept as written",
                        ));
                        continue;
                    };
                    let context = OperationContext { path, method, item, item_servers: &item_servers, at: &at };
                    let (mut tool, added) = read_operation(&mut reader, &context, operation, &mut diagnostics);
                    // Tool names are unique in the model; a repeated operationId gets a suffix.
                    if let Some(&first) = names.get(&tool.name) {
                        let original = tool.name.clone();
                        let mut n = 2;
                        while names.contains_key(&format!("{original}_{n}")) {
                            n += 1;
                        }
                        tool.name = format!("{original}_{n}");
                        if let Some(http) = tool.http.as_mut() {
                            http.operation_id = Some(original.clone());
                        }
                        diagnostics.push(Diagnostic::warning(
                            codes::INPUT_INVALID,
                            child(&child(&at, method), "operationId"),
                            format!(
                                "operationId `{original}` is used by operation {} too; this one is named `{}`",
                                first + 1,
                                tool.name
                            ),
                        ));
                    }
                    names.insert(tool.name.clone(), set.tools.len());
                    // Keep the operation as written when the model alone would not give it back.
                    let (regenerated, _) = writer.operation(&tool, &tool.name, None);
                    let raw = Value::Object(with_added_parameters(operation, added));
                    if Value::Object(regenerated.clone()) != raw {
                        let ext = tool_extras(&mut tool);
                        ext.insert("raw".into(), raw);
                        ext.insert("digest".into(), Value::String(digest(&Value::Object(regenerated))));
                    }
                    set.tools.push(tool);
                }
                if !leftovers.is_empty() || !item.keys().any(|k| METHODS.contains(&k.as_str())) {
                    path_items.insert(path.clone(), Value::Object(leftovers));
                }
            }
        }
        Some(other) => diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            "/paths",
            format!("`paths` must be an object, found {other}; no operations were read"),
        )),
        None => {}
    }
    if !path_items.is_empty() {
        extras.insert("pathItems".into(), Value::Object(path_items));
    }
    if !document.is_empty() {
        extras.insert("document".into(), Value::Object(document));
    }
    set.extras.insert(ID.into(), Value::Object(extras));
    // Named schemas (`#/components/schemas/X`) were read once each, as definitions.
    set.definitions = reader.take_definitions();
    diagnostics.extend(reader.take_diagnostics());
    Ok((set, diagnostics))
}

/// The FNV-1a hash ([`stable_hash`]) of `value`'s compact JSON text, hashed as it is
/// serialized so no text (and no `Value` copy of a map) is built.
pub(crate) fn digest<T: serde::Serialize + ?Sized>(value: &T) -> String {
    struct Fnv(u64);
    impl std::io::Write for Fnv {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = bytes.iter().fold(self.0, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3));
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hasher = Fnv(stable_hash(""));
    // Writing JSON into a hasher cannot fail; a failure would only change the digest.
    let _ = serde_json::to_writer(&mut hasher, value);
    format!("{:016x}", hasher.0)
}

/// Stores `raw` under `key` when the model's regenerated form differs from it.
fn preserve(extras: &mut Map<String, Value>, key: &str, raw: Option<&Value>, regenerated: &Value) {
    let Some(raw) = raw else { return };
    if raw != regenerated {
        extras.insert(key.into(), json!({"raw": raw, "digest": digest(regenerated)}));
    }
}

pub(crate) fn tool_extras(tool: &mut Tool) -> &mut Map<String, Value> {
    object_slot(tool.extras.entry(ID.to_owned()).or_insert_with(|| Value::Object(Map::new())))
}

pub(crate) fn object_slot(slot: &mut Value) -> &mut Map<String, Value> {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("an object")
}

fn read_info(
    info: Option<&Value>,
    set: &mut ToolSet,
    extras: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(info) = info.and_then(Value::as_object) else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, "/info", "the document has no `info` object"));
        return;
    };
    let mut leftovers = Map::new();
    for (key, value) in info {
        match (key.as_str(), value) {
            ("title", Value::String(s)) => set.title = Some(s.clone()),
            ("description", Value::String(s)) => set.description = Some(s.clone()),
            ("version", Value::String(s)) => set.version = Some(Version::Text(s.clone())),
            ("contact", Value::Object(contact)) => {
                let text = |k: &str| contact.get(k).and_then(Value::as_str).map(str::to_owned);
                let organization = text("x-toolport-organization");
                set.creator =
                    Some(Creator { name: text("name"), email: text("email"), url: text("url"), organization });
                let others: Map<String, Value> = contact
                    .iter()
                    .filter(|(k, v)| {
                        !matches!(k.as_str(), "name" | "email" | "url" | "x-toolport-organization") || !v.is_string()
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if !others.is_empty() {
                    leftovers.insert("x-toolport-contact".into(), Value::Object(others));
                }
            }
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    if !leftovers.is_empty() {
        extras.insert("info".into(), Value::Object(leftovers));
    }
}

pub(crate) fn read_servers(value: Option<&Value>, at: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Server> {
    let Some(value) = value else { return Vec::new() };
    let Some(servers) = value.as_array() else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, at, "`servers` must be an array; ignored"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        let at = child(at, i.to_string());
        let url = match server.get("url") {
            Some(Value::String(url)) => url.clone(),
            // `url: [API_SERVICE_URL]` (a placeholder YAML reads as a list) is meant as text.
            Some(Value::Array(parts)) if parts.len() == 1 && parts[0].is_string() => {
                let url = format!("[{}]", parts[0].as_str().unwrap_or_default());
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_TOLERATED,
                    child(&at, "url"),
                    format!("the server URL is a YAML list (write it quoted); read as the text `{url}`"),
                ));
                url
            }
            _ => {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_INVALID,
                    &at,
                    "a server needs a `url` string; skipped",
                ));
                continue;
            }
        };
        let description = server.get("description").and_then(Value::as_str).map(str::to_owned);
        let variables = server
            .get("variables")
            .and_then(Value::as_object)
            .map(|v| v.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        out.push(Server { url, description, variables });
    }
    out
}

fn read_security_scheme(id: &str, scheme: &Value) -> Auth {
    let mut auth = Auth { id: Some(id.to_owned()), ..Auth::default() };
    let Some(map) = scheme.as_object() else {
        auth.settings.insert("x-toolport-raw".into(), scheme.clone());
        return auth;
    };
    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
    let http_scheme = map.get("scheme").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
    // A bearer token a toolport writer wrote for an auth kind OpenAPI could not state.
    let marked = map
        .get(write::AUTH_MARK)
        .and_then(|k| serde_json::from_value::<AuthKind>(k.clone()).ok())
        .filter(|_| kind == "http" && http_scheme == "bearer");
    auth.kind = match (kind, http_scheme.as_str()) {
        _ if let Some(marked) = marked => marked,
        ("apiKey", _) => AuthKind::ApiKey,
        ("http", "basic") => AuthKind::HttpBasic,
        ("http", "bearer") => AuthKind::HttpBearer,
        ("oauth2", _) => AuthKind::OAuth,
        ("openIdConnect", _) => AuthKind::Oidc,
        _ => AuthKind::None,
    };
    for (key, value) in map {
        match (key.as_str(), value) {
            ("type", _) if auth.kind != AuthKind::None => {}
            ("scheme", Value::String(s))
                if (marked.is_some() || matches!(auth.kind, AuthKind::HttpBasic | AuthKind::HttpBearer))
                    && s == &http_scheme => {}
            (write::AUTH_MARK, _) if marked.is_some() => {}
            ("description", Value::String(s)) => auth.description = Some(s.clone()),
            ("name", Value::String(s)) if auth.kind == AuthKind::ApiKey => auth.parameter_name = Some(s.clone()),
            ("in", Value::String(s)) if auth.kind == AuthKind::ApiKey && location(s).is_some() => {
                auth.location = location(s)
            }
            _ => {
                auth.settings.insert(key.clone(), value.clone());
            }
        }
    }
    auth
}

pub(crate) fn location(text: &str) -> Option<ParamLocation> {
    Some(match text {
        "path" => ParamLocation::Path,
        "query" => ParamLocation::Query,
        "header" => ParamLocation::Header,
        "cookie" => ParamLocation::Cookie,
        "body" => ParamLocation::Body,
        _ => return None,
    })
}

/// Side-effect hints that follow from the HTTP method alone.
pub(crate) fn method_hints(method: &str) -> toolport_plugin::Hints {
    let mut hints = toolport_plugin::Hints::default();
    match method {
        "GET" | "HEAD" => hints.read_only = Some(true),
        "DELETE" => hints.destructive = Some(true),
        _ => {}
    }
    hints
}

struct OperationContext<'a> {
    path: &'a str,
    method: &'a str,
    item: &'a Map<String, Value>,
    item_servers: &'a [Server],
    at: &'a str,
}

fn read_operation(
    reader: &mut Reader,
    cx: &OperationContext,
    operation: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Tool, Vec<Value>) {
    let at = child(cx.at, cx.method);
    let method = cx.method.to_ascii_uppercase();
    let mut leftovers = Map::new();
    let mut ext = Map::new();
    let name = match operation.get("operationId") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => {
            let name = format!("{method} {}", cx.path);
            diagnostics.push(Diagnostic::info(
                codes::INPUT_TOLERATED,
                &at,
                format!("operation without an operationId: named `{name}` from its method and path"),
            ));
            ext.insert("noOperationId".into(), Value::Bool(true));
            name
        }
    };
    let mut tool = Tool::new(name);
    tool.hints = method_hints(&method);
    let mut http = HttpBinding { method: method.clone(), path: cx.path.to_owned(), ..HttpBinding::default() };

    for (key, value) in operation {
        match (key.as_str(), value) {
            ("operationId", Value::String(id)) if !id.is_empty() => {}
            ("summary", Value::String(s)) => tool.title = Some(s.clone()),
            ("description", Value::String(s)) => tool.description = Some(s.clone()),
            ("parameters" | "requestBody" | "responses", _) => {}
            ("servers", _) => {}
            _ if key.starts_with(XT) => {}
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    // A model reads the tool's description: an operation with only a `summary` (the petstore,
    // OpenAI's own spec) or a blank `description` (116 of GitHub's) gets the summary as its
    // description. The record says where it came from (`true`, or the blank text), so the
    // writer gives back what the source said (see `OpWriter::operation`).
    if tool.description.as_deref().is_none_or(|d| d.trim().is_empty())
        && let Some(summary) = tool.title.as_ref().filter(|s| !s.trim().is_empty())
    {
        let record = tool.description.take().map_or(Value::Bool(true), Value::String);
        tool.description = Some(summary.clone());
        ext.insert("descriptionFromSummary".into(), record);
    }
    if operation.contains_key("servers") {
        ext.insert("ownServers".into(), Value::Bool(true));
    }
    http.servers = match operation.get("servers") {
        Some(servers) => read_servers(Some(servers), &child(&at, "servers"), diagnostics),
        None => cx.item_servers.to_vec(),
    };

    // Parameters: path-item level first, an operation-level one with the same name and
    // location replacing it in place; then the other operation-level ones.
    let mut merged: Vec<(&Value, String)> = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let levels = [
        (cx.item.get("parameters"), child(cx.at, "parameters")),
        (operation.get("parameters"), child(&at, "parameters")),
    ];
    for (list, list_at) in levels {
        let Some(list) = list else { continue };
        let Some(list) = list.as_array() else {
            diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, &list_at, "`parameters` must be an array"));
            continue;
        };
        for (i, raw) in list.iter().enumerate() {
            let p_at = child(&list_at, i.to_string());
            let Some((param, target_at)) = reader.follow(raw, &p_at) else {
                diagnostics.push(Diagnostic::warning(
                    codes::INPUT_UNRESOLVED,
                    &p_at,
                    "this parameter's `$ref` names nothing; skipped",
                ));
                continue;
            };
            let key = (
                param.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                param.get("in").and_then(Value::as_str).unwrap_or_default().to_owned(),
            );
            match keys.iter().position(|k| *k == key) {
                Some(index) => merged[index] = (param, target_at),
                None => {
                    keys.push(key);
                    merged.push((param, target_at));
                }
            }
        }
    }
    for (param, p_at) in merged {
        if let Some(parameter) = read_parameter(reader, param, &p_at, &tool, diagnostics) {
            tool.parameters.push(parameter);
        }
    }
    // A placeholder of the path that this operation declares no parameter for (OpenAI's spec
    // declares `user_id` on GET /organization/users/{user_id} but not on its POST): no valid
    // call exists without it. It is read as the declaration a sibling operation of the path
    // makes, else as a required string, and added to the operation as written.
    let declared: Vec<&str> = keys.iter().filter(|(_, place)| place == "path").map(|(n, _)| n.as_str()).collect();
    let mut added = Vec::new();
    for placeholder in placeholders(cx.path).filter(|p| !declared.contains(p)) {
        let same = |raw: &&Value| {
            reader.follow(raw, "").is_some_and(|(p, _)| {
                p.get("name").and_then(Value::as_str) == Some(placeholder)
                    && p.get("in").and_then(Value::as_str) == Some("path")
            })
        };
        let sibling = cx
            .item
            .iter()
            .filter(|(method, _)| METHODS.contains(&method.as_str()))
            .filter_map(|(_, op)| op.get("parameters").and_then(Value::as_array))
            .flatten()
            .find(same);
        let generated = json!({"name": placeholder, "in": "path", "required": true, "schema": {"type": "string"}});
        let declaration = sibling.cloned().unwrap_or(generated);
        let resolved = match sibling.and_then(|raw| reader.follow(raw, "")) {
            Some((value, _)) => value.clone(),
            None => declaration.clone(),
        };
        let p_at = child(&at, "parameters");
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_TOLERATED,
            &p_at,
            format!(
                "the path has a `{{{placeholder}}}` placeholder this operation declares no parameter for; {}",
                if sibling.is_some() {
                    "read as another operation of the path declares it, and written with the operation"
                } else {
                    "read as a required string, and written with the operation"
                }
            ),
        ));
        if let Some(parameter) = read_parameter(reader, &resolved, &p_at, &tool, diagnostics) {
            tool.parameters.push(parameter);
            added.push(declaration);
        }
    }

    if let Some(body) = operation.get("requestBody") {
        read_request_body(reader, body, &child(&at, "requestBody"), &mut tool, &mut http, &mut ext, diagnostics);
    }
    if let Some(responses) = operation.get("responses") {
        read_responses(reader, responses, &child(&at, "responses"), &mut tool, &mut ext);
    }
    if !leftovers.is_empty() {
        ext.insert("operation".into(), Value::Object(leftovers));
    }
    tool.http = Some(http);
    if !ext.is_empty() {
        tool.extras.insert(ID.into(), Value::Object(ext));
    }
    restore_tool_x_toolport(operation, &mut tool, &at, diagnostics);
    (tool, added)
}

/// The `{name}` placeholders of a path template.
fn placeholders(path: &str) -> impl Iterator<Item = &str> {
    path.split('{').skip(1).filter_map(|rest| rest.split_once('}')).map(|(name, _)| name).filter(|n| !n.is_empty())
}

/// The operation as written, with the path parameters the reader added (see `read_operation`)
/// in its `parameters`, placed before the request body and responses.
fn with_added_parameters(operation: &Map<String, Value>, added: Vec<Value>) -> Map<String, Value> {
    let mut out = operation.clone();
    if added.is_empty() {
        return out;
    }
    match out.get_mut("parameters") {
        Some(Value::Array(list)) => list.extend(added),
        _ => {
            let mut ordered = Map::new();
            let mut added = Some(added);
            for (key, value) in out {
                if matches!(key.as_str(), "requestBody" | "responses" | "callbacks")
                    && let Some(list) = added.take()
                {
                    ordered.insert("parameters".into(), Value::Array(list));
                }
                ordered.insert(key, value);
            }
            if let Some(list) = added {
                ordered.insert("parameters".into(), Value::Array(list));
            }
            out = ordered;
        }
    }
    out
}

fn read_parameter(
    reader: &mut Reader,
    param: &Value,
    at: &str,
    tool: &Tool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Parameter> {
    let Some(map) = param.as_object() else {
        diagnostics.push(Diagnostic::warning(codes::INPUT_INVALID, at, "a parameter must be an object; skipped"));
        return None;
    };
    let name = map.get("name").and_then(Value::as_str);
    let place = map.get("in").and_then(Value::as_str).and_then(location).filter(|l| *l != ParamLocation::Body);
    let (Some(name), Some(place)) = (name, place) else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            at,
            "a parameter needs a `name` and an `in` of path, query, header or cookie; skipped",
        ));
        return None;
    };
    let mut ext = Map::new();
    let mut schema = match (map.get("schema"), map.get("content")) {
        (Some(schema), _) => reader.read(schema, &child(at, "schema")),
        (None, Some(Value::Object(content))) => match content.iter().next() {
            Some((media_type, media)) => {
                ext.insert("content".into(), Value::String(media_type.clone()));
                match media.get("schema") {
                    Some(schema) => reader.read(schema, &pointer_join(at, &["content", media_type, "schema"])),
                    None => Schema::default(),
                }
            }
            None => Schema::default(),
        },
        _ => Schema::default(),
    };
    match (map.get("description").and_then(Value::as_str), schema.description.take()) {
        (Some(text), own) => {
            if let Some(own) = own {
                ext.insert("schemaDescription".into(), Value::String(own));
            }
            schema.description = Some(text.to_owned());
        }
        (None, Some(own)) => {
            ext.insert("descriptionOnSchema".into(), Value::Bool(true));
            schema.description = Some(own);
        }
        (None, None) => {}
    }
    let mut leftovers = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "name" | "in" | "schema" | "description" => {}
            "required" if value.is_boolean() => {}
            "content" if ext.contains_key("content") => {
                // Everything of the media type but its schema.
                if let Some((_, media)) = value.as_object().and_then(|c| c.iter().next()) {
                    let mut media = media.as_object().cloned().unwrap_or_default();
                    media.remove("schema");
                    if !media.is_empty() {
                        ext.insert("media".into(), Value::Object(media));
                    }
                }
            }
            _ if key.starts_with(XT) => {}
            _ => {
                leftovers.insert(key.clone(), value.clone());
            }
        }
    }
    if !leftovers.is_empty() {
        ext.insert("param".into(), Value::Object(leftovers));
    }
    let required = map.get("required").and_then(Value::as_bool);
    if required == Some(false) {
        ext.insert("requiredFalse".into(), Value::Bool(true));
    }
    let mut parameter = Parameter::new(name, schema);
    parameter.required = required.unwrap_or(false);
    parameter.location = Some(place);
    // Names are unique within a tool; `id` in both path and query keeps the first as is.
    if tool.parameter(name).is_some() {
        parameter.name = format!("{name}_{}", place.as_str());
        ext.insert("name".into(), Value::String(name.to_owned()));
        diagnostics.push(Diagnostic::info(
            codes::INPUT_TOLERATED,
            at,
            format!(
                "a second parameter named `{name}` (in {}) is called `{}` in the model",
                place.as_str(),
                parameter.name
            ),
        ));
    }
    if !ext.is_empty() {
        parameter.extras.insert(ID.into(), Value::Object(ext));
    }
    restore_param_x_toolport(map, &mut parameter);
    Some(parameter)
}

fn pointer_join(base: &str, segments: &[&str]) -> String {
    segments.iter().fold(base.to_owned(), |at, s| child(&at, s))
}

/// The media type to model: JSON when offered, else the first.
fn pick_media(content: &Map<String, Value>) -> Option<(&String, &Value)> {
    content
        .iter()
        .find(|(k, _)| k.as_str() == "application/json")
        .or_else(|| content.iter().find(|(k, _)| k.contains("json")))
        .or_else(|| content.iter().next())
}

fn read_request_body(
    reader: &mut Reader,
    body: &Value,
    at: &str,
    tool: &mut Tool,
    http: &mut HttpBinding,
    ext: &mut Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some((body, body_at)) = reader.follow(body, at) else {
        diagnostics.push(Diagnostic::warning(
            codes::INPUT_UNRESOLVED,
            at,
            "the request body's `$ref` names nothing; skipped",
        ));
        return;
    };
    let Some(map) = body.as_object() else { return };
    let required = map.get("required").and_then(Value::as_bool).unwrap_or(false);
    let mut request = Map::new();
    for (key, value) in map {
        if key != "content" && !key.starts_with(XT) {
            request.insert(key.clone(), value.clone());
        }
    }
    let content = map.get("content").and_then(Value::as_object);
    let Some((media_type, media)) = content.and_then(pick_media) else {
        ext.insert("body".into(), json!({"request": request}));
        return;
    };
    http.body_content_type = Some(media_type.clone());
    let mut others = content.cloned().unwrap_or_default();
    others.remove(media_type);
    if !others.is_empty() {
        request.insert("content".into(), Value::Object(others));
    }
    let mut media_rest = media.as_object().cloned().unwrap_or_default();
    media_rest.remove("schema");
    let mut body_ext = Map::new();
    if !media_rest.is_empty() {
        body_ext.insert("media".into(), Value::Object(media_rest));
    }
    let schema = match media.get("schema") {
        Some(schema) => reader.read(schema, &pointer_join(&body_at, &["content", media_type, "schema"])),
        None => {
            body_ext.insert("noSchema".into(), Value::Bool(true));
            Schema::default()
        }
    };
    let flatten = !schema.properties.is_empty()
        && matches!(schema.kind, None | Some(SchemaType::Object))
        && schema.any_of.is_empty()
        && !schema.nullable;
    if flatten {
        let mut rest = schema;
        for property in std::mem::take(&mut rest.properties) {
            let mut parameter = Parameter::new(property.name.clone(), property.schema);
            parameter.required = property.required;
            parameter.location = Some(ParamLocation::Body);
            if tool.parameter(&property.name).is_some() {
                parameter.name = format!("body_{}", property.name);
                parameter.extras.insert(ID.into(), json!({"name": property.name}));
                diagnostics.push(Diagnostic::info(
                    codes::INPUT_TOLERATED,
                    at,
                    format!(
                        "body property `{}` is called `{}` in the model: a parameter has its name",
                        property.name, parameter.name
                    ),
                ));
            }
            tool.parameters.push(parameter);
        }
        body_ext.insert("schema".into(), serde_json::to_value(&rest).unwrap_or_default());
    } else {
        let mut name = "body".to_owned();
        while tool.parameter(&name).is_some() {
            name.insert_str(0, "request_");
        }
        let mut parameter = Parameter::new(name.clone(), schema);
        parameter.required = required;
        parameter.location = Some(ParamLocation::Body);
        tool.parameters.push(parameter);
        http.body_parameter = Some(name);
    }
    body_ext.insert("request".into(), Value::Object(request));
    ext.insert("body".into(), Value::Object(body_ext));
}

fn read_responses(reader: &mut Reader, responses: &Value, at: &str, tool: &mut Tool, ext: &mut Map<String, Value>) {
    let Some(map) = responses.as_object() else {
        ext.insert("responses".into(), json!({"raw": responses}));
        return;
    };
    let status =
        map.keys().find(|k| k.starts_with('2')).or_else(|| map.keys().find(|k| k.as_str() == "default")).cloned();
    let mut record = Map::new();
    let mut others = map.clone();
    if let Some(status) = status {
        let raw = others.remove(&status).unwrap_or_default();
        record.insert("status".into(), Value::String(status.clone()));
        let r_at = child(at, &status);
        match reader.follow(&raw, &r_at) {
            Some((response, response_at)) if response.is_object() && raw.get("$ref").is_none() => {
                let mut output = Output {
                    description: response.get("description").and_then(Value::as_str).map(str::to_owned),
                    ..Output::default()
                };
                let mut rest = response.as_object().cloned().unwrap_or_default();
                rest.remove("description");
                if let Some(content) = rest.remove("content") {
                    match content.as_object().and_then(pick_media) {
                        Some((media_type, media)) => {
                            output.content_type = Some(media_type.clone());
                            if let Some(schema) = media.get("schema") {
                                let s_at = pointer_join(&response_at, &["content", media_type, "schema"]);
                                output.schema = Some(reader.read(schema, &s_at));
                            }
                            let mut media_rest = media.as_object().cloned().unwrap_or_default();
                            media_rest.remove("schema");
                            if !media_rest.is_empty() {
                                record.insert("media".into(), Value::Object(media_rest));
                            }
                            let mut other_media = content.as_object().cloned().unwrap_or_default();
                            other_media.remove(media_type);
                            if !other_media.is_empty() {
                                record.insert("content".into(), Value::Object(other_media));
                            }
                        }
                        None => drop(record.insert("emptyContent".into(), content)),
                    }
                }
                if !rest.is_empty() {
                    record.insert("response".into(), Value::Object(rest));
                }
                if output.description.is_none() {
                    record.insert("noDescription".into(), Value::Bool(true));
                }
                tool.output = Some(output);
            }
            Some((response, response_at)) => {
                // A `$ref`'d response: modelled for other formats, kept as written for OpenAPI.
                record.insert("ref".into(), raw.clone());
                let description = response.get("description").and_then(Value::as_str).map(str::to_owned);
                let mut output = Output { description, ..Output::default() };
                if let Some((media_type, media)) =
                    response.get("content").and_then(Value::as_object).and_then(pick_media)
                {
                    output.content_type = Some(media_type.clone());
                    if let Some(schema) = media.get("schema") {
                        output.schema =
                            Some(reader.read(schema, &pointer_join(&response_at, &["content", media_type, "schema"])));
                    }
                }
                tool.output = Some(output);
            }
            None => drop(record.insert("ref".into(), raw.clone())),
        }
    }
    if !others.is_empty() {
        record.insert("others".into(), Value::Object(others));
    }
    ext.insert("responses".into(), Value::Object(record));
}

/// Model fields a previous toolport writer kept in `x-toolport-*` keys of the document.
fn restore_set_x_toolport(root: &Map<String, Value>, set: &mut ToolSet, diagnostics: &mut Vec<Diagnostic>) {
    let mut found = Map::new();
    for (key, value) in root {
        if let Some(field) = key.strip_prefix(XT) {
            found.insert(field.replace('-', "_"), value.clone());
        }
    }
    if found.is_empty() {
        return;
    }
    let Ok(Value::Object(mut current)) = serde_json::to_value(&*set) else { return };
    for (field, value) in found {
        if field == "extras" {
            let extras = object_slot(current.entry("extras").or_insert_with(|| json!({})));
            for (k, v) in value.as_object().into_iter().flatten() {
                extras.entry(k.clone()).or_insert_with(|| v.clone());
            }
        } else {
            current.insert(field, value);
        }
    }
    match serde_json::from_value::<ToolSet>(Value::Object(current)) {
        Ok(restored) => *set = restored,
        Err(e) => diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            "",
            format!("the document's x-toolport-* keys do not describe model fields ({e}); ignored"),
        )),
    }
}

fn restore_tool_x_toolport(
    operation: &Map<String, Value>,
    tool: &mut Tool,
    at: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut found = Map::new();
    for (key, value) in operation {
        if let Some(field) = key.strip_prefix(XT) {
            found.insert(field.replace('-', "_"), value.clone());
        }
    }
    if found.is_empty() {
        return;
    }
    let Ok(Value::Object(mut current)) = serde_json::to_value(&*tool) else { return };
    for (field, value) in found.clone() {
        match field.as_str() {
            "original_name" => {
                if let (Some(http), Some(id)) =
                    (tool.http.as_mut(), operation.get("operationId").and_then(Value::as_str))
                {
                    http.operation_id = Some(id.to_owned());
                }
                current.insert("name".into(), value);
            }
            "extras" => {
                let extras = object_slot(current.entry("extras").or_insert_with(|| json!({})));
                for (k, v) in value.as_object().into_iter().flatten() {
                    extras.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            // Vertex parameter names that were changed: written name → original.
            "parameter_names" => {
                if let Some(Value::Array(parameters)) = current.get_mut("parameters") {
                    for parameter in parameters {
                        let written = parameter.get("name").and_then(Value::as_str).unwrap_or_default();
                        if let Some(original) = value.get(written).cloned() {
                            parameter["name"] = original;
                        }
                    }
                }
            }
            _ => drop(current.insert(field, value)),
        }
    }
    if let Some(mut http) = tool.http.clone() {
        // Placeholders were renamed with their parameters.
        for (written, original) in found.get("parameter_names").and_then(Value::as_object).into_iter().flatten() {
            if let Some(original) = original.as_str() {
                http.path = http.path.replace(&format!("{{{written}}}"), &format!("{{{original}}}"));
            }
        }
        current.insert("http".into(), serde_json::to_value(http).unwrap_or_default());
    }
    match serde_json::from_value::<Tool>(Value::Object(current)) {
        Ok(restored) => *tool = restored,
        Err(e) => diagnostics.push(Diagnostic::warning(
            codes::INPUT_INVALID,
            at,
            format!("the operation's x-toolport-* keys do not describe model fields ({e}); ignored"),
        )),
    }
}

fn restore_param_x_toolport(map: &Map<String, Value>, parameter: &mut Parameter) {
    if let Some(Value::String(original)) = map.get("x-toolport-original-name") {
        parameter.name = original.clone();
    }
    if let Some(Value::Object(extras)) = map.get("x-toolport-extras") {
        for (k, v) in extras {
            parameter.extras.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}
