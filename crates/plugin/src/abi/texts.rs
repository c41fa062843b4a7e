//! File texts carried beside a message's JSON instead of inside it (since ABI 1.2, between
//! sides that have [`features::TEXTS_BESIDE_JSON`](super::features::TEXTS_BESIDE_JSON)).
//!
//! Inside JSON, a file's text is escaped by one side and unescaped by the other: for a 4 MB
//! OpenAPI document that is most of what detection costs, since every candidate format decodes
//! the whole text. Beside the JSON it is copied once and checked as UTF-8.
//!
//! The form: [`TEXTS_MAGIC`], the number of texts (u32 LE), each text's length in bytes (u64 LE
//! each), the JSON's length (u64 LE), the JSON, then the texts one after another. The message's
//! one bundle ([`CarriesBundle`]: a detect or read request's `bundle`, a write response's
//! value) is in the JSON with every file's text empty, and the texts are its files' texts in
//! the bundle's order. Plain JSON never starts with the magic's NUL, so a receiver tells the two
//! forms apart by the first byte and reads either. A sender uses this form only toward a
//! receiver that has the feature: the host toward plugins that list it, a plugin in its answer
//! to a request in this form (an older host never sees it).

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolport_core::{Bundle, Detection, Outcome, VersionedToolSet};

use super::{DetectRequest, PluginDescription, ReadRequest, WriteRequest, decode_message};

/// The first bytes of a message with texts beside its JSON.
pub const TEXTS_MAGIC: &[u8; 8] = b"\0TPTEXT1";

/// A message type and the bundle it carries, if any, whose texts may travel beside its JSON.
pub trait CarriesBundle {
    fn bundle_mut(&mut self) -> Option<&mut Bundle>;
}

impl CarriesBundle for Bundle {
    fn bundle_mut(&mut self) -> Option<&mut Bundle> {
        Some(self)
    }
}

impl CarriesBundle for DetectRequest<'_> {
    fn bundle_mut(&mut self) -> Option<&mut Bundle> {
        Some(self.bundle.to_mut())
    }
}

impl CarriesBundle for ReadRequest<'_> {
    fn bundle_mut(&mut self) -> Option<&mut Bundle> {
        Some(self.bundle.to_mut())
    }
}

impl<T: CarriesBundle> CarriesBundle for Outcome<T> {
    fn bundle_mut(&mut self) -> Option<&mut Bundle> {
        self.value.as_mut()?.bundle_mut()
    }
}

