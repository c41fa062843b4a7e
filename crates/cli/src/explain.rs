//! `convert codes` and `convert explain CODE`: the diagnostic codes from core's one table
//! ([`toolport_core::diagnostic::EXPLANATIONS`]), what each means and what to do.

use std::io::Write;

use anyhow::Result;
use toolport_core::diagnostic::{EXPLANATIONS, Explanation, FAMILIES, explain, family_of};
use toolport_core::suggest::did_you_mean;

use crate::{ExitStatus, UsageError};

/// `convert codes [--json]`: every code by family, with its meaning and what to do.
pub fn codes(json: bool) -> Result<ExitStatus> {
    let mut out = std::io::stdout().lock();
    if json {
        let doc = serde_json::json!({ "families": FAMILIES, "codes": EXPLANATIONS });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitStatus::Ok);
    }
    for family in FAMILIES {
        writeln!(out, "{}: {}", family.pattern, family.meaning)?;
        for e in EXPLANATIONS.iter().filter(|e| family_of(e.code).is_some_and(|f| f.family == family.family)) {
            write_explanation(&mut out, e, "  ")?;
        }
    }
    writeln!(
        out,
        "--strict=CODE,... refuses these codes (family/* a whole family); plugins may add codes within these families"
    )?;
    Ok(ExitStatus::Ok)
}

/// `convert explain CODE`: one code, or every code of a family (`loss/*`, `loss`). An
/// unknown code is a usage error with the closest known one.
pub fn explain_code(code: &str) -> Result<ExitStatus> {
    let mut out = std::io::stdout().lock();
    if let Some(e) = explain(code) {
        write_explanation(&mut out, e, "")?;
        return Ok(ExitStatus::Ok);
    }
    let family = code.strip_suffix("/*").unwrap_or(code);
    if let Some(f) = FAMILIES.iter().find(|f| f.family == family) {
        writeln!(out, "{}: {}", f.pattern, f.meaning)?;
        for e in EXPLANATIONS.iter().filter(|e| family_of(e.code) == Some(f)) {
            write_explanation(&mut out, e, "  ")?;
        }
        return Ok(ExitStatus::Ok);
    }
    let candidates = EXPLANATIONS.iter().map(|e| e.code).chain(FAMILIES.iter().map(|f| f.pattern));
    let near = did_you_mean(code, candidates).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
    let plugin = match family_of(code) {
        Some(f) => format!("; a plugin may report it: its family {} is {}", f.pattern, f.meaning),
        None => String::new(),
    };
    Err(UsageError(format!(
        "`{}` is not a diagnostic code toolport knows{near}{plugin}; `convert codes` lists them",
        crate::report::printable(code)
    ))
    .into())
}

fn write_explanation(out: &mut impl Write, e: &Explanation, indent: &str) -> std::io::Result<()> {
    writeln!(out, "{indent}{}", e.code)?;
    writeln!(out, "{indent}    {}", e.meaning)?;
    writeln!(out, "{indent}    what to do: {}", e.action)
}
