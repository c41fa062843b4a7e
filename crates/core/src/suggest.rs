//! Did-you-mean for names a user typed: formats, options, subcommands, diagnostic codes.

/// The candidate closest to `name` when `name` is likely a typo of it (a few letters added,
/// left out, swapped or changed), else `None`.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&name, &c.to_lowercase()), c))
        .filter(|(distance, c)| *distance <= (c.chars().count() / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}
