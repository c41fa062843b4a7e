//! The command sources a manifest names: the writer's own command when the source had none
//! (Raycast requires one), or a stub for a command whose source the source extension does not
//! give (a Raycast source's own command files are carried as they were).

use serde_json::Value;
use toolport_plugin::{Bundle, Diagnostic};

use super::super::manifest::AI_COMMAND;
use super::GENERATED_STUB;
use super::syntax::json_string;
use crate::FORMAT_ID;
use crate::extension::is_safe_name;

/// A source file for every command the manifest names: the writer's own command when
/// `commands_generated` (the source had none), or a stub for a command whose source the model
/// does not carry.
pub(in crate::write) fn command_sources(
    package: &Value,
    commands_generated: bool,
    id: &str,
    tool_names: &[String],
    bundle: &mut Bundle,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let commands = package.get("commands").and_then(Value::as_array).into_iter().flatten();
    for (index, command) in commands.enumerate() {
        let Some(name) = command.get("name").and_then(Value::as_str).filter(|n| is_safe_name(n)) else { continue };
        let path = format!("src/{name}.ts");
        if commands_generated && name == AI_COMMAND {
            bundle.insert(path, ai_command(id, tool_names));
            continue;
        }
        // The source extension's own command, carried as it was.
        if ["ts", "tsx", "js", "jsx"].iter().any(|ext| bundle.files.contains_key(&format!("src/{name}.{ext}"))) {
            continue;
        }
        diagnostics.push(Diagnostic::warning(
            GENERATED_STUB,
            format!("/extras/{FORMAT_ID}/manifest/commands/{index}"),
            format!("command `{name}` is written as a stub that throws \"not implemented\": its source is not among the source's files"),
        ));
        bundle.insert(path, command_stub(name));
    }
}

/// A stub for a command the manifest names whose source the model does not carry.
fn command_stub(name: &str) -> String {
    format!(
        "// The source of this command was not part of the conversion; write it here.\nexport default async function Command() {{\n  throw new Error({});\n}}\n",
        json_string(&format!("not implemented: {name}"))
    )
}

/// The command a fresh extension gets: Raycast requires one, and tools are used from Raycast AI.
fn ai_command(id: &str, tools: &[String]) -> String {
    let message = match tools {
        [] => format!("Ask Raycast AI with @{id}"),
        _ => format!("Ask Raycast AI with @{id} to use: {}", tools.join(", ")),
    };
    format!(
        "import {{ showHUD }} from \"@raycast/api\";\n\n/** Says how to use this extension: its tools are called by Raycast AI. */\nexport default async function Command() {{\n  await showHUD({});\n}}\n",
        json_string(&message)
    )
}
