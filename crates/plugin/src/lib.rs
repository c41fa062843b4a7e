//! The toolport plugin SDK.
//!
//! A format plugin is a `cdylib` crate that implements [`toolport_core::Format`] and says
//!
//! ```ignore
//! toolport_plugin::declare_plugin!(MyFormat);
//! ```
//!
//! The macro exports one C symbol, [`abi::ENTRY_SYMBOL`], returning the [`abi::PluginTable`].
//! Everything crossing the boundary is UTF-8 JSON (see [`abi`]); the unsafe glue lives in
//! `export` and the macro's expansion, so plugin authors write none. See docs/plugins.md for
//! the whole guide, and [`abi`] for versions and what a minor may add.

pub mod abi;
#[doc(hidden)]
pub mod export;
mod unknown;

pub use toolport_core as core;
pub use toolport_core::*;
/// What the JSON function-tool formats (MCP, OpenAI, Anthropic, Gemini) share: tool lists and
/// their shapes, schema glue, names, located diagnostics.
pub use toolport_function_tools as function_tools;
/// JSON Schema dialects to and from the canonical `Schema`.
pub use toolport_jsonschema as jsonschema;
/// The only door to YAML: `parse` with positions, `to_string`.
pub use toolport_yaml as yaml;

/// Exports formats from a plugin library. Takes one or more expressions that build values
/// implementing [`toolport_core::Format`]; they are built once, on first use.
///
/// ```ignore
/// toolport_plugin::declare_plugin!(Vertex, OpenApi);
/// ```
///
/// The expansion is the plugin's only `unsafe`: the table's `unsafe extern "C"` functions,
/// each passing the host's guarantees on to [`export`].
#[macro_export]
macro_rules! declare_plugin {
    ($($format:expr),+ $(,)?) => {
        #[allow(unsafe_code)]
        const _: () = {
            static PLUGIN: ::std::sync::OnceLock<$crate::export::Plugin> = ::std::sync::OnceLock::new();
            fn plugin() -> &'static $crate::export::Plugin {
                PLUGIN.get_or_init(|| {
                    $crate::export::Plugin::new(
                        env!("CARGO_PKG_NAME"),
                        env!("CARGO_PKG_VERSION"),
                        vec![$(::std::boxed::Box::new($format) as ::std::boxed::Box<dyn $crate::core::Format>),+],
                    )
                })
            }
            extern "C" fn describe() -> $crate::abi::RawBuffer {
                $crate::export::describe(plugin)
            }
            unsafe extern "C" fn detect(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                // SAFETY: the host calls this entry as `abi::CallFn` requires (`len` bytes at
                // `request`, valid for the call), which is what `export::detect` needs.
                unsafe { $crate::export::detect(plugin, format, request, len) }
            }
            unsafe extern "C" fn read(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                // SAFETY: as for `detect`: the host's `abi::CallFn` guarantee, passed on.
                unsafe { $crate::export::read(plugin, format, request, len) }
            }
            unsafe extern "C" fn write(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                // SAFETY: as for `detect`: the host's `abi::CallFn` guarantee, passed on.
                unsafe { $crate::export::write(plugin, format, request, len) }
            }
            // `describe` needs no guarantee: a safe function stands in for an unsafe pointer.
            static TABLE: $crate::abi::PluginTable =
                $crate::abi::PluginTable::new(describe, detect, read, write, $crate::export::free);
            /// The plugin's entry point, looked up by the host.
            #[unsafe(no_mangle)]
            pub extern "C" fn toolport_plugin_entry() -> *const $crate::abi::PluginTable {
                &TABLE
            }
        };
    };
}
