//! A plugin whose reader panics: the host must report it and keep running.
use toolport_plugin::{Bundle, Format, FormatInfo, Options, Outcome, ToolSet};
use toolport_test_plugins::Echo;

struct Panicky;

impl Format for Panicky {
    fn info(&self) -> FormatInfo {
        FormatInfo { id: "panicky".into(), ..Echo("panicky").info() }
    }
    fn read(&self, _input: &Bundle, _options: &Options) -> Outcome<ToolSet> {
        panic!("this reader always panics")
    }
    fn write(&self, _model: &ToolSet, _options: &Options) -> Outcome<Bundle> {
        panic!("this writer always panics")
    }
}

toolport_plugin::declare_plugin!(Panicky);
