//! Computes the build fingerprint ([`BUILD_FINGERPRINT`](src/fingerprint.rs)): a hash of what
//! decides the model's memory layout in this build, so that a host and a plugin built together
//! can tell they are, and hand the model over natively instead of as JSON (DESIGN, plugin ABI
//! rule 3). Hashed: `rustc -vV`, the target, the profile and its opt-level, the Rust flags, this
//! crate's enabled features, its manifest and every file under `src/`, and the workspace's
//! `Cargo.lock`. Without a lock file (a build from a registry's copy) the fingerprint is empty,
//! and an empty fingerprint matches nothing.

use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=src");
    let lock = manifest_dir.ancestors().map(|dir| dir.join("Cargo.lock")).find(|lock| lock.is_file());
    let fingerprint = match &lock {
        Some(lock) => {
            println!("cargo:rerun-if-changed={}", lock.display());
            fingerprint(&manifest_dir, lock)
        }
        None => String::new(),
    };
    println!("cargo:rustc-env=TOOLPORT_BUILD_FINGERPRINT={fingerprint}");
}

fn fingerprint(manifest_dir: &Path, lock: &Path) -> String {
    let mut hash = Fnv128::default();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc).arg("-vV").output().map(|o| o.stdout).unwrap_or_default();
    hash.part("rustc", &version);
    for variable in ["TARGET", "PROFILE", "OPT_LEVEL", "DEBUG", "CARGO_ENCODED_RUSTFLAGS"] {
        hash.part(variable, std::env::var(variable).unwrap_or_default().as_bytes());
    }
    let mut features: Vec<String> =
        std::env::vars().map(|(k, _)| k).filter(|k| k.starts_with("CARGO_FEATURE_")).collect();
    features.sort();
    hash.part("features", features.join(",").as_bytes());
    hash.part("Cargo.lock", &std::fs::read(lock).unwrap_or_default());
    hash.part("Cargo.toml", &std::fs::read(manifest_dir.join("Cargo.toml")).unwrap_or_default());
    let mut sources = Vec::new();
    collect_files(&manifest_dir.join("src"), &mut sources);
    sources.sort();
    for file in sources {
        let name = file.strip_prefix(manifest_dir).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        hash.part(&name, &std::fs::read(&file).unwrap_or_default());
    }
    format!("{:032x}", hash.0)
}

fn collect_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect_files(&path, into),
            Ok(kind) if kind.is_file() => into.push(path),
            _ => {}
        }
    }
}

/// FNV-1a, 128 bits: no dependency, and a collision needs intent (plugins are trusted code).
struct Fnv128(u128);

impl Default for Fnv128 {
    fn default() -> Self {
        Fnv128(0x6c62272e07bb014262b821756295c58d)
    }
}

impl Fnv128 {
    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u128::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013b);
        }
    }

    /// A named part, its length first, so that parts cannot run into each other.
    fn part(&mut self, name: &str, bytes: &[u8]) {
        self.bytes(name.as_bytes());
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }
}
