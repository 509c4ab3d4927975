//! The bot's own words to members and channels, in the server's
//! `general.locale` (issue #25): DMs about cases now, log posts and automod
//! notices as they come.
//!
//! The texts are [Project Fluent](https://projectfluent.org) catalogs, one
//! `.ftl` file per language beside this file, embedded in the binary and
//! parsed once ([`t`]). Fluent handles what string formatting cannot:
//! plurals by the language's rules (`1 minute`, `2 minutes`; `1 minuto`,
//! `2 minutos`) and word order per language. English (`en.ftl`) is the
//! reference: a locale the daemon has no catalog for, and a key a catalog
//! lacks, fall back to it; a test checks that every catalog has every key.
//!
//! To add a text: add the key to `en.ftl` and to every other catalog (the
//! test names what is missing), then call [`t`] with the key and its
//! arguments. To add a language: a new `.ftl` file, and a line in
//! [`CATALOGS`].
//!
//! What the bot says is plain text: escaping for the platform's markup is
//! the renderer's ([`crate::platform::post`]), so a catalog never holds
//! markup.

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// The locale every other falls back to.
pub const FALLBACK: &str = "en";

/// Each catalog: its locale tag (as `general.locale` spells it) and its
/// source. The first is [`FALLBACK`].
pub const CATALOGS: &[(&str, &str)] = &[
    ("en", include_str!("en.ftl")),
    ("pt-BR", include_str!("pt-BR.ftl")),
    ("de", include_str!("de.ftl")),
];

/// An argument of a text: words, or a number (which picks the plural form).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    /// Words, shown as given.
    Text(Cow<'a, str>),
    /// A number.
    Number(i64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Arg<'_> {
    fn from(text: String) -> Self {
        Arg::Text(Cow::Owned(text))
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Number(n)
    }
}

/// The catalogs, parsed once, in [`CATALOGS`] order.
static BUNDLES: LazyLock<Vec<(&'static str, FluentBundle<FluentResource>)>> = LazyLock::new(|| {
    CATALOGS
        .iter()
        .map(|(tag, source)| (*tag, bundle(tag, source)))
        .collect()
});

/// The bundle of one catalog. A catalog that does not parse is a bug
/// caught by the tests, so this panics rather than run with missing texts.
fn bundle(tag: &str, source: &str) -> FluentBundle<FluentResource> {
    let language: LanguageIdentifier = tag
        .parse()
        .unwrap_or_else(|e| panic!("catalog {tag}: not a language tag: {e}"));
    let resource = FluentResource::try_new(source.to_owned())
        .unwrap_or_else(|(_, errors)| panic!("catalog {tag}.ftl does not parse: {errors:?}"));
    let mut bundle = FluentBundle::new_concurrent(vec![language]);
    // Fluent wraps each argument in Unicode isolation marks by default,
    // invisible characters that would end up in DMs and in what tests and
    // members copy; the texts here do not mix writing directions.
    bundle.set_use_isolating(false);
    bundle
        .add_resource(resource)
        .unwrap_or_else(|errors| panic!("catalog {tag}.ftl repeats a key: {errors:?}"));
    bundle
}

/// The catalog for `locale`: its own, else one of the same language
/// (`pt` and `pt-PT` get `pt-BR`, `de-AT` gets `de`), else English.
fn catalog(locale: &str) -> &'static FluentBundle<FluentResource> {
    let language = |tag: &str| tag.split('-').next().unwrap_or(tag).to_owned();
    let bundles = &*BUNDLES;
    bundles
        .iter()
        .find(|(tag, _)| *tag == locale)
        .or_else(|| {
            bundles
                .iter()
                .find(|(tag, _)| language(tag) == language(locale))
        })
        .map_or(&bundles[0].1, |(_, bundle)| bundle)
}

/// The text `key` in `locale`, with `args` filled in. A locale without a
/// catalog, and a key its catalog lacks, give the English text; a key no
/// catalog has gives the key itself (a bug the catalog test catches).
pub fn t(locale: &str, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    let english = &BUNDLES[0].1;
    let bundle = catalog(locale);
    let (bundle, message) = match bundle.get_message(key).and_then(|m| m.value()) {
        Some(pattern) => (bundle, pattern),
        None => match english.get_message(key).and_then(|m| m.value()) {
            Some(pattern) => (english, pattern),
            None => return key.to_owned(),
        },
    };
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        let value = match value {
            Arg::Text(text) => FluentValue::from(text.as_ref()),
            Arg::Number(n) => FluentValue::from(*n),
        };
        fluent_args.set(*name, value);
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(message, Some(&fluent_args), &mut errors);
    if !errors.is_empty() {
        // A missing argument shows as `{$name}` in the text: readable, and
        // logged so the caller is fixed.
        tracing::warn!(key, locale, ?errors, "a text was formatted with errors");
    }
    text.into_owned()
}

