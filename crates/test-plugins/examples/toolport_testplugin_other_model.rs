//! A plugin of this ABI built for a future model schema major (2): refused, both versions named.
toolport_test_plugins::broken_plugin!(
    name: "other-model",
    magic: toolport_plugin::abi::ABI_MAGIC,
    abi: toolport_plugin::abi::ABI_MAJOR,
    model: 2,
    call: toolport_test_plugins::no_answer
);
