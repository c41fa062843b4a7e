use super::*;
use toolport_core::{Bundle, Format, Options};

/// A test plugin built as an example of toolport-test-plugins.
fn test_plugin(name: &str) -> PathBuf {
    let file = format!("{}toolport_testplugin_{name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    // target/debug/deps/toolport_host-… → target/debug/examples/
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap().join("examples").join(file);
    assert!(path.exists(), "{} is not built; run `cargo build --workspace --examples`", path.display());
    path
}

fn v(major: u32, minor: u32) -> MajorMinor {
    MajorMinor { major, minor }
}

/// Each test plugin: the versions and features the handshake finds, or what its refusal says.
#[test]
fn the_handshake_reads_only_what_each_minor_has() {
    let features: &[&str] = &[features::SDK, &[features::NATIVE_MODEL]].concat();
    /// ABI, model, features.
    type Loaded<'a> = (MajorMinor, MajorMinor, &'a [&'a str]);
    let cases: [(&str, Result<Loaded, &str>); 6] = [
        ("old_minor", Ok((v(1, 0), v(1, 0), &[]))),
        ("new_minor", Ok((v(1, 4), v(1, 2), &["model-unknown-fields", "validate"]))),
        ("panics", Ok((ABI, MODEL_SCHEMA, features))),
        ("other_abi", Err("plugin speaks plugin ABI 99.x, this convert speaks ABI 1.3 and loads plugins of ABI 1.x")),
        ("other_model", Err("plugin uses model schema 2.0, this convert uses 1.")),
        ("wrong_magic", Err("not the toolport magic")),
    ];
    for (name, expected) in cases {
        let path = test_plugin(name);
        match (LoadedPlugin::load(&path), expected) {
            (Ok(plugin), Ok((abi, model, features))) => {
                assert_eq!(plugin.versions, PluginVersions { abi, model }, "{name}");
                assert_eq!(plugin.description.features, features, "{name}");
                assert_eq!(plugin.keeps_unknown_fields(), !features.is_empty(), "{name}");
            }
            (Err(e), Err(says)) => {
                let message = e.to_string();
                assert!(message.contains(says) && message.contains(&*path.to_string_lossy()), "{name}: {message}");
            }
            (got, expected) => panic!("{name}: got {got:?}, expected {expected:?}"),
        }
    }
}

/// The model a newer minor's reader returns reaches the host with its unknown fields kept.
#[test]
fn a_newer_minors_model_is_read_with_its_unknown_fields_kept() {
    let plugin = LoadedPlugin::load(&test_plugin("new_minor")).unwrap();
    let format = &plugin.formats()[0];
    let outcome = format.read(&Bundle::single("in.new", "{}"), &Options::default());
    let model = outcome.value.unwrap();
    assert_eq!(model.tools.len(), 2);
    let kept = &model.extras[toolport_core::UNKNOWN_FIELDS];
    assert_eq!(kept["/tools/0/parameters/0/schema/const"], "x");
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["input/unknown-key", "input/unknown-key"]);
    // Written back through the same plugin, and through a 1.0 plugin that refuses what it
    // does not know in the envelope.
    for to in ["new_minor", "old_minor"] {
        let writer = LoadedPlugin::load(&test_plugin(to)).unwrap();
        let written = writer.formats()[0].write(&model, &Options::default());
        assert_eq!(written.value.unwrap().files["tools.txt"], "from_new_minor\nalso_new\n", "{to}");
    }
}

/// Only plugins that list `texts-beside-json` are sent a bundle's texts beside the JSON (and
/// every request in that form, so their answers come in it); the others, which may predate
/// it, get plain JSON for every call.
#[test]
fn texts_go_beside_the_json_only_to_plugins_that_read_them() {
    use std::borrow::Cow;
    use toolport_plugin::abi::texts::TEXTS_MAGIC;
    use toolport_plugin::abi::{ModelJson, ReadRequest, VersionedRef, WriteRequest};

    let bundle = Bundle::single("in.json", r#"{"a": "\"quoted\""}"#);
    let options = Options::default();
    let model = toolport_core::ToolSet::default();
    let requests = DetectRequests::new(&bundle);
    for (name, beside) in [("old_minor", false), ("new_minor", false), ("panics", true)] {
        let plugin = LoadedPlugin::load(&test_plugin(name)).unwrap();
        assert_eq!(plugin.takes_texts_beside(), beside, "{name}");
        let detect = requests.for_plugin(&plugin).unwrap();
        let read = plugin
            .encode_with_bundle(&bundle, |bundle| {
                serde_json::to_vec(&ReadRequest { bundle: Cow::Borrowed(bundle), options: Cow::Borrowed(&options) })
            })
            .unwrap();
        let write = plugin
            .encode(&WriteRequest {
                model: ModelJson::Decoded(VersionedRef::new(&model, true)),
                options: Cow::Borrowed(&options),
            })
            .unwrap();
        for (call, bytes) in [("detect", detect), ("read", &read), ("write", &write)] {
            assert_eq!(bytes.starts_with(TEXTS_MAGIC), beside, "{name} {call}");
            assert_eq!(bytes.starts_with(b"{"), !beside, "{name} {call}");
        }
    }
}

/// A plugin in a folder others may write to is not loaded from --plugin-dir, the environment
/// or the user data folder (a `LoadError::Untrusted` naming the folder), unless allowed; one
/// installed beside convert is as safe as convert itself and loads.
#[cfg(unix)]
#[test]
fn plugins_from_folders_others_can_write_load_only_beside_convert_or_when_allowed() {
    use crate::discovery::{DiscoveryConfig, IsolationMode};
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let library = test_plugin("old_minor");
    std::fs::copy(&library, dir.path().join(library.file_name().unwrap())).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let discover = |config: DiscoveryConfig| {
        let mut config = config;
        config.isolation.mode = IsolationMode::Never;
        let registry = crate::Registry::discover(&config);
        (registry.formats().len(), registry.load_errors.iter().map(ToString::to_string).collect::<Vec<_>>())
    };
    let (found, errors) = discover(DiscoveryConfig { plugin_dirs: vec![dir.path().into()], ..Default::default() });
    assert_eq!(found, 0);
    assert!(
        errors.len() == 1 && errors[0].contains("not loaded: ") && errors[0].contains("is writable by every user"),
        "{errors:?}"
    );
    let allowed =
        DiscoveryConfig { plugin_dirs: vec![dir.path().into()], allow_unsafe_dirs: true, ..Default::default() };
    assert_eq!(discover(allowed), (1, Vec::new()));
    let beside = DiscoveryConfig { exe_dir: Some(dir.path().join("bin")), ..Default::default() };
    std::fs::create_dir_all(dir.path().join("bin/plugins")).unwrap();
    std::fs::copy(&library, dir.path().join("bin/plugins").join(library.file_name().unwrap())).unwrap();
    std::fs::set_permissions(dir.path().join("bin/plugins"), std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!(discover(beside), (1, Vec::new()));
}

/// A plugin of another build fingerprint (whose native entries abort if called) is handed the
/// model as JSON and hands its own over as JSON, however much it says it could do natively.
#[test]
fn a_plugin_of_another_build_gets_and_gives_the_model_as_json() {
    let plugin = LoadedPlugin::load(&test_plugin("other_build")).unwrap();
    assert!(plugin.description.has_feature(features::NATIVE_MODEL));
    assert!(!plugin.hands_over_natively());
    let format = &plugin.formats()[0];
    assert!(format.read_native(&Bundle::default(), &Options::default()).is_none());
    let model = toolport_core::ToolSet {
        title: Some("t".into()),
        tools: vec![toolport_core::Tool { name: "a".into(), ..Default::default() }],
        ..Default::default()
    };
    let written = format.write(&model, &Options::default()).value.unwrap();
    assert!(written.files["tools.model"].contains(r#""name": "a""#));
    assert_eq!(format.read(&written, &Options::default()).value.unwrap(), model);
}

/// A folder of copies of the test plugins `names` (in `plugins/` of a scratch folder), the
/// description cache's file beside it, and a discovery over the folder, in process, with it.
fn plugins_with_cache(names: &[&str]) -> (tempfile::TempDir, PathBuf, PathBuf, crate::discovery::DiscoveryConfig) {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir(&plugins).unwrap();
    for name in names {
        let library = test_plugin(name);
        std::fs::copy(&library, plugins.join(library.file_name().unwrap())).unwrap();
    }
    let cache = dir.path().join("cache/plugin-descriptions.json");
    let mut config = crate::discovery::DiscoveryConfig {
        plugin_dirs: vec![plugins.clone()],
        allow_unsafe_dirs: true,
        description_cache: Some(cache.clone()),
        ..Default::default()
    };
    config.isolation.mode = crate::discovery::IsolationMode::Never;
    (dir, plugins, cache, config)
}

/// With a description cache, a run loads a plugin only when one of its formats is used: the
/// first run loads every library and remembers what each said of itself; the next lists the
/// same formats from the cache and loads none until one is used, and then only that one. A
/// library changed since (another file in its place) is loaded at once again; a library that
/// fails to load is never remembered, so every run reports it; a cache that misdescribes a
/// library fails the call that loads it, saying so.
#[test]
fn a_described_plugin_is_loaded_when_a_format_of_it_is_first_used() {
    use crate::discovery::DiscoveryConfig;
    let (_dir, plugins, cache, config) = plugins_with_cache(&["old_minor", "new_minor", "wrong_magic"]);
    let listing = |registry: &crate::Registry| {
        let formats = registry.formats().iter();
        formats.map(|f| (f.info.clone(), f.plugin_path.clone(), f.plugin_version.clone())).collect::<Vec<_>>()
    };
    let loaded = |registry: &crate::Registry| {
        let formats = registry.formats().iter();
        formats
            .filter(|f| f.plugin.as_ref().is_some_and(|p| p.plugin().is_loaded()))
            .map(|f| f.info.id.clone())
            .collect::<Vec<_>>()
    };
    let errors = |registry: &crate::Registry| registry.load_errors.iter().map(ToString::to_string).collect::<Vec<_>>();

    let first = crate::Registry::discover(&config);
    assert_eq!(loaded(&first), ["new-minor", "old-minor"]);
    assert!(errors(&first).len() == 1 && errors(&first)[0].contains("toolport magic"), "{:?}", errors(&first));
    let cached = std::fs::read_to_string(&cache).unwrap();
    assert!(!cached.contains("wrong_magic"), "a library that failed to load is not remembered: {cached}");

    let second = crate::Registry::discover(&config);
    assert_eq!(listing(&second), listing(&first));
    assert_eq!(errors(&second), errors(&first));
    assert!(loaded(&second).is_empty(), "{:?}", loaded(&second));
    let read = second.format("old-minor").unwrap().format.read(&Bundle::single("in.old", "{}"), &Options::default());
    assert_eq!(read.value.unwrap().tools[0].name, "from_old_minor");
    assert_eq!(loaded(&second), ["old-minor"]);

    // Another file in new-minor's place: loaded at once, as the cache no longer describes it.
    let new_minor = plugins.join(test_plugin("new_minor").file_name().unwrap());
    std::fs::remove_file(&new_minor).unwrap();
    std::fs::copy(test_plugin("new_minor"), &new_minor).unwrap();
    assert_eq!(loaded(&crate::Registry::discover(&config)), ["new-minor"]);

    // A cache that says old-minor is another version than the library says it is.
    let lying = std::fs::read_to_string(&cache)
        .unwrap()
        .replace(r#""name":"old-minor","version":"0.0.0""#, r#""name":"old-minor","version":"9.9.9""#);
    assert_ne!(lying, std::fs::read_to_string(&cache).unwrap());
    std::fs::write(&cache, &lying).unwrap();
    let misled = crate::Registry::discover(&config);
    let read = misled.format("old-minor").unwrap().format.read(&Bundle::single("in.old", "{}"), &Options::default());
    assert!(read.value.is_none());
    let message = &read.diagnostics[0].message;
    assert!(message.contains("describes itself otherwise") && message.contains("run convert again"), "{message}");
    // Said once: a failed read is not a detection failure too.
    assert_eq!(misled.plugin_troubles(), Vec::<String>::new());
    // Loaded by detection instead, the library detects nothing and the run says why, once.
    std::fs::write(&cache, &lying).unwrap();
    let misled = crate::Registry::discover(&config);
    assert!(misled.detect(&Bundle::single("in.old", "{}"), false).is_empty());
    let troubles = misled.plugin_troubles();
    assert!(troubles.len() == 1 && troubles[0].contains("describes itself otherwise"), "{troubles:?}");
    // The cache is corrected: the next run lists the library as it is, and reads through it.
    let next = crate::Registry::discover(&config);
    assert_eq!(next.format("old-minor").unwrap().plugin_version.as_deref(), Some("0.0.0"));
    let read = next.format("old-minor").unwrap().format.read(&Bundle::single("in.old", "{}"), &Options::default());
    assert_eq!(read.value.unwrap().tools[0].name, "from_old_minor");

    // Asked to load every library (as `convert formats` is), a run lists each as it describes
    // itself, whatever the cache says.
    std::fs::write(&cache, &lying).unwrap();
    let every = crate::Registry::discover(&DiscoveryConfig { load_every_plugin: true, ..config.clone() });
    assert_eq!(every.format("old-minor").unwrap().plugin_version.as_deref(), Some("0.0.0"));
    assert_eq!(loaded(&every), ["new-minor", "old-minor"]);
}

/// A cache file that is not one (garbage, cut short, too large, a folder in its place) lists
/// nothing: every plugin is loaded as without a cache, and the file, where it can be, is
/// replaced by a good one.
#[test]
fn a_cache_that_is_not_one_is_ignored_and_replaced() {
    use crate::discovery::DiscoveryConfig;
    let (_dir, _, cache, config) = plugins_with_cache(&["old_minor"]);
    let loaded_now = |config: &DiscoveryConfig| {
        let registry = crate::Registry::discover(config);
        let format = registry.format("old-minor").unwrap().plugin.clone().unwrap();
        format.plugin().is_loaded()
    };
    assert!(loaded_now(&config), "no cache yet");
    let good = std::fs::read_to_string(&cache).unwrap();
    assert!(!loaded_now(&config), "from the cache");
    let huge = format!("{}{}", good, " ".repeat(5 << 20));
    for (what, text) in [("garbage", "{not json"), ("cut short", &good[..good.len() / 2]), ("too large", &huge)] {
        std::fs::write(&cache, text).unwrap();
        assert!(loaded_now(&config), "{what}");
        assert_eq!(std::fs::read_to_string(&cache).unwrap(), good, "{what}: replaced");
    }
    std::fs::remove_file(&cache).unwrap();
    std::fs::create_dir(&cache).unwrap();
    assert!(loaded_now(&config) && loaded_now(&config), "a folder in its place: never read or written");
}