/// A duration of `minutes` in `locale`, in the largest whole unit: `90
/// minutes`, `2 hours`, `3 days`.
pub fn duration(locale: &str, minutes: i64) -> String {
    let (key, n) = if minutes > 0 && minutes % 1440 == 0 {
        ("duration-days", minutes / 1440)
    } else if minutes > 0 && minutes % 60 == 0 {
        ("duration-hours", minutes / 60)
    } else {
        ("duration-minutes", minutes)
    };
    t(locale, key, &[("n", Arg::Number(n))])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message ids a catalog defines (`id = ...` at the start of a line).
    fn keys(source: &str) -> Vec<&str> {
        source
            .lines()
            .filter(|line| line.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|line| line.split_once(" =").map(|(id, _)| id.trim()))
            .collect()
    }

    #[test]
    fn every_catalog_has_every_english_key_and_no_other() {
        let english = keys(CATALOGS[0].1);
        assert!(english.len() > 10, "{english:?}");
        for (tag, source) in CATALOGS {
            let bundle = catalog(tag);
            let missing: Vec<&&str> = english.iter().filter(|k| !bundle.has_message(k)).collect();
            assert!(missing.is_empty(), "{tag}.ftl lacks {missing:?}");
            let extra: Vec<&str> = keys(source)
                .into_iter()
                .filter(|k| !english.contains(k))
                .collect();
            assert!(
                extra.is_empty(),
                "{tag}.ftl has keys en.ftl lacks: {extra:?}"
            );
        }
    }

    /// Every text formats without errors in every catalog with the
    /// arguments its callers give.
    #[test]
    fn every_text_formats_cleanly() {
        let args = [
            ("server", Arg::from("Server")),
            ("reason", Arg::from("spam")),
            ("case", Arg::Number(7)),
            ("duration", Arg::from("1 hour")),
            ("n", Arg::Number(2)),
            // The log posts' (`crate::logs::render`).
            ("number", Arg::Number(7)),
            ("action", Arg::from("ban")),
            ("minutes", Arg::Number(60)),
            ("section", Arg::from("automod")),
            ("before", Arg::from("1")),
            ("after", Arg::from("2")),
            ("filter", Arg::from("caps")),
            ("filters", Arg::from("caps, links")),
        ];
        let mut fluent_args = FluentArgs::new();
        for (name, value) in &args {
            match value {
                Arg::Text(text) => fluent_args.set(*name, text.to_string()),
                Arg::Number(n) => fluent_args.set(*name, *n),
            }
        }
        for (tag, _) in CATALOGS {
            let bundle = catalog(tag);
            for key in keys(CATALOGS[0].1) {
                let pattern = bundle.get_message(key).and_then(|m| m.value()).unwrap();
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
                assert!(errors.is_empty(), "{tag} {key}: {errors:?}");
                assert!(!text.contains('{'), "{tag} {key}: {text}");
            }
        }
    }

    #[test]
    fn locales_fall_back_by_language_then_to_english() {
        let ban = |locale| {
            t(
                locale,
                "dm-ban",
                &[
                    ("server", "S".into()),
                    ("reason", "spam".into()),
                    ("case", 3.into()),
                ],
            )
        };
        for (locale, want) in [
            ("en", "You have been banned from S: spam (case #3)"),
            ("pt-BR", "Você foi banido de S: spam (caso #3)"),
            ("pt", "Você foi banido de S: spam (caso #3)"),
            ("pt-PT", "Você foi banido de S: spam (caso #3)"),
            ("de-AT", "Du wurdest von S gebannt: spam (Fall #3)"),
            ("fr", "You have been banned from S: spam (case #3)"),
            ("", "You have been banned from S: spam (case #3)"),
        ] {
            assert_eq!(ban(locale), want, "{locale}");
        }
        assert_eq!(t("de", "no-such-key", &[]), "no-such-key");
    }

    #[test]
    fn durations_use_the_largest_whole_unit_and_plurals() {
        for (locale, minutes, want) in [
            ("en", 1, "1 minute"),
            ("en", 90, "90 minutes"),
            ("en", 60, "1 hour"),
            ("en", 120, "2 hours"),
            ("en", 1440, "1 day"),
            ("en", 4320, "3 days"),
            ("pt-BR", 1, "1 minuto"),
            ("pt-BR", 120, "2 horas"),
            ("de", 2880, "2 Tage"),
        ] {
            assert_eq!(duration(locale, minutes), want, "{locale} {minutes}");
        }
    }
}
