//! The blocked-words filter: every word of the list in one aho-corasick
//! automaton per form (raw text, folded text), whole words unless the entry
//! has `*` at an end (`bad*` starts a word, `*bad` ends one, `*bad*`
//! anywhere).

use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::fold::{self, Folded};

/// Which ends of a match must fall on a word boundary.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    start: bool,
    end: bool,
}

/// A compiled word list.
#[derive(Debug)]
pub(super) struct Words {
    /// Over the raw text, ASCII case-insensitive.
    raw: AhoCorasick,
    /// Over the folded text, of the folded words.
    folded: AhoCorasick,
    /// Per pattern (the same index in both automata).
    bounds: Vec<Bounds>,
}

/// What the list found in one message: each match's raw text, and its
/// folded form when only the folded text matched.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Found {
    pub(super) matches: Vec<(String, Option<String>)>,
}

impl Words {
    /// Compiles `words`; entries that are nothing but `*` are left out (they
    /// would block every message).
    pub(super) fn new(words: &[String]) -> Words {
        let mut raw = Vec::with_capacity(words.len());
        let mut folded = Vec::with_capacity(words.len());
        let mut bounds = Vec::with_capacity(words.len());
        for word in words {
            let word = word.trim();
            let start = !word.starts_with('*');
            let end = !word.ends_with('*');
            let core = word.trim_matches('*');
            if core.is_empty() {
                continue;
            }
            raw.push(core.to_lowercase());
            folded.push(fold::fold(core).text);
            bounds.push(Bounds { start, end });
        }
        let build = |patterns: &[String], insensitive: bool| {
            AhoCorasick::builder()
                .ascii_case_insensitive(insensitive)
                .match_kind(MatchKind::Standard)
                .kind(Some(AhoCorasickKind::DFA))
                .build(patterns)
                // 500 words of at most 100 characters stay far below the
                // automaton's limits.
                .expect("the word list compiles")
        };
        Words {
            raw: build(&raw, true),
            folded: build(&folded, false),
            bounds,
        }
    }

    /// The blocked words in `text`, each place counted once, in text order.
    pub(super) fn find(&self, text: &str) -> Found {
        let mut spans = self.spans(&self.raw, text);
        let mut found = Found::default();
        let folded: Option<Folded> = fold::needs_folding(text).then(|| fold::fold(text));
        let mut folded_spans = Vec::new();
        if let Some(folded) = &folded {
            for span in self.spans(&self.folded, &folded.text) {
                let raw = folded.raw_span(span.clone());
                if !spans.iter().any(|s| s.start == raw.start) {
                    folded_spans.push((raw, span));
                }
            }
        }
        if spans.is_empty() && folded_spans.is_empty() {
            return found;
        }
        spans.sort_by_key(|s| s.start);
        let mut all: Vec<(Range<usize>, Option<Range<usize>>)> =
            spans.into_iter().map(|s| (s, None)).collect();
        all.extend(folded_spans.into_iter().map(|(raw, f)| (raw, Some(f))));
        all.sort_by_key(|(raw, _)| raw.start);
        all.dedup_by_key(|(raw, _)| raw.start);
        found.matches = all
            .into_iter()
            .map(|(raw, f)| {
                let normalized = f.and_then(|f| {
                    let form = &folded.as_ref()?.text[f];
                    (form != &text[raw.clone()]).then(|| form.to_owned())
                });
                (text[raw].to_owned(), normalized)
            })
            .collect();
        found
    }

    /// The spans of `text` where a word of `automaton` matches within its
    /// bounds, one per start.
    fn spans(&self, automaton: &AhoCorasick, text: &str) -> Vec<Range<usize>> {
        let mut spans: Vec<Range<usize>> = Vec::new();
        for m in automaton.find_overlapping_iter(text) {
            let bounds = self.bounds[m.pattern().as_usize()];
            if bounds.start && !boundary_before(text, m.start()) {
                continue;
            }
            if bounds.end && !boundary_after(text, m.end()) {
                continue;
            }
            if !spans.iter().any(|s| s.start == m.start()) {
                spans.push(m.range());
            }
        }
        spans
    }
}

/// Whether a character that makes words (a letter or a digit) is there.
fn is_word(c: Option<char>) -> bool {
    c.is_some_and(char::is_alphanumeric)
}

fn boundary_before(text: &str, at: usize) -> bool {
    !is_word(text[..at].chars().next_back())
}

fn boundary_after(text: &str, at: usize) -> bool {
    !is_word(text[at..].chars().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match: its raw text and the normalized form, when only that matched.
    type Match = (String, Option<String>);

    fn found(words: &[&str], text: &str) -> Vec<Match> {
        let words: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        Words::new(&words).find(text).matches
    }

    fn m(raw: &str, normalized: Option<&str>) -> Match {
        (raw.to_owned(), normalized.map(str::to_owned))
    }

    #[test]
    fn whole_words_wildcards_and_folding() {
        #[rustfmt::skip]
        let cases: &[(&[&str], &str, Vec<Match>)] = &[
            // Whole words by default.
            (&["ass"], "first class", vec![]),
            (&["ass"], "what an ass!", vec![m("ass", None)]),
            (&["ass"], "ASS", vec![m("ASS", None)]),
            (&["bad"], "badly", vec![]),
            // Wildcards.
            (&["bad*"], "badly done", vec![m("bad", None)]),
            (&["bad*"], "notbad", vec![]),
            (&["*bad"], "notbad", vec![m("bad", None)]),
            (&["*bad"], "badly", vec![]),
            (&["*bad*"], "unbadly", vec![m("bad", None)]),
            (&["*"], "anything", vec![]),
            // Folding: width, leetspeak, zero-width, confusables.
            (&["bad"], "so ＢＡＤ", vec![m("ＢＡＤ", Some("bad"))]),
            (&["bad"], "b4d one", vec![m("b4d", Some("bad"))]),
            (&["bad"], "b\u{200B}ad", vec![m("b\u{200B}ad", Some("bad"))]),
            (&["bad"], "bаd", vec![m("bаd", Some("bad"))]),
            (&["b4d"], "b4d", vec![m("b4d", None)]),
            // Leetspeak does not make a word out of a number next to letters.
            (&["bad"], "b4dge", vec![]),
            // Several words, in text order, each place once.
            (&["bad", "worse"], "worse and bad", vec![m("worse", None), m("bad", None)]),
            (&["bad", "bad*"], "bad", vec![m("bad", None)]),
        ];
        for (words, text, want) in cases {
            assert_eq!(&found(words, text), want, "{words:?} in {text:?}");
        }
    }
}
