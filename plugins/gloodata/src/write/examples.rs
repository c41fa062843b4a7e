//! The model's examples as example prompts per tool, reporting what Gloodata cannot keep.

use std::collections::{HashMap, HashSet};

use toolport_plugin::source::child;
use toolport_plugin::{Diagnostic, Expectation, Severity, ToolSet, codes};

use super::Writer;

impl Writer {
    /// Gloodata keeps example prompts per tool: an example that calls exactly one tool gives
    /// that tool a prompt; everything else about examples is reported.
    pub(super) fn examples_by_tool<'m>(&mut self, model: &'m ToolSet) -> HashMap<&'m str, Vec<String>> {
        let mut prompts: HashMap<&str, Vec<String>> = HashMap::new();
        // Tool names, for a lookup per call (the first of a name wins, as `ToolSet::tool`).
        let mut tools: HashSet<&str> = HashSet::new();
        if !model.examples.is_empty() {
            tools.extend(model.tools.iter().map(|t| t.name.as_str()));
        }
        for (i, example) in model.examples.iter().enumerate() {
            let path = child("/examples", i.to_string());
            let mut calls = Vec::new();
            for (j, expectation) in example.expected.iter().enumerate() {
                let expectation_path = child(&child(&path, "expected"), j.to_string());
                match expectation {
                    Expectation::CallsTool(call) => calls.push((expectation_path, call)),
                    _ => self.say(Severity::Warning, codes::LOSS_EXAMPLES, || {
                        Diagnostic::loss(
                            codes::LOSS_EXAMPLES,
                            expectation_path,
                            "Gloodata examples are plain prompts; this response check was left out",
                        )
                    }),
                }
            }
            match calls.as_slice() {
                [] => self.say(Severity::Warning, codes::LOSS_EXAMPLES, || {
                    Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        path,
                        "Gloodata keeps example prompts per tool, and this example calls no tool; it was left out",
                    )
                }),
                [(call_path, call)] => match tools.get(call.tool.as_str()) {
                    Some(&tool) => {
                        prompts.entry(tool).or_default().push(example.prompt.clone());
                        if call.arguments.is_some() {
                            self.say(Severity::Warning, codes::LOSS_EXAMPLES, || {
                                Diagnostic::loss(
                                    codes::LOSS_EXAMPLES,
                                    child(call_path, "arguments"),
                                    "Gloodata examples cannot say which arguments a prompt should produce",
                                )
                            });
                        }
                    }
                    None => self.say(Severity::Warning, codes::LOSS_EXAMPLES, || {
                        Diagnostic::loss(
                            codes::LOSS_EXAMPLES,
                            call_path.clone(),
                            format!(
                                "this example calls `{}`, which is not a tool of the set; it was left out",
                                call.tool
                            ),
                        )
                    }),
                },
                _ => self.say(Severity::Warning, codes::LOSS_EXAMPLES, || {
                    Diagnostic::loss(
                        codes::LOSS_EXAMPLES,
                        path,
                        "a Gloodata example selects one tool, and this example calls several; it was left out",
                    )
                }),
            }
        }
        prompts
    }
}
