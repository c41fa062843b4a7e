//! `cargo xtask bench` (being written).
use anyhow::{Result, bail};

pub fn run(_args: &[String]) -> Result<()> {
    bail!("bench is not available yet")
}
