//! The tools → `paths`: per tool the name it is written under, its path and method, and its
//! operation — as the source wrote it when the tool did not change, else regenerated.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use toolport_plugin::function_tools::names::name_map;
use toolport_plugin::jsonschema::Dialect;
use toolport_plugin::names::{NameMap, NameRules};
use toolport_plugin::{Diagnostic, Parameter, Tool, ToolSet, codes};

use super::operation::OpWriter;
use super::schema::ValueSets;
use super::vertex_subset::{VertexCleanliness, source_components};
use super::{Mode, dialect_is_30};
use crate::{ID, verbatim};

/// The document's `paths`, and per tool the name it was written under. `ext` is the set's
/// `extras["openapi"]`; `dialect` is the target's schema dialect.
pub(super) fn write_paths(
    set: &ToolSet,
    mode: Mode,
    dialect: Dialect,
    ext: &Map<String, Value>,
    value_sets: ValueSets,
    out: &mut Vec<Diagnostic>,
) -> (Map<String, Value>, Vec<String>) {
    let empty = Map::new();
    let source_version = ext.get("openapi").and_then(Value::as_str);
    let describe_summaries = mode == Mode::Vertex && !set.extras.contains_key("vertex");
    let source_dialect = match source_version {
        Some(v) if !v.starts_with("3.0") => Dialect::OpenApi31,
        _ => Dialect::OpenApi30,
    };
    let chooser = Chooser {
        mode,
        source_version,
        describe_summaries,
        path_items: ext.get("pathItems").and_then(Value::as_object).unwrap_or(&empty),
        source_writer: OpWriter {
            mode: Mode::OpenApi,
            dialect: source_dialect,
            value_sets: Some(value_sets),
            describe_summaries: false,
        },
        cleanliness: RefCell::new(VertexCleanliness::new(source_components(set))),
    };
    let writer = OpWriter { mode, dialect, value_sets: Some(value_sets), describe_summaries };
    let mut function_names = name_map(NameRules::FUNCTION);
    if mode == Mode::Vertex {
        // Valid names are kept first: on a collision the newcomer is renamed, never a valid name.
        function_names.assign_all(set.tools.iter().map(|t| t.name.as_str()));
    }
    let mut path_names = name_map(NameRules::FUNCTION);
    let mut names = Vec::with_capacity(set.tools.len());
    // At most a path a tool (besides the source's unused ones, added below): a map grown by
    // inserting keeps up to twice the room it needs, the whole document's length.
    let mut paths: Map<String, Value> = Map::with_capacity(set.tools.len());
    let mut taken: HashSet<(String, String)> = HashSet::new();
    let mut synthesized = 0usize;
    for (i, tool) in set.tools.iter().enumerate() {
        let name = match mode {
            Mode::OpenApi => tool.name.clone(),
            Mode::Vertex => vertex_function_name(tool, i, &mut function_names, out),
        };
        let (method, mut path) = match &tool.http {
            Some(http) => (http.method.to_ascii_lowercase(), http.path.clone()),
            None => {
                synthesized += 1;
                ("post".to_owned(), format!("/{}", path_names.assign(&name)))
            }
        };
        if !taken.insert((path.clone(), method.clone())) {
            let alternative = format!("/{}", path_names.assign(&name));
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                format!("/tools/{i}/http/path"),
                format!(
                    "another tool is already {} {path}: this one is written at {alternative}",
                    method.to_ascii_uppercase()
                ),
            ));
            path = alternative;
            taken.insert((path.clone(), method.clone()));
        }
        let (regenerated, diagnostics) = writer.operation(tool, &name, Some(i));
        rename_placeholders(&mut path, &regenerated, tool);
        let operation = chooser.operation(tool, &name, i, regenerated, diagnostics, out);
        let item = paths.entry(path.clone()).or_insert_with(|| chooser.path_item(tool, &path, out));
        if let Some(item) = item.as_object_mut() {
            item.insert(method, operation);
        }
        names.push(name);
    }
    // The source paths tools use, gathered once (not a scan of the tools per path item).
    let used: HashSet<&str> = set.tools.iter().filter_map(|t| t.http.as_ref()).map(|h| h.path.as_str()).collect();
    for (path, item) in chooser.path_items {
        if !paths.contains_key(path) && !used.contains(path.as_str()) {
            paths.insert(path.clone(), item.clone());
        }
    }
    if synthesized > 0 {
        out.push(Diagnostic::info(
            codes::GENERATED,
            "/tools",
            format!(
                "{synthesized} tool(s) had no HTTP binding: each was written as POST /<name> with a JSON body of its parameters"
            ),
        ));
    }
    (paths, names)
}

