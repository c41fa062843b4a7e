//! Amazon Bedrock Agents action groups defined by function details: the `functionSchema` of a
//! `CreateAgentActionGroup` request (botocore's bedrock-agent service model, shapes
//! `FunctionSchema`, `Function`, `ParameterDetail`). A function is `{name, description?,
//! parameters?: {<name>: {description?, type, required?}}, requireConfirmation?}`; its
//! parameters are flat, of type string, number, integer, boolean or array (no item schema).
//!
//! A file holds a whole request (`actionGroupName`, `agentId`, `actionGroupExecutor`, …,
//! `functionSchema`), or the function schema `{"functions": [...]}`. Reading keeps the request
//! around the functions, unknown keys and what the model has no field for (an explicit
//! `requireConfirmation: DISABLED`, `required: false`) under `extras["bedrock-agent"]`, so a
//! same-format write gives the same document back. `requireConfirmation: ENABLED` is the model's
//! confirmation. Writing gives the request (or the function schema, when the source was one);
//! what a flat parameter cannot hold (nested objects, enums, formats, item schemas, defaults) is
//! reported, names are fitted to the service's pattern and descriptions to its lengths, each
//! change said.

mod read;
mod write;

use toolport_plugin::function_tools;
use toolport_plugin::function_tools::common::json_file_info;
use toolport_plugin::names::NameRules;
use toolport_plugin::{
    Bundle, Detection, Format, FormatInfo, Limit, LimitKind, OptionSpec, Options, Outcome, PlatformLimits, ToolSet,
};

/// The format's id, and the key of its extras.
pub const AGENT_ID: &str = "bedrock-agent";

/// Where the shapes and their bounds are documented (the service model botocore carries).
const SOURCE: &str = "Amazon Bedrock API reference, Agents for Amazon Bedrock: Function, ParameterDetail and \
    CreateAgentActionGroup (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_Function.html)";

/// A function's `description`: 1 to 1200 characters.
pub const FUNCTION_DESCRIPTION_MAX: usize = 1200;
/// A parameter's `description`: 1 to 500 characters.
pub const PARAMETER_DESCRIPTION_MAX: usize = 500;
/// The action group's `description`: 1 to 200 characters.
pub const ACTION_GROUP_DESCRIPTION_MAX: usize = 200;
/// The values of `ParameterDetail.type`.
pub const PARAMETER_TYPES: [&str; 5] = ["string", "number", "integer", "boolean", "array"];
/// The values of `Function.requireConfirmation`.
const CONFIRMATION_VALUES: [&str; 2] = ["ENABLED", "DISABLED"];

/// The option naming the agent the request adds the action group to (`agentId`).
const AGENT_ID_OPTION: &str = "agent_id";
/// The option naming the Lambda function that runs the actions (`actionGroupExecutor.lambda`).
const LAMBDA_OPTION: &str = "lambda_arn";

fn alphanumeric(c: char) -> bool {
    c.is_ascii_alphanumeric()
}
fn word_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

/// The characters and length of Bedrock Agents' names (`Name`: functions, parameters, the
/// action group), as the SDK's rules say them. The pattern also forbids two separators in a
/// row ([`is_name`] checks it whole); 100 characters is the most a name of letters and digits
/// has (separators may make it longer, up to 200).
pub const NAME_RULES: NameRules = NameRules {
    pattern: "^([0-9a-zA-Z][_-]?){1,100}$",
    max_len: 100,
    first: alphanumeric,
    rest: word_dash,
    replacement: '_',
    lead: "x",
};

/// Whether `name` matches `([0-9a-zA-Z][_-]?){1,100}` whole: 1 to 100 letters and digits, each
/// followed by at most one `_` or `-`.
pub fn is_name(name: &str) -> bool {
    let mut letters = 0;
    let mut after_separator = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            letters += 1;
            after_separator = false;
        } else if matches!(c, '_' | '-') && !after_separator {
            after_separator = true;
        } else {
            return false;
        }
    }
    (1..=100).contains(&letters)
}

/// The `bedrock-agent` format.
#[derive(Debug, Default)]
pub struct BedrockAgent;

impl Format for BedrockAgent {
    fn info(&self) -> FormatInfo {
        FormatInfo {
            aliases: vec!["bedrock-action-group".into(), "bedrock-agents".into()],
            description: "Amazon Bedrock Agents action group defined by function details: a CreateAgentActionGroup request's functionSchema (JSON)".into(),
            options: Some(vec![
                OptionSpec::text(
                    AGENT_ID_OPTION,
                    "a placeholder, REPLACEME0",
                    "the agent the action group is added to (the request's agentId: 10 letters and digits)",
                ),
                OptionSpec::text(
                    LAMBDA_OPTION,
                    "none: control returns to the caller (customControl RETURN_CONTROL)",
                    "the ARN of the Lambda function that runs the actions (actionGroupExecutor.lambda)",
                ),
            ]),
            limits: PlatformLimits(vec![
                Limit::kept_name(LimitKind::ToolName, &NAME_RULES, SOURCE),
                Limit::kept_name(LimitKind::ParameterName, &NAME_RULES, SOURCE),
                Limit::at_most(LimitKind::DescriptionChars, FUNCTION_DESCRIPTION_MAX as u64, SOURCE)
                    .kept_by_writer()
                    .note("a function's; a parameter's at most 500, the action group's at most 200"),
                Limit::rule(
                    "parameters are flat: string, number, integer, boolean or array (no item schema), with a description and `required`; no enum, format, default or nested object",
                    SOURCE,
                ),
            ]),
            ..json_file_info(AGENT_ID, env!("CARGO_PKG_VERSION"))
        }
    }

    fn detect(&self, input: &Bundle) -> Detection {
        let Some((_, text)) = input.entry_file() else { return 0 };
        read::detect(text)
    }

    fn read(&self, input: &Bundle, options: &Options) -> Outcome<ToolSet> {
        function_tools::read::read_entry(input, options, AGENT_ID, read::document)
    }

    fn write(&self, model: &ToolSet, options: &Options) -> Outcome<Bundle> {
        let settings = match write::Settings::from_options(options) {
            Ok(settings) => settings,
            Err(error) => return Outcome::fail(error),
        };
        let (document, diagnostics) = write::document(model, &settings);
        Outcome::ok(function_tools::write::json_bundle(&document, options), diagnostics)
    }
}
