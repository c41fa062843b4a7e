//! What each task takes: its help, its flags and how many plain arguments. Every task's
//! arguments are checked here before the task does anything: `--help` prints its help and
//! stops, an unknown flag or a missing value is an error (exit 2).

/// A flag a task takes.
#[derive(Debug)]
pub struct Flag {
    pub name: &'static str,
    /// The value's name (`DIR`), or `None` for a switch.
    pub value: Option<&'static str>,
    pub help: &'static str,
}

/// A task's command line.
#[derive(Debug)]
pub struct Task {
    pub name: &'static str,
    /// The plain arguments, as shown in the usage line (`[DIR]`).
    pub operands: &'static str,
    /// How many plain arguments it takes at most.
    pub max_operands: usize,
    /// Its arguments go to another program (cargo test, convert): only `--help` is its own.
    pub passes_through: bool,
    pub about: &'static str,
    pub flags: &'static [Flag],
}

const fn flag(name: &'static str, value: Option<&'static str>, help: &'static str) -> Flag {
    Flag { name, value, help }
}

pub const TASKS: &[Task] = &[
    Task {
        name: "test",
        operands: "[CARGO TEST ARGS]...",
        max_operands: usize::MAX,
        passes_through: true,
        about: "Install what the tests need besides Rust (once) while building the plugins and the broken test plugins, then build the test binaries (`cargo test --workspace --no-run ARGS`, cargo's ARGS before `--`; with `-p NAME` all are built, as the plugins are, and only NAME's run) and run them (with the ARGS after `--`), the doc tests and the Python wheel's build and tests side by side, one per core, the longest first; each one's output is printed whole when it ends, then a summary.",
        flags: &[],
    },
    Task {
        name: "convert",
        operands: "[CONVERT ARGS]...",
        max_operands: usize::MAX,
        passes_through: true,
        about: "Build `convert`, the plugin host and the plugins only (debug), then run `convert ARGS` (`cargo xtask convert -- --help` for convert's own help).",
        flags: &[],
    },
    Task {
        name: "dist",
        operands: "[DIR]",
        max_operands: 1,
        passes_through: false,
        about: "Release-build `convert`, the plugin host and the plugins, and stage them in DIR (default dist/): DIR/convert, DIR/toolport-plugin-host, DIR/plugins/*, DIR/share (completions, man page).",
        flags: &[],
    },
    Task {
        name: "install",
        operands: "",
        max_operands: 0,
        passes_through: false,
        about: "Release-build and install into the user data directory; link `toolporter` (and `convert`, unless another program of that name is on PATH) into the bin folder; install shell completions and the man page.",
        flags: &[
            flag(
                "--data-dir",
                Some("DIR"),
                "where the build goes (default $XDG_DATA_HOME/toolport, else ~/.local/share/toolport)",
            ),
            flag("--bin-dir", Some("DIR"), "where the commands are linked (default ~/.local/bin)"),
            flag(
                "--share-dir",
                Some("DIR"),
                "where completions and man pages go (default $XDG_DATA_HOME, else ~/.local/share)",
            ),
            flag("--debug", None, "install the debug build instead"),
            flag("--link-convert", None, "link `convert` even when another program of that name is on PATH"),
        ],
    },
    Task {
        name: "npm",
        operands: "[DIR]",
        max_operands: 1,
        passes_through: false,
        about: "Release-build and make the npm package (a small package that runs the platform's binary) in DIR (default target/npm), packed with `npm pack`.",
        flags: &[flag("--debug", None, "package the debug build instead")],
    },
    Task {
        name: "wheel-binaries",
        operands: "",
        max_operands: 0,
        passes_through: false,
        about: "Build `convert`, the plugin host and the plugins (release) and stage them in python/toolport/_bin for the wheel; the wheel's build backend runs this.",
        flags: &[flag("--debug", None, "stage the debug build instead")],
    },
    Task {
        name: "bench",
        operands: "[CASE]",
        max_operands: 1,
        passes_through: false,
        about: "Release-build and run the benchmarks; prints ratios measured in one run.",
        flags: &[
            flag("--files", Some("N"), "how many files the batch converts (default 10000)"),
            flag(
                "--only",
                Some("SECTIONS"),
                "run only these sections, comma-separated: batch, isolation, start-up, specs, memory, python, scaling",
            ),
            flag("--peers", None, "also run toolport side by side with its peers"),
            flag("--peers-only", None, "run only the comparison with the peers"),
            flag(
                "--scaling-only",
                None,
                "run only the scaling benchmark (with CASE: the cases whose name contains it)",
            ),
        ],
    },
    Task {
        name: "fuzz",
        operands: "",
        max_operands: 0,
        passes_through: false,
        about: "Mutation-fuzz every reader through the real plugins (release build).",
        flags: &[
            flag("--seconds", Some("N"), "seconds per format (default 20)"),
            flag("--seed", Some("S"), "the first seed (default 1)"),
            flag("--format", Some("ID"), "fuzz only this format (repeatable)"),
        ],
    },
    Task {
        name: "new-plugin",
        operands: "NAME",
        max_operands: 1,
        passes_through: false,
        about: "Scaffold a standalone plugin crate (a format library and its cdylib) in DIR, outside the workspace.",
        flags: &[flag("--path", Some("DIR"), "where to create it (required)")],
    },
];

