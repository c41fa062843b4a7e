//! Writing an action group's function details from the model, mirroring `read.rs`: each tool a
//! function of flat parameters, in the request (or the function schema) the source had, else in
//! a new `CreateAgentActionGroup` request. What a flat parameter cannot hold is reported by
//! `loss::uncarried`; what the writer changes to fit (types, names, lengths) it says itself.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use toolport_plugin::fit::cut_and_say;
use toolport_plugin::function_tools::common::extras_object;
use toolport_plugin::function_tools::descriptions::{Need, descriptions};
use toolport_plugin::function_tools::names::ascii;
use toolport_plugin::function_tools::write::{give_back_kept, wrapped};
use toolport_plugin::loss::{Carried, uncarried};
use toolport_plugin::names::{MadeFrom, sanitize, stable_hash, tool_set_name};
use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Options, Parameter, SchemaType, Tool, ToolSet, codes, definitions};

use super::{
    ACTION_GROUP_DESCRIPTION_MAX, AGENT_ID, AGENT_ID_OPTION, FUNCTION_DESCRIPTION_MAX, LAMBDA_OPTION, NAME_RULES,
    PARAMETER_DESCRIPTION_MAX, PARAMETER_TYPES, is_name,
};

/// The model fields a function of flat parameters holds; everything else is reported lost. A
/// parameter's schema keeps its type and description only: nested schemas (`items`,
/// `properties`), enums, formats, defaults and bounds have no place.
const CARRIED: Carried = Carried {
    tool_set: &["id", "description"],
    tool: &["description", "confirmation"],
    parameter: &["required"],
    schema: &["type", "description"],
    example: &[],
};

/// The agent id written when the options name none: it matches `[0-9a-zA-Z]{10}`, so the
/// request is well-formed, and says what to do with it.
pub const AGENT_ID_PLACEHOLDER: &str = "REPLACEME0";
/// The only agent version an action group is created in.
const DRAFT: &str = "DRAFT";

/// What the options say about a new request.
#[derive(Debug, Default)]
pub struct Settings {
    agent_id: Option<String>,
    lambda_arn: Option<String>,
    /// What an action group is named after when the tool set has no id or title.
    output_name: String,
}

impl Settings {
    /// The settings `options` give; an agent id or Lambda ARN Bedrock would refuse is an error.
    pub fn from_options(options: &Options) -> Result<Settings, Diagnostic> {
        let agent_id = options.get(AGENT_ID_OPTION).map(str::to_owned);
        if let Some(id) = &agent_id
            && !(id.len() == 10 && id.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                format!("option {AGENT_ID_OPTION}=`{id}`: an agent id is 10 letters and digits ([0-9a-zA-Z]{{10}})"),
            ));
        }
        let lambda_arn = options.get(LAMBDA_OPTION).map(str::to_owned);
        if let Some(arn) = &lambda_arn
            && !(arn.starts_with("arn:") && arn.contains(":lambda:") && arn.contains(":function:"))
        {
            return Err(Diagnostic::error(
                codes::INPUT_INVALID,
                "",
                format!(
                    "option {LAMBDA_OPTION}=`{arn}`: not a Lambda function's ARN (arn:aws:lambda:REGION:ACCOUNT:function:NAME)"
                ),
            ));
        }
        Ok(Settings { agent_id, lambda_arn, output_name: options.output_name("tools").to_owned() })
    }
}

