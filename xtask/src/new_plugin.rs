//! `cargo xtask new-plugin NAME --path DIR` (being written).
use anyhow::{Result, bail};

pub fn run(_args: &[String]) -> Result<()> {
    bail!("new-plugin is not available yet")
}
