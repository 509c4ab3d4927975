//! The captcha of `welcome.verification: captcha` (issue #26): a code of
//! [`CODE_LEN`] digits the daemon draws into an image ([`render`]), which
//! the member answers the platform's way (docs/api.md, "Verification
//! (issue #26)"): typed into a Discord modal, pressed digit by digit on a
//! Telegram inline keypad (a restricted member cannot send a message).
//!
//! Digits only: the same alphabet on a keypad and in a text field, and no
//! look-alike letters to argue about. [`MAX_WRONG`] wrong answers in all
//! (then the member waits out their deadline and is kicked, or a
//! moderator lets them in) and [`MAX_CHALLENGES`] challenges (the first
//! and the new ones asked for): a script guessing has at most
//! `MAX_WRONG` tries at 1 in 10^5 each.
//!
//! This module is the pure part: the ids of the buttons, the code drawn
//! from the OS's randomness, and what an answer or a key press does to a
//! member's [`Captcha`]; `flow` carries it out.

pub mod flow;
pub mod render;

use crate::store::verifications::Captcha;

/// The code's length in digits.
pub const CODE_LEN: usize = 5;

/// Wrong answers allowed in all, whatever the challenge.
pub const MAX_WRONG: i64 = 3;

/// Challenges a member may get: the first and the new ones asked for.
pub const MAX_CHALLENGES: i64 = 4;

/// The start of every captcha button's id (Discord `custom_id`, Telegram
/// `callback_data`), apart from the verify button's so a press of one is
/// never taken for the other.
pub const PREFIX: &str = "modctl:captcha:";

/// What a captcha button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// Discord: open the modal to type the code in.
    Enter,
    /// Discord: the modal sent (its text field names the code).
    Answer,
    /// A new challenge.
    New,
    /// Telegram's keypad: one digit.
    Digit(char),
    /// Telegram's keypad: start the code over.
    Erase,
}

impl Key {
    fn word(self) -> String {
        match self {
            Key::Enter => "enter".into(),
            Key::Answer => "answer".into(),
            Key::New => "new".into(),
            Key::Erase => "erase".into(),
            Key::Digit(d) => d.to_string(),
        }
    }

    fn from_word(word: &str) -> Option<Key> {
        Some(match word {
            "enter" => Key::Enter,
            "answer" => Key::Answer,
            "new" => Key::New,
            "erase" => Key::Erase,
            d if d.len() == 1 && d.chars().all(|c| c.is_ascii_digit()) => {
                Key::Digit(d.chars().next()?)
            }
            _ => return None,
        })
    }
}

/// A Discord button's (or the modal's) `custom_id`: shared by every member
/// (the verify message is), the presser is the interaction's user.
pub fn discord_id(key: Key) -> String {
    format!("{PREFIX}{}", key.word())
}

/// A Telegram keypad button's `callback_data`, naming the member it was
/// posted for (at most 15 + 20 + 6 bytes of Telegram's 64).
pub fn telegram_data(user: &str, key: Key) -> String {
    format!("{PREFIX}{user}:{}", key.word())
}

/// A captcha button's id read back: the member it names (Telegram's), and
/// its key; `None` for any other id.
pub fn parse(id: &str) -> Option<(Option<&str>, Key)> {
    let rest = id.strip_prefix(PREFIX)?;
    match rest.split_once(':') {
        Some((user, word)) if !user.is_empty() => Some((Some(user), Key::from_word(word)?)),
        Some(_) => None,
        None => Some((None, Key::from_word(rest)?)),
    }
}

/// A new code and the seed of its image, from the OS's randomness.
pub fn new_code() -> Result<(String, u64), getrandom::Error> {
    let mut bytes = [0u8; CODE_LEN + 8];
    getrandom::fill(&mut bytes)?;
    // 256 is not a multiple of 10: the bias (6 in 256 toward 0-5) is
    // immaterial at 3 tries in 10^5.
    let code = bytes[..CODE_LEN]
        .iter()
        .map(|b| char::from(b'0' + b % 10))
        .collect();
    let seed = u64::from_le_bytes(bytes[CODE_LEN..].try_into().expect("8 bytes"));
    Ok((code, seed))
}

/// What an answer does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The code is right: the member is verified.
    Right,
    /// Wrong: counted.
    Wrong,
    /// No tries left: not even looked at.
    Spent,
    /// No challenge was issued to answer.
    NoChallenge,
    /// The keypad holds these digits, not the whole code yet.
    Partial(String),
}

/// The member typed `typed` (spaces and a dash or two forgiven).
pub fn answer(captcha: &Captcha, typed: &str) -> Outcome {
    if captcha.wrong_answers >= MAX_WRONG {
        return Outcome::Spent;
    }
    let Some(code) = &captcha.code else {
        return Outcome::NoChallenge;
    };
    let typed: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if typed == *code {
        Outcome::Right
    } else {
        Outcome::Wrong
    }
}