/// The action group document of `model`: the function schema, in the request the source had,
/// or the function schema alone when the source was one, else a new request.
pub fn document(model: &ToolSet, settings: &Settings) -> (Value, Vec<Diagnostic>) {
    // Function details cannot refer to schemas: references are inlined where the writer reads
    // (each parameter's own level), so only real cuts are reported.
    let (resolved, mut cuts) = definitions::resolve_carried(model, &CARRIED);
    let model = &resolved;
    let mut diagnostics = uncarried(model, AGENT_ID, &CARRIED);
    diagnostics.append(&mut cuts);
    let same_format = model.extras.contains_key(AGENT_ID);
    let set_extras = extras_object(&model.extras, AGENT_ID);
    let names = fitted_names(model.tools.iter().map(|t| t.name.as_str()));
    let texts = descriptions(model, AGENT_ID, Need::Optional, &mut diagnostics);
    let mut functions = Vec::with_capacity(model.tools.len());
    for (i, ((tool, name), description)) in model.tools.iter().zip(&names).zip(texts).enumerate() {
        let path = child("/tools", i.to_string());
        if *name != tool.name {
            diagnostics.push(renamed("function", &tool.name, name, "", child(&path, "name")));
        }
        let function = Function { tool, name, description, path, same_format };
        functions.push(function.write(&mut diagnostics));
    }
    let schema = wrapped("functions", functions, &set_extras);
    let document = match (set_extras.get("shape").and_then(Value::as_str), set_extras.get("request")) {
        (Some("functionSchema"), _) => {
            for (field, present) in [("id", model.id.is_some()), ("description", model.description.is_some())] {
                if present {
                    diagnostics.push(Diagnostic::loss(
                        codes::LOSS_FIELD,
                        child("", field),
                        format!("the source was a function schema, which has no action group: the tool set's `{field}` is not written"),
                    ));
                }
            }
            schema
        }
        (_, Some(Value::Object(request))) => kept_request(request.clone(), model, schema, &mut diagnostics),
        _ => new_request(model, settings, schema, &mut diagnostics),
    };
    (document, diagnostics)
}

/// The request the source was, its function schema written again, and its action group name
/// and description from the tool set (as the reader took them).
fn kept_request(
    mut request: Map<String, Value>,
    model: &ToolSet,
    schema: Value,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    if let Some(id) = &model.id {
        request.insert("actionGroupName".into(), action_group_name(id, "", diagnostics).into());
    }
    match action_group_description(model, diagnostics) {
        Some(text) => {
            request.insert("description".into(), text.into());
        }
        None => {
            request.remove("description");
        }
    }
    request.insert("functionSchema".into(), schema);
    Value::Object(request)
}

/// A new `CreateAgentActionGroup` request: what the tool set does not say (the agent, how
/// actions run) from the options, else a placeholder or a default, each said.
fn new_request(model: &ToolSet, settings: &Settings, schema: Value, diagnostics: &mut Vec<Diagnostic>) -> Value {
    let mut request = Map::new();
    let agent = match &settings.agent_id {
        Some(id) => id.clone(),
        None => {
            diagnostics.push(Diagnostic::warning(
                codes::GENERATED_PLACEHOLDER,
                "",
                format!(
                    "the tool set does not say which agent the action group is for: agentId is the placeholder `{AGENT_ID_PLACEHOLDER}`; replace it with your agent's id, or give --option {AGENT_ID_OPTION}=<id>"
                ),
            ));
            AGENT_ID_PLACEHOLDER.to_owned()
        }
    };
    request.insert("agentId".into(), agent.into());
    request.insert("agentVersion".into(), DRAFT.into());
    let (name, made_from) =
        tool_set_name(model.id.as_deref(), model.title.as_deref(), &settings.output_name, &NAME_RULES);
    let name = action_group_name(&name, "", diagnostics);
    if let Some(from) = made_from {
        let from = match from {
            MadeFrom::OutputName => "the output's name (the tool set has no title either)".to_owned(),
            MadeFrom::Title => from.to_string(),
        };
        diagnostics.push(Diagnostic::info(
            codes::GENERATED,
            "/id",
            format!("the tool set has no id: the action group is named `{name}`, made from {from}"),
        ));
    }
    request.insert("actionGroupName".into(), name.into());
    if let Some(text) = action_group_description(model, diagnostics) {
        request.insert("description".into(), text.into());
    }
    let executor = match &settings.lambda_arn {
        Some(arn) => serde_json::json!({"lambda": arn}),
        None => {
            diagnostics.push(Diagnostic::info(
                codes::GENERATED,
                "",
                format!(
                    "no Lambda function given: the action group returns control to the caller (actionGroupExecutor customControl RETURN_CONTROL); give --option {LAMBDA_OPTION}=<ARN> to run one"
                ),
            ));
            serde_json::json!({"customControl": "RETURN_CONTROL"})
        }
    };
    request.insert("actionGroupExecutor".into(), executor);
    request.insert("functionSchema".into(), schema);
    Value::Object(request)
}

/// `name` fitted to Bedrock's name rule, the change said (`whose` as for [`renamed`]).
fn action_group_name(name: &str, whose: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    let fitted = fitted_names(std::iter::once(name)).remove(0);
    if fitted != name {
        diagnostics.push(renamed("action group", name, &fitted, whose, "/id".into()));
    }
    fitted
}

