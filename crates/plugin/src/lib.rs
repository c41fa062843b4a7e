//! The toolport plugin SDK.
//!
//! A format plugin is a `cdylib` crate that implements [`toolport_core::Format`] and says
//!
//! ```ignore
//! toolport_plugin::declare_plugin!(MyFormat);
//! ```
//!
//! The macro exports one C symbol, [`abi::ENTRY_SYMBOL`], returning the [`abi::PluginTable`].
//! Everything crossing the boundary is UTF-8 JSON (see [`abi`]), except the model between a
//! host and plugins of one build, handed over by pointer ([`abi::native`]); the unsafe glue
//! lives in `export` (the macro's expansion only exports the table), so plugin authors write none. See docs/plugins.md for
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
/// The expansion names the plugin and exports its table, whose entries are all in [`export`];
/// its only `unsafe` is the attribute that exports the entry symbol unmangled.
#[macro_export]
macro_rules! declare_plugin {
    ($($format:expr),+ $(,)?) => {
        const _: () = {
            struct Exported;
            impl $crate::export::Exports for Exported {
                fn plugin() -> &'static $crate::export::Plugin {
                    static PLUGIN: ::std::sync::OnceLock<$crate::export::Plugin> = ::std::sync::OnceLock::new();
                    PLUGIN.get_or_init(|| {
                        $crate::export::Plugin::new(
                            env!("CARGO_PKG_NAME"),
                            env!("CARGO_PKG_VERSION"),
                            vec![$(::std::boxed::Box::new($format) as ::std::boxed::Box<dyn $crate::core::Format>),+],
                        )
                        .with_native_model()
                    })
                }
            }
            static TABLE: $crate::abi::PluginTable = $crate::export::table::<Exported>();
            /// The plugin's entry point, looked up by the host.
            #[allow(unsafe_code)]
            #[unsafe(no_mangle)]
            pub extern "C" fn toolport_plugin_entry() -> *const $crate::abi::PluginTable {
                &TABLE
            }
        };
    };
}