/// The member pressed `key` on the keypad.
pub fn press(captcha: &Captcha, key: Key) -> Outcome {
    if captcha.wrong_answers >= MAX_WRONG {
        return Outcome::Spent;
    }
    match key {
        Key::Digit(d) => {
            let entered = format!("{}{d}", captcha.entered);
            if entered.len() < CODE_LEN {
                Outcome::Partial(entered)
            } else {
                answer(captcha, &entered)
            }
        }
        Key::Erase => Outcome::Partial(String::new()),
        Key::Enter | Key::Answer | Key::New => Outcome::Partial(captcha.entered.clone()),
    }
}

/// What a member is told of the tries left after a wrong answer, when
/// `wrong` answers were counted.
pub fn wrong_answer_text(wrong: i64) -> String {
    match MAX_WRONG - wrong {
        left if left <= 0 => "Wrong code, and that was your last try: a moderator can still let you in; otherwise you will be removed when your time to verify is up.".to_owned(),
        1 => "Wrong code: 1 try left. You may ask for a new challenge.".to_owned(),
        left => format!("Wrong code: {left} tries left. You may ask for a new challenge."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captcha(code: Option<&str>, entered: &str, wrong: i64) -> Captcha {
        Captcha {
            code: code.map(str::to_owned),
            entered: entered.to_owned(),
            wrong_answers: wrong,
            challenges: 1,
        }
    }

    #[test]
    fn ids_read_back_as_what_they_were_made_of() {
        for key in [
            Key::Enter,
            Key::Answer,
            Key::New,
            Key::Erase,
            Key::Digit('7'),
        ] {
            assert_eq!(parse(&discord_id(key)), Some((None, key)));
            assert_eq!(parse(&telegram_data("123", key)), Some((Some("123"), key)));
        }
        let table = [
            "modctl:verify",
            "modctl:verify:123",
            "modctl:captcha:",
            "modctl:captcha:bogus",
            "modctl:captcha:123:12",
            "modctl:captcha::new",
        ];
        for id in table {
            assert_eq!(parse(id), None, "{id}");
        }
        assert!(telegram_data("12345678901234567890", Key::Erase).len() <= 64);
    }

    #[test]
    fn codes_are_digits_of_the_stated_length_and_differ() {
        let (a, _) = new_code().unwrap();
        assert_eq!(a.len(), CODE_LEN);
        assert!(a.chars().all(|c| c.is_ascii_digit()));
        let many: std::collections::HashSet<_> = (0..20).map(|_| new_code().unwrap().0).collect();
        assert!(many.len() > 15, "{}", many.len());
    }

    #[test]
    fn answers_are_judged_within_the_tries() {
        let table = [
            (captcha(Some("12345"), "", 0), "12345", Outcome::Right),
            (captcha(Some("12345"), "", 2), " 123-45 ", Outcome::Right),
            (captcha(Some("12345"), "", 0), "12346", Outcome::Wrong),
            (captcha(Some("12345"), "", 0), "", Outcome::Wrong),
            (captcha(Some("12345"), "", 3), "12345", Outcome::Spent),
            (captcha(None, "", 0), "12345", Outcome::NoChallenge),
        ];
        for (c, typed, expected) in table {
            assert_eq!(answer(&c, typed), expected, "{c:?} {typed:?}");
        }
    }

    #[test]
    fn the_keypad_collects_digits_then_judges() {
        let p = |s: &str| Outcome::Partial(s.to_owned());
        let table = [
            (captcha(Some("12345"), "", 0), Key::Digit('1'), p("1")),
            (captcha(Some("12345"), "123", 0), Key::Digit('4'), p("1234")),
            (
                captcha(Some("12345"), "1234", 0),
                Key::Digit('5'),
                Outcome::Right,
            ),
            (
                captcha(Some("12345"), "1234", 0),
                Key::Digit('6'),
                Outcome::Wrong,
            ),
            (captcha(Some("12345"), "123", 0), Key::Erase, p("")),
            (
                captcha(Some("12345"), "1", 3),
                Key::Digit('2'),
                Outcome::Spent,
            ),
        ];
        for (c, key, expected) in table {
            assert_eq!(press(&c, key), expected, "{c:?} {key:?}");
        }
    }

    #[test]
    fn the_member_is_told_the_tries_left() {
        assert!(wrong_answer_text(1).contains("2 tries left"));
        assert!(wrong_answer_text(2).contains("1 try left"));
        assert!(wrong_answer_text(3).contains("last try"));
    }
}