/// The tool set's description, cut to the action group's limit (the cut said); none when empty.
fn action_group_description(model: &ToolSet, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    let text = model.description.as_deref().filter(|t| !t.is_empty())?;
    Some(cut(text, ACTION_GROUP_DESCRIPTION_MAX, "/description", "the action group's description", diagnostics))
}

/// `text` cut at a sentence to `max` characters, the cut a `changed/description` at `path`
/// (core's `fit::cut_and_say`).
fn cut(text: &str, max: usize, path: &str, what: &str, diagnostics: &mut Vec<Diagnostic>) -> String {
    match cut_and_say(text, max, what, path, &format!("Bedrock takes at most {max}")) {
        Some((kept, said)) => {
            diagnostics.push(said);
            kept
        }
        None => text.to_owned(),
    }
}

/// A `changed/name` for a `what` (function, parameter, action group) whose name `from` is
/// written as `to`, with the way back; `whose` follows the name in the message (` of function
/// `f``), or is empty.
fn renamed(what: &str, from: &str, to: &str, whose: &str, path: String) -> Diagnostic {
    let message = format!(
        "Bedrock {what} names must match {}: `{from}`{whose} was written as `{to}` (map back: `{to}` -> `{from}`)",
        NAME_RULES.pattern
    );
    Diagnostic::warning(codes::CHANGED_NAME, path, message).renaming(from, to, None)
}

/// One tool being written as a function.
struct Function<'m> {
    tool: &'m Tool,
    name: &'m str,
    description: Option<String>,
    /// The tool's model path, `/tools/<i>`.
    path: String,
    /// The model was read from this format: what it kept is written back as it was.
    same_format: bool,
}

impl Function<'_> {
    fn write(&self, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let extras = extras_object(&self.tool.extras, AGENT_ID);
        let mut out = Map::new();
        out.insert("name".into(), self.name.into());
        // Bedrock refuses an empty description (at least one character): only a same-format
        // write gives one back, as the source had it.
        match self.description.as_deref() {
            Some("") if self.same_format => {
                out.insert("description".into(), "".into());
            }
            Some(text) if !text.is_empty() => {
                let what = format!("the description of function `{}`", self.tool.name);
                let at = child(&self.path, "description");
                out.insert("description".into(), cut(text, FUNCTION_DESCRIPTION_MAX, &at, &what, diagnostics).into());
            }
            _ => {}
        }
        let mut parameters = Map::new();
        let names = fitted_names(self.tool.parameters.iter().map(|p| p.name.as_str()));
        for (j, (parameter, name)) in self.tool.parameters.iter().zip(names).enumerate() {
            let at = child(&child(&self.path, "parameters"), j.to_string());
            if name != parameter.name {
                let whose = format!(" of function `{}`", self.tool.name);
                diagnostics.push(renamed("parameter", &parameter.name, &name, &whose, child(&at, "name")));
            }
            parameters.insert(name, self.parameter(parameter, &at, diagnostics));
        }
        // Details the reader could not take as parameters, kept as written.
        if let Some(Value::Object(kept)) = extras.get("keep").and_then(|k| k.get("parameters")) {
            for (name, detail) in kept {
                parameters.entry(name.clone()).or_insert_with(|| detail.clone());
            }
        }
        if !parameters.is_empty() {
            out.insert("parameters".into(), Value::Object(parameters));
        }
        if let Some(confirmation) = &self.tool.confirmation {
            out.insert("requireConfirmation".into(), "ENABLED".into());
            // Bedrock asks with a message of its own: what the source would have shown is lost.
            let parts = [
                ("message", confirmation.message.is_some()),
                ("info", !confirmation.info.is_empty()),
                ("style", confirmation.style.is_some()),
            ];
            for (part, _) in parts.iter().filter(|(_, present)| *present) {
                diagnostics.push(Diagnostic::loss(
                    codes::LOSS_CONFIRMATION,
                    child(&child(&self.path, "confirmation"), part),
                    format!(
                        "Bedrock asks for confirmation of function `{}` with its own words: the confirmation's `{part}` is not written",
                        self.tool.name
                    ),
                ));
            }
        } else if let Some(flag) = extras.get("requireConfirmation") {
            out.insert("requireConfirmation".into(), flag.clone());
        }
        give_back_kept(&mut out, &extras);
        Value::Object(out)
    }

    /// A parameter detail: its description (cut to Bedrock's limit), its type among Bedrock's
    /// (any other written as a string, said), and `required`.
    fn parameter(&self, parameter: &Parameter, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Value {
        let extras = extras_object(&parameter.extras, AGENT_ID);
        let kept = extras.get("keep").and_then(Value::as_object);
        let tool = &self.tool.name;
        let name = &parameter.name;
        let mut out = Map::new();
        match parameter.schema.description.as_deref() {
            Some("") if self.same_format => {
                out.insert("description".into(), "".into());
            }
            Some(text) if !text.is_empty() => {
                let what = format!("the description of parameter `{name}` of function `{tool}`");
                let at = child(&child(path, "schema"), "description");
                out.insert("description".into(), cut(text, PARAMETER_DESCRIPTION_MAX, &at, &what, diagnostics).into());
            }
            _ => {}
        }
        let kind = parameter.schema.kind.map(SchemaType::as_str);
        match kind {
            Some(kind) if PARAMETER_TYPES.contains(&kind) => {
                out.insert("type".into(), kind.into());
            }
            // The source's own type, which the reader could not take, goes back as it was.
            _ if self.same_format && kept.is_some_and(|k| k.contains_key("type")) => {}
            _ => {
                let why = match kind {
                    Some("object") => "is an object, which Bedrock's flat parameters cannot be: it is written as a string (the object as JSON text), its properties reported apart".to_owned(),
                    Some(other) => format!("has type `{other}`, which Bedrock's parameters cannot have: it is written as a string"),
                    None => "takes any value, where a Bedrock parameter has one type: it is written as a string".to_owned(),
                };
                diagnostics.push(Diagnostic::warning(
                    codes::CHANGED_SCHEMA,
                    child(&child(path, "schema"), "type"),
                    format!("parameter `{name}` of function `{tool}` {why}"),
                ));
                out.insert("type".into(), "string".into());
            }
        }
        if parameter.required {
            out.insert("required".into(), true.into());
        }
        give_back_kept(&mut out, &extras);
        Value::Object(out)
    }
}

