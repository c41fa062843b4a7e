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
//! [`export`] so plugin authors write none. See docs/plugins.md for the whole guide.

pub mod abi;
pub mod export;

pub use toolport_core as core;
pub use toolport_core::*;

/// Exports formats from a plugin library. Takes one or more expressions that build values
/// implementing [`toolport_core::Format`]; they are built once, on first use.
///
/// ```ignore
/// toolport_plugin::declare_plugin!(Vertex, OpenApi);
/// ```
#[macro_export]
macro_rules! declare_plugin {
    ($($format:expr),+ $(,)?) => {
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
            extern "C" fn detect(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                $crate::export::detect(plugin, format, request, len)
            }
            extern "C" fn read(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                $crate::export::read(plugin, format, request, len)
            }
            extern "C" fn write(format: u32, request: *const u8, len: usize) -> $crate::abi::RawBuffer {
                $crate::export::write(plugin, format, request, len)
            }
            static TABLE: $crate::abi::PluginTable = $crate::abi::PluginTable {
                header: $crate::abi::TableHeader::CURRENT,
                model_schema_version: $crate::core::MODEL_SCHEMA_VERSION,
                describe,
                detect,
                read,
                write,
                free: $crate::export::free,
            };
            /// The plugin's entry point, looked up by the host.
            #[allow(unsafe_code)]
            #[unsafe(no_mangle)]
            pub extern "C" fn toolport_plugin_entry() -> *const $crate::abi::PluginTable {
                &TABLE
            }
        };
    };
}
