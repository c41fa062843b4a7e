//! A plugin whose table does not start with the toolport magic.
toolport_test_plugins::broken_plugin!(
    name: "wrong-magic",
    magic: 0xDEAD_BEEF,
    abi: toolport_plugin::abi::ABI_MAJOR,
    call: toolport_test_plugins::no_answer
);
