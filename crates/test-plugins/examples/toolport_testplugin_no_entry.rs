//! A dynamic library that is not a toolport plugin: it exports no entry symbol.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn something_else() -> u32 {
    7
}