macro_rules! no_bundle {
    ($($t:ty),*) => {$(
        impl CarriesBundle for $t {
            fn bundle_mut(&mut self) -> Option<&mut Bundle> {
                None
            }
        }
    )*};
}
no_bundle!(WriteRequest<'_>, bool, Detection, VersionedToolSet, PluginDescription, Box<RawValue>, ());

/// `bundle` with every file's text empty (names, other and binary files kept), and the texts
/// in the bundle's order: what [`encode`] sends.
pub fn hollow(bundle: &Bundle) -> (Bundle, Vec<&str>) {
    let shell = Bundle {
        entry: bundle.entry.clone(),
        files: bundle.files.keys().map(|name| (name.clone(), String::new())).collect(),
        other_files: bundle.other_files.clone(),
        binary_files: bundle.binary_files.clone(),
    };
    (shell, bundle.files.values().map(String::as_str).collect())
}

/// Takes the texts out of `bundle` (leaving them empty), in its order: what [`encode`] sends.
pub fn take_texts(bundle: &mut Bundle) -> Vec<String> {
    bundle.files.values_mut().map(std::mem::take).collect()
}

/// `message` (whose bundle's texts are empty) as JSON with `texts` beside it.
pub fn encode<T: Serialize + ?Sized>(message: &T, texts: &[&str]) -> serde_json::Result<Vec<u8>> {
    let text_bytes: usize = texts.iter().map(|t| t.len()).sum();
    let mut out = with_json(header(texts, text_bytes), message)?;
    append_texts(&mut out, texts);
    Ok(out)
}

/// As [`encode`], taking the texts: the last one's memory becomes the message's, the header,
/// the JSON and the other texts moved in before it, so a writer's answer of one large file is
/// not held twice while it is framed (it cost the text's size again, beside the model the
/// writer was given).
pub fn encode_taken<T: Serialize + ?Sized>(message: &T, mut texts: Vec<String>) -> serde_json::Result<Vec<u8>> {
    let Some(last) = texts.pop() else { return encode(message, &[]) };
    let mut head = {
        let all: Vec<&str> = texts.iter().map(String::as_str).chain([last.as_str()]).collect();
        let text_bytes = texts.iter().map(String::len).sum();
        with_json(header(&all, text_bytes), message)?
    };
    for text in texts {
        head.extend_from_slice(text.as_bytes());
    }
    let mut out = last.into_bytes();
    let text_length = out.len();
    // Exactly the head's length more: growth by doubling would reserve the text's size again.
    out.reserve_exact(head.len());
    out.resize(text_length + head.len(), 0);
    out.copy_within(..text_length, head.len());
    out[..head.len()].copy_from_slice(&head);
    Ok(out)
}

/// A message already encoded as `json` (its bundle's texts empty) with `texts` beside it.
pub fn frame(json: &[u8], texts: &[&str]) -> Vec<u8> {
    let mut out = header(texts, json.len() + texts.iter().map(|t| t.len()).sum::<usize>());
    out.extend_from_slice(&(json.len() as u64).to_le_bytes());
    out.extend_from_slice(json);
    append_texts(&mut out, texts);
    out
}

/// The magic, the number of texts and their lengths, with room for `more` bytes and a small JSON.
fn header(texts: &[&str], more: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(TEXTS_MAGIC.len() + 4 + 8 * texts.len() + 8 + more + 1024);
    out.extend_from_slice(TEXTS_MAGIC);
    out.extend_from_slice(&(texts.len() as u32).to_le_bytes());
    for text in texts {
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    }
    out
}

/// `out` followed by the JSON's length (u64 LE) and `message` as JSON.
fn with_json<T: Serialize + ?Sized>(mut out: Vec<u8>, message: &T) -> serde_json::Result<Vec<u8>> {
    let json_length_at = out.len();
    out.extend_from_slice(&[0; 8]);
    serde_json::to_writer(&mut out, message)?;
    let json_length = (out.len() - json_length_at - 8) as u64;
    out[json_length_at..json_length_at + 8].copy_from_slice(&json_length.to_le_bytes());
    Ok(out)
}

fn append_texts(out: &mut Vec<u8>, texts: &[&str]) {
    out.reserve(texts.iter().map(|t| t.len()).sum());
    for text in texts {
        out.extend_from_slice(text.as_bytes());
    }
}

/// Decodes a message in either form; says whether its texts came beside it (a plugin answers
/// in the form it was asked in). A bundle's texts are checked as UTF-8 and counted against its
/// files.
pub fn decode<'a, T: Deserialize<'a> + CarriesBundle>(bytes: &'a [u8]) -> Result<(T, bool), String> {
    let Some((json, texts)) = split(bytes)? else {
        return decode_message(bytes).map(|message| (message, false)).map_err(|e| e.to_string());
    };
    let mut message: T = decode_message(json).map_err(|e| e.to_string())?;
    // Every file of the bundle has its text beside the JSON, so a count that differs (none
    // for a bundle of files included) is a damaged message, not empty files.
    match message.bundle_mut() {
        None if texts.is_empty() => {}
        None => return Err(format!("{} texts came beside a message that carries no bundle", texts.len())),
        Some(bundle) if texts.len() != bundle.files.len() => {
            return Err(format!("{} texts came beside a bundle of {} files", texts.len(), bundle.files.len()));
        }
        Some(bundle) => {
            for ((name, slot), text) in bundle.files.iter_mut().zip(texts) {
                let text = std::str::from_utf8(text).map_err(|e| format!("the text of {name} is not UTF-8: {e}"))?;
                *slot = text.to_owned();
            }
        }
    }
    Ok((message, true))
}

/// Whether `message` is in the texts-beside form (plain JSON never starts with NUL).
pub fn is_beside(message: &[u8]) -> bool {
    message.first() == Some(&0)
}

/// A message in the texts-beside form, taken apart: its JSON and its texts.
type Parts<'a> = (&'a [u8], Vec<&'a [u8]>);

/// The JSON and the texts of a message in the texts-beside form; `None` for plain JSON.
fn split(bytes: &[u8]) -> Result<Option<Parts<'_>>, String> {
    if !is_beside(bytes) {
        return Ok(None);
    }
    let truncated = || "the message with texts beside its JSON is cut short".to_owned();
    let rest =
        bytes.strip_prefix(TEXTS_MAGIC.as_slice()).ok_or("the message starts with NUL but not with the texts magic")?;
    let (count, mut rest) = rest.split_first_chunk::<4>().ok_or_else(truncated)?;
    let count = u32::from_le_bytes(*count) as usize;
    let mut lengths = Vec::with_capacity(count.min(rest.len() / 8));
    for _ in 0..count {
        let (length, after) = rest.split_first_chunk::<8>().ok_or_else(truncated)?;
        lengths.push(usize::try_from(u64::from_le_bytes(*length)).map_err(|_| truncated())?);
        rest = after;
    }
    let (json_length, rest) = rest.split_first_chunk::<8>().ok_or_else(truncated)?;
    let json_length = usize::try_from(u64::from_le_bytes(*json_length)).map_err(|_| truncated())?;
    let (json, mut rest) = rest.split_at_checked(json_length).ok_or_else(truncated)?;
    let mut texts = Vec::with_capacity(count);
    for length in lengths {
        let (text, after) = rest.split_at_checked(length).ok_or_else(truncated)?;
        texts.push(text);
        rest = after;
    }
    if !rest.is_empty() {
        return Err(format!("{} bytes follow the last text of the message", rest.len()));
    }
    Ok(Some((json, texts)))
}