/// The `i`th tool's name under Vertex's rules for function names, a change said.
fn vertex_function_name(tool: &Tool, i: usize, function_names: &mut NameMap, out: &mut Vec<Diagnostic>) -> String {
    let assigned = function_names.assign(&tool.name);
    if assigned != tool.name {
        out.push(
            Diagnostic::warning(
                codes::CHANGED_NAME,
                format!("/tools/{i}/name"),
                format!(
                    "Vertex function names must match {}: `{}` is written `{assigned}`",
                    NameRules::FUNCTION.pattern,
                    tool.name
                ),
            )
            .renaming(&tool.name, &assigned, None),
        );
    }
    assigned
}

/// Parameters Vertex renamed (the operation's `x-toolport-parameter-names`): the path's
/// placeholders follow.
fn rename_placeholders(path: &mut String, operation: &Map<String, Value>, tool: &Tool) {
    let Some(Value::Object(renamed)) = operation.get("x-toolport-parameter-names") else { return };
    // By name, the first parameter of a name (as `Tool::parameter`), looked up per rename.
    let mut by_name: HashMap<&str, &Parameter> = HashMap::with_capacity(tool.parameters.len());
    for parameter in &tool.parameters {
        by_name.entry(parameter.name.as_str()).or_insert(parameter);
    }
    for (written, original) in renamed {
        let original = by_name
            .get(original.as_str().unwrap_or_default())
            .map_or("", |p| p.extras.get(ID).and_then(|e| e.get("name")).and_then(Value::as_str).unwrap_or(&p.name));
        *path = path.replace(&format!("{{{original}}}"), &format!("{{{written}}}"));
    }
}

/// Chooses between an operation as the source wrote it and as regenerated, and writes path
/// items, for one document.
struct Chooser<'a> {
    mode: Mode,
    source_version: Option<&'a str>,
    describe_summaries: bool,
    /// The source's path items, without their operations (`extras.openapi.pathItems`).
    path_items: &'a Map<String, Value>,
    /// Regenerates an operation as the OpenAPI reader did, for a Vertex spec from OpenAPI.
    source_writer: OpWriter<'a>,
    /// Whether an operation as written, and what its `$ref`s name in the source's components
    /// ([`source_components`]), stay inside what Vertex accepts; what a reference leads to is
    /// looked at once for all the operations.
    cleanliness: RefCell<VertexCleanliness<'a>>,
}

impl<'a> Chooser<'a> {
    /// The operation to write for the `i`th tool: as the source wrote it when the tool did not
    /// change (and, for Vertex, it follows Vertex's rules), else `regenerated`, whose
    /// `diagnostics` are then reported.
    fn operation(
        &self,
        tool: &'a Tool,
        name: &str,
        i: usize,
        regenerated: Map<String, Value>,
        diagnostics: Vec<Diagnostic>,
        out: &mut Vec<Diagnostic>,
    ) -> Value {
        let tool_ext = tool.extras.get(ID);
        match self.mode {
            Mode::OpenApi if let Some(raw) = verbatim::unchanged(tool_ext, || &regenerated) => raw.clone(),
            Mode::Vertex
                if name == tool.name
                    && dialect_is_30(self.source_version)
                    && !(self.describe_summaries && tool_ext.is_some_and(|e| e.get("descriptionFromSummary").is_some()))
                    && diagnostics.is_empty()
                    // Path-level parameters are left out of Vertex's path items (below), and an
                    // operation as written does not have them.
                    && tool.http.as_ref().and_then(|h| self.path_items.get(&h.path)).is_none_or(|item| item.get("parameters").is_none())
                    && let Some(raw) = verbatim::unchanged(tool_ext, || self.source_writer.operation(tool, name, Some(i)).0)
                    && raw.as_object().is_some_and(|raw| self.cleanliness.borrow_mut().operation_is_clean(raw)) =>
            {
                raw.clone()
            }
            _ => {
                out.extend(diagnostics);
                Value::Object(regenerated)
            }
        }
    }

    /// A new path item at `path` for `tool`'s operation: the source's keys other than
    /// operations (for Vertex without its parameters and servers).
    fn path_item(&self, tool: &Tool, path: &str, out: &mut Vec<Diagnostic>) -> Value {
        let source_path = tool.http.as_ref().map_or(path, |h| h.path.as_str());
        // Most path items hold one operation: no room made for more (a list of 100,000 tools).
        let mut item = self
            .path_items
            .get(source_path)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_else(|| Map::with_capacity(1));
        if self.mode == Mode::Vertex {
            // Path-level parameters are merged into every operation already.
            item.remove("parameters");
        }
        if self.mode == Mode::Vertex && item.remove("servers").is_some() {
            out.push(Diagnostic::warning(
                codes::CHANGED_VALUE,
                format!("/extras/openapi/pathItems/{}", path.replace('~', "~0").replace('/', "~1")),
                "Vertex takes one server for the whole API: the path's own servers were left out",
            ));
        }
        Value::Object(item)
    }
}
