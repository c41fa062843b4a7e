//! Placing a pointer of a YAML document at its line and column (`Locator`).

use toolport_yaml::Locator;

fn check(text: &str, expect: &[(&str, Option<(u32, u32)>)]) {
    let locator = Locator::new(text);
    for (pointer, place) in expect {
        assert_eq!(locator.locate(pointer), *place, "{pointer} in:\n{text}");
    }
}

#[test]
fn values_are_placed_at_their_keys_in_block_and_flow_style() {
    check(
        "tools:\n  # a comment\n  listPets:\n    name: x\n    parameters:\n      limit: {value: 3}\n  other:\n    parameters:\n      'limit': {hidden: true}\n",
        &[
            ("", Some((1, 1))),
            ("/tools", Some((1, 1))),
            ("/tools/listPets", Some((3, 3))),
            ("/tools/listPets/parameters/limit", Some((6, 7))),
            ("/tools/listPets/parameters/limit/value", Some((6, 15))),
            ("/tools/other/parameters/limit", Some((9, 7))),
            ("/tools/other/parameters/none", None),
        ],
    );
}

#[test]
fn sequence_items_are_placed_at_their_content() {
    check(
        "overlay: 1.0.0\nactions:\n  - target: a\n    update: {}\n  - target: b\n    remove: true\n  - [1, {a: 2}]\n",
        &[
            ("/actions", Some((2, 1))),
            ("/actions/0", Some((3, 5))),
            ("/actions/0/update", Some((4, 5))),
            ("/actions/1/target", Some((5, 5))),
            ("/actions/1/remove", Some((6, 5))),
            ("/actions/2/1/a", Some((7, 10))),
            ("/actions/0/remove", None),
            ("/actions/3", None),
        ],
    );
}

#[test]
fn keys_are_read_as_the_value_reader_reads_them() {
    // Numbers as their text, `~1` for a slash; a collection as a key names nothing inside.
    check(
        "responses:\n  200: {description: ok}\n  /a/b: x\n  ? [k]\n  : v\n  after: 1\n",
        &[("/responses/200", Some((2, 3))), ("/responses/~1a~1b", Some((3, 3))), ("/responses/after", Some((6, 3)))],
    );
}
