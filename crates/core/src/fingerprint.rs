//! The build fingerprint: what decides the model's memory layout in this build, hashed by the
//! build script (build.rs): the compiler's version, the target, the profile, the Rust flags,
//! the workspace's lock file and this crate's source. A host and a plugin that embed the same
//! fingerprint (and the same type identities, `toolport_plugin::abi::native`) may hand the
//! model over natively, by pointer, instead of as JSON.

/// This build's fingerprint, 32 hexadecimal digits; empty when the build had no lock file,
/// and an empty fingerprint matches nothing.
pub const BUILD_FINGERPRINT: &str = env!("TOOLPORT_BUILD_FINGERPRINT");
