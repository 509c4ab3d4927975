//! The normalized form the word filter also matches on: Unicode NFKC,
//! confusables and homoglyphs cured (decancer, which also lowercases),
//! leetspeak digits and signs read as the letters they stand for, and
//! zero-width characters removed, so `ＢＡＤ`, `b4d` and `b\u{200B}ad` all
//! read `bad`.
//!
//! Each byte of the folded text remembers the raw character it came from,
//! so a match on the folded form can name the raw text it covers.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;

/// A text in its folded form, with the raw span of each folded byte.
#[derive(Debug)]
pub(super) struct Folded {
    /// The folded text.
    pub(super) text: String,
    /// For each byte of `text`, the raw byte range of the character it came from.
    origin: Vec<(u32, u32)>,
}

impl Folded {
    /// The raw byte range that the folded range `span` came from.
    pub(super) fn raw_span(&self, span: Range<usize>) -> Range<usize> {
        let start = self.origin[span.start].0 as usize;
        let end = self.origin[span.end - 1].1 as usize;
        start..end
    }
}

/// What a leetspeak character stands for; the letter itself otherwise.
fn leet(b: u8) -> u8 {
    match b {
        b'0' => b'o',
        b'1' => b'i',
        b'3' => b'e',
        b'4' => b'a',
        b'5' => b's',
        b'7' => b't',
        b'@' => b'a',
        b'$' => b's',
        other => other.to_ascii_lowercase(),
    }
}

/// Whether an ASCII byte folds to something other than its lowercase.
fn is_leet(b: u8) -> bool {
    matches!(b, b'0' | b'1' | b'3' | b'4' | b'5' | b'7' | b'@' | b'$')
}

/// Characters that render as nothing and are slipped inside words to split
/// them for a filter (and the soft hyphen, which is invisible unless a line
/// breaks there).
fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

/// Whether folding `text` can change what an ASCII case-insensitive match
/// finds: only non-ASCII text and leetspeak characters can. Most messages
/// answer no, and are matched once, without allocating.
pub(super) fn needs_folding(text: &str) -> bool {
    text.bytes().any(|b| !b.is_ascii() || is_leet(b))
}

/// The folded form of `text`.
pub(super) fn fold(text: &str) -> Folded {
    let mut folded = Folded {
        text: String::with_capacity(text.len()),
        origin: Vec::with_capacity(text.len()),
    };
    let push = |folded: &mut Folded, c: char, span: (u32, u32)| {
        for lower in c.to_lowercase() {
            let lower = if lower.is_ascii() {
                char::from(leet(lower as u8))
            } else {
                lower
            };
            folded.text.push(lower);
            folded.origin.resize(folded.text.len(), span);
        }
    };
    for (at, c) in text.char_indices() {
        let span = (at as u32, (at + c.len_utf8()) as u32);
        if c.is_ascii() {
            push(&mut folded, c, span);
            continue;
        }
        if is_zero_width(c) {
            continue;
        }
        for d in std::iter::once(c).nfkc() {
            if d.is_ascii() {
                push(&mut folded, d, span);
                continue;
            }
            if is_zero_width(d) {
                continue;
            }
            match decancer::cure_char(d, decancer::Options::default()) {
                decancer::Translation::Character(cured) => push(&mut folded, cured, span),
                decancer::Translation::String(cured) => cured
                    .chars()
                    .for_each(|cured| push(&mut folded, cured, span)),
                decancer::Translation::None => {}
            }
        }
    }
    folded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_width_case_leetspeak_zero_width_and_confusables() {
        let cases = [
            ("ＢＡＤ", "bad"),
            ("b4d", "bad"),
            ("B\u{200B}A\u{200D}D", "bad"),
            ("$h1t", "shit"),
            ("𝔟𝔞𝔡", "bad"),
            ("bаd", "bad"), // a Cyrillic а in the middle
            ("plain words", "plain words"),
        ];
        for (raw, want) in cases {
            assert_eq!(fold(raw).text, want, "folding {raw:?}");
        }
    }

    #[test]
    fn a_folded_span_names_the_raw_text_it_came_from() {
        let raw = "so ＢＡＤ!";
        let folded = fold(raw);
        let at = folded.text.find("bad").unwrap();
        assert_eq!(&raw[folded.raw_span(at..at + 3)], "ＢＡＤ");
    }

    #[test]
    fn only_non_ascii_and_leetspeak_need_folding() {
        assert!(!needs_folding("Hello THERE, friend."));
        assert!(needs_folding("b4d"));
        assert!(needs_folding("ＢＡＤ"));
    }
}
