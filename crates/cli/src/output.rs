//! Printing results: one JSON object with `--json`, text otherwise.

use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};
use springmesh_convert::ConvertReport;
use springmesh_core::{SpringKind, SpringModel};
use std::fmt::Display;
use std::process::ExitCode;

/// Prints a command's outcome: its fields as one JSON object with `--json` (keys in
/// alphabetical order, a number that is not finite as null), its `Display` text otherwise.
pub fn emit(outcome: &(impl Serialize + Display), json: bool) -> Result<ExitCode> {
    if json {
        print_json(&serde_json::to_value(outcome)?);
    } else {
        print!("{outcome}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints `value` as one line of JSON on stdout.
pub fn print_json(value: &Value) {
    println!("{value}");
}

/// Spring counts by kind and their total, as in the report of a conversion.
pub fn spring_counts(model: &SpringModel) -> Value {
    let counts = model.springs.count_by_kind();
    let mut out = serde_json::Map::new();
    for (kind, n) in SpringKind::ALL.iter().zip(counts) {
        out.insert(kind.name().to_string(), json!(n));
    }
    out.insert("total".into(), json!(model.springs.len()));
    Value::Object(out)
}

/// A conversion report as JSON (DESIGN.md's fields and the rest of the report).
pub fn report_json(report: &ConvertReport) -> Value {
    serde_json::to_value(report).unwrap_or(Value::Null)
}

/// One line per warning, indented, for text output.
pub fn warning_lines(report: &ConvertReport) -> Vec<String> {
    report.warnings.iter().map(|w| format!("  warning: {}", w.message)).collect()
}