/// Names fitted to Bedrock's pattern, in order. A name that matches keeps itself, whatever
/// comes before it; any other is transliterated to ASCII, sanitised by [`NAME_RULES`], its runs
/// of separators folded to one (the pattern allows one at a time), and given a hash of the
/// original when another name has it already. Deterministic for the same list.
fn fitted_names<'a>(originals: impl Iterator<Item = &'a str>) -> Vec<String> {
    let originals: Vec<&str> = originals.collect();
    let mut used: HashSet<String> = originals.iter().filter(|n| is_name(n)).map(|n| (*n).to_owned()).collect();
    let mut assigned: HashMap<&str, String> = HashMap::new();
    let mut out = Vec::with_capacity(originals.len());
    for original in originals {
        if is_name(original) {
            out.push(original.to_owned());
            continue;
        }
        if let Some(name) = assigned.get(original) {
            out.push(name.clone());
            continue;
        }
        let plain = if original.is_ascii() { original.to_owned() } else { ascii(original) };
        let mut name = fold_separators(&sanitize(&plain, &NAME_RULES));
        if used.contains(&name) {
            name = with_suffix(&name, original, &used);
        }
        used.insert(name.clone());
        assigned.insert(original, name.clone());
        out.push(name);
    }
    out
}

/// `name` with each run of `_` and `-` folded to its first (`a__b` -> `a_b`, `a-_b` -> `a-b`).
fn fold_separators(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '_' | '-') && out.ends_with(['_', '-']) {
            continue;
        }
        out.push(c);
    }
    out
}

/// `base` cut to leave room for `_` and a hash of `original` (then a counter) that no name in
/// `used` has.
fn with_suffix(base: &str, original: &str, used: &HashSet<String>) -> String {
    let hash = format!("{:08x}", stable_hash(original) as u32);
    let mut counter = 1;
    loop {
        let tail = if counter == 1 { hash.clone() } else { format!("{hash}{counter}") };
        let stem: String = base.chars().take(NAME_RULES.max_len - tail.len() - 1).collect();
        let name = format!("{}_{tail}", stem.trim_end_matches(['_', '-']));
        if !used.contains(&name) {
            return name;
        }
        counter += 1;
    }
}
