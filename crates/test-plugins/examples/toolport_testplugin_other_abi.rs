//! A plugin that speaks a future ABI major (99): refused, both versions named.
toolport_test_plugins::broken_plugin!(
    name: "other-abi",
    magic: toolport_plugin::abi::ABI_MAGIC,
    abi: 99,
    call: toolport_test_plugins::no_answer
);