/// What `cargo xtask` says about its tasks when given none or an unknown one.
pub fn overview() -> String {
    let mut text = String::from("usage: cargo xtask <TASK> [ARGS] (cargo xtask TASK --help says more)\n\ntasks:\n");
    for task in TASKS {
        text.push_str(&format!("  {:<11} {}\n", task.name, task.about));
    }
    text
}

impl Task {
    pub fn find(name: &str) -> Option<&'static Task> {
        TASKS.iter().find(|t| t.name == name)
    }

    pub fn help(&self) -> String {
        let flags = if self.flags.is_empty() { "" } else { " [OPTIONS]" };
        let mut text = format!("usage: cargo xtask {}{flags} {}\n\n{}\n", self.name, self.operands, self.about);
        if !self.flags.is_empty() {
            text.push_str("\noptions:\n");
            for f in self.flags {
                let name = match f.value {
                    Some(value) => format!("{} {value}", f.name),
                    None => f.name.to_owned(),
                };
                text.push_str(&format!("  {name:<18} {}\n", f.help));
            }
        }
        text.push_str("  -h, --help         print this help\n");
        text
    }

    /// Checks `args`: `Ok(false)` when they ask for help (printed by the caller), `Ok(true)`
    /// when the task may run, an error naming the first argument it does not take.
    pub fn check(&self, args: &[String]) -> Result<bool, String> {
        let usage = || format!("usage: cargo xtask {} --help", self.name);
        if self.passes_through {
            // Everything is the other program's, but a leading --help (before any `--`).
            return Ok(!matches!(args.first().map(String::as_str), Some("-h" | "--help")));
        }
        let mut operands = 0;
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "-h" || arg == "--help" {
                return Ok(false);
            }
            match self.flags.iter().find(|f| f.name == arg) {
                Some(Flag { value: Some(value), .. }) => {
                    if it.next().is_none_or(|v| v.starts_with("--")) {
                        return Err(format!("{arg} needs a value ({value}); {}", usage()));
                    }
                }
                Some(_) => {}
                None if arg.starts_with('-') => {
                    return Err(format!("cargo xtask {} takes no option `{arg}`; {}", self.name, usage()));
                }
                None => {
                    operands += 1;
                    if operands > self.max_operands {
                        return Err(format!("cargo xtask {} takes no argument `{arg}`; {}", self.name, usage()));
                    }
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(task: &str, args: &[&str]) -> Result<bool, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Task::find(task).unwrap().check(&args)
    }

    #[test]
    fn help_and_unknown_arguments_stop_a_task_before_it_runs() {
        for task in TASKS {
            assert_eq!(check(task.name, &["--help"]), Ok(false), "{} --help", task.name);
            assert_eq!(check(task.name, &["-h"]), Ok(false), "{} -h", task.name);
            assert!(task.help().contains(task.name) && task.help().contains("--help"), "{}", task.help());
        }
        assert_eq!(check("install", &["--data-dir", "/d", "--debug"]), Ok(true));
        assert_eq!(check("install", &["--debug", "--help"]), Ok(false));
        assert!(check("install", &["--prefix", "/x"]).unwrap_err().contains("takes no option `--prefix`"));
        assert!(check("install", &["somewhere"]).unwrap_err().contains("takes no argument `somewhere`"));
        assert!(check("install", &["--data-dir"]).unwrap_err().contains("--data-dir needs a value (DIR)"));
        assert_eq!(check("dist", &["out"]), Ok(true));
        assert!(check("dist", &["out", "more"]).is_err());
        assert!(check("dist", &["--out"]).is_err());
        assert!(check("fuzz", &["--seconds", "5", "--format", "mcp", "--format", "openai"]).unwrap());
        assert!(check("bench", &["--peer"]).is_err());
        assert_eq!(check("bench", &["--only", "batch,memory"]), Ok(true));
        // The scaling cases a name picks: the CASE operand bench.rs documents.
        assert_eq!(check("bench", &["--scaling-only", "chain"]), Ok(true));
        assert!(check("bench", &["--scaling-only", "chain", "enum"]).is_err());
        assert!(check("new-plugin", &["x", "--path", "d"]).unwrap());
        // What goes to cargo test or convert is theirs, --help after it too.
        assert_eq!(check("test", &["-p", "toolport-core", "--", "--help"]), Ok(true));
        assert_eq!(check("convert", &["--", "--help"]), Ok(true));
        assert_eq!(check("convert", &["--help"]), Ok(false));
    }
}
