//! A plugin with a valid handshake whose calls return bytes that are not JSON.
#![allow(unsafe_code)]

extern "C" fn garbage(_format: u32, _request: *const u8, _len: usize) -> toolport_plugin::abi::RawBuffer {
    toolport_test_plugins::buffer(b"this is {not json".to_vec())
}

toolport_test_plugins::broken_plugin!(
    name: "garbled",
    magic: toolport_plugin::abi::ABI_MAGIC,
    abi: toolport_plugin::abi::ABI_MAJOR,
    call: garbage
);
