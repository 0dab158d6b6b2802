//! Twin of mysticvale/engine/actions.py: an action's text notation, read and written
//! exactly as the Python engine does, with its error messages.
//!
//! An action is a verb plus arguments, written as words separated by single spaces
//! (`buy 2.3`, `use #7.2`, `discard #7`). [`Notation`] is that syntax; whether an action is
//! legal is the rules' business, never the parser's.
#![forbid(unsafe_code)]

use std::fmt;
use std::str::FromStr;

use crate::errors::py_repr;

macro_rules! verbs {
    ($($variant:ident => $word:literal: $doc:literal,)*) => {
        /// Every verb the engine uses (Python's `VERBS`, in its order).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Verb {
            $(#[doc = $doc] $variant,)*
        }

        /// Every verb, in Python's `VERBS` order (the order its error message lists them).
        pub const VERBS: &[Verb] = &[$(Verb::$variant,)*];

        impl Verb {
            /// The verb as written.
            pub fn word(self) -> &'static str {
                match self {
                    $(Verb::$variant => $word,)*
                }
            }

            /// The verb of a (lower-case) word.
            pub fn from_word(word: &str) -> Option<Verb> {
                match word {
                    $($word => Some(Verb::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

verbs! {
    Push => "push": "play your on-deck card into your field and reveal the next",
    Pass => "pass": "stop planting and go to your Harvest phase",
    Buy => "buy": "buy an advancement from the commons",
    Vale => "vale": "buy a vale card",
    Token => "token": "spend your active mana token for 1 mana",
    Use => "use": "use an ability",
    Trade => "trade": "trade 3 spare spirit symbols for 1 VP from the reserve",
    Finish => "finish": "finish your Harvest phase",
    Sleeve => "sleeve": "sleeve the bought advancement on a card in your field",
    Discard => "discard": "discard the named card",
    Keep => "keep": "keep the card(s) where they are",
    Skip => "skip": "do not use this optional ability",
    Resolve => "resolve": "resolve this ability next",
    Spoil => "spoil": "accept spoiling",
    Guard => "guard": "use a spoil guard instead of spoiling",
    Take => "take": "take the named card",
    Choose => "choose": "choose an option",
    Order => "order": "put the cards back in this order",
    Upgrade => "upgrade": "pay a leader's upgrade cost to turn it to its upgraded side",
    Give => "give": "give the named card or vale to another player",
    Stop => "stop": "stop the Prep phase now (German rules: more than 2 decay symbols show)",
    Reveal => "reveal": "reveal the next on-deck card (after a When Played ability, with Finish Turn)",
}

/// An action's notation: its verb and argument words (each matching Python's `_TOKEN`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Notation {
    /// The verb.
    pub verb: Verb,
    /// The argument words.
    pub args: Vec<Box<str>>,
}

/// Text that is not action notation (Python's `InvalidActionError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidAction {
    /// Nothing but whitespace.
    Empty,
    /// The first word is no verb.
    UnknownVerb {
        /// The word, as written.
        word: String,
        /// The whole text.
        text: String,
    },
    /// An argument word has a character notation never uses.
    UnexpectedCharacters {
        /// The word.
        word: String,
        /// Its place among the text's words (the verb is 0).
        position: usize,
        /// The whole text.
        text: String,
    },
}

impl InvalidAction {
    /// The message, quoting texts with `repr` (Python's `repr` in the Python face, so that
    /// the message is Python's for any text; [`py_repr`] in Rust).
    pub fn message_with(&self, repr: impl Fn(&str) -> String) -> String {
        match self {
            InvalidAction::Empty => "empty action text".to_owned(),
            InvalidAction::UnknownVerb { word, text } => {
                let verbs: Vec<&str> = VERBS.iter().map(|v| v.word()).collect();
                format!("unknown verb {} in {}; verbs are: {}", repr(word), repr(text), verbs.join(", "))
            }
            InvalidAction::UnexpectedCharacters { word, text, .. } => {
                format!("unexpected characters in {} of {}", repr(word), repr(text))
            }
        }
    }
}

impl fmt::Display for InvalidAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_with(py_repr))
    }
}

impl std::error::Error for InvalidAction {}

/// Python's `str.isspace()`: Unicode White_Space plus the four ASCII separators
/// U+001C-U+001F (which Python counts as whitespace and Rust does not).
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `_TOKEN`: `^[A-Za-z0-9#.+_\-,:]+$`.
fn is_token(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"#.+_-,:".contains(&b))
}

impl FromStr for Notation {
    type Err = InvalidAction;

    /// Read notation as Python's `Action.parse`: surrounding whitespace is ignored, the verb
    /// is case-insensitive, arguments are kept as written.
    fn from_str(text: &str) -> Result<Notation, InvalidAction> {
        let mut words = text.split(is_py_space).filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            return Err(InvalidAction::Empty);
        };
        let Some(verb) = Verb::from_word(&first.to_lowercase()) else {
            return Err(InvalidAction::UnknownVerb { word: first.to_owned(), text: text.to_owned() });
        };
        let mut args = Vec::new();
        for (i, w) in words.enumerate() {
            if !is_token(w) {
                let (word, text) = (w.to_owned(), text.to_owned());
                return Err(InvalidAction::UnexpectedCharacters { word, position: i + 1, text });
            }
            args.push(w.into());
        }
        Ok(Notation { verb, args })
    }
}

impl fmt::Display for Notation {
    /// The verb and the arguments, separated by single spaces (Python's `str(action)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.verb.word())?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// Notation of a card id (`#7`, Python's `card_ref`).
pub fn card_ref(card: u16) -> String {
    let mut out = String::with_capacity(6);
    out.push('#');
    crate::zones::push_int(&mut out, i64::from(card));
    out
}

/// [`card_ref`] as an action's argument word.
pub fn card_word(card: u16) -> Box<str> {
    card_ref(card).into_boxed_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_notation() {
        let n: Notation = "  BUY 1.1  on\t#7 ".parse().unwrap();
        assert_eq!(n.verb, Verb::Buy);
        assert_eq!(n.to_string(), "buy 1.1 on #7");
        assert_eq!("push".parse::<Notation>().unwrap().to_string(), "push");
        assert_eq!(VERBS.len(), 22);
    }

    #[test]
    fn refuses_what_is_not_notation_with_pythons_messages() {
        assert_eq!("".parse::<Notation>().unwrap_err().to_string(), "empty action text");
        assert_eq!(" \u{1f} ".parse::<Notation>().unwrap_err(), InvalidAction::Empty);
        assert_eq!(
            "jump".parse::<Notation>().unwrap_err().to_string(),
            "unknown verb 'jump' in 'jump'; verbs are: push, pass, buy, vale, token, use, trade, finish, \
             sleeve, discard, keep, skip, resolve, spoil, guard, take, choose, order, upgrade, give, stop, reveal"
        );
        assert_eq!(
            "use #7.2 it's".parse::<Notation>().unwrap_err().to_string(),
            "unexpected characters in \"it's\" of \"use #7.2 it's\""
        );
    }
}
