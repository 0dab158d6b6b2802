//! Python's JSON, exactly: the values the Python engine writes (`dict`, `list`, `str`, `int`,
//! `bool`, `None`) and `json.dumps(value, separators=(",", ":"), sort_keys=True)`'s text.
//!
//! Keys are sorted by code point (byte order of UTF-8, which is the same), every character
//! outside printable ASCII is escaped as `\uXXXX` (surrogate pairs beyond the BMP), and
//! integers of any size are written as their decimal text.
#![forbid(unsafe_code)]

use std::fmt::Write;

/// A JSON value as the Python engine holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum J {
    /// `None`.
    Null,
    /// `True` / `False`.
    Bool(bool),
    /// An int that fits 64 bits.
    Int(i64),
    /// An int of any size, as its decimal text (a seed).
    BigInt(Box<str>),
    /// A str.
    Str(Box<str>),
    /// A list.
    List(Vec<J>),
    /// A dict (written with its keys sorted).
    Map(Vec<(Box<str>, J)>),
    /// Text that is already this module's JSON (copied verbatim).
    Raw(Box<str>),
}

impl From<i64> for J {
    fn from(v: i64) -> J {
        J::Int(v)
    }
}

impl From<bool> for J {
    fn from(v: bool) -> J {
        J::Bool(v)
    }
}

impl From<&str> for J {
    fn from(v: &str) -> J {
        J::Str(v.into())
    }
}

impl From<String> for J {
    fn from(v: String) -> J {
        J::Str(v.into())
    }
}

impl<T: Into<J>> From<Option<T>> for J {
    fn from(v: Option<T>) -> J {
        v.map_or(J::Null, Into::into)
    }
}

impl J {
    /// A list of ints.
    pub fn ints<T: Copy + Into<i64>>(xs: &[T]) -> J {
        J::List(xs.iter().map(|&x| J::Int(x.into())).collect())
    }

    /// A dict from `(key, value)` pairs.
    pub fn map<const N: usize>(pairs: [(&str, J); N]) -> J {
        J::Map(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// `json.dumps(self, separators=(",", ":"), sort_keys=True)`.
    pub fn dumps(&self) -> String {
        let mut out = String::with_capacity(256);
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(true) => out.push_str("true"),
            J::Bool(false) => out.push_str("false"),
            J::Int(v) => {
                let _ = write!(out, "{v}");
            }
            J::BigInt(s) | J::Raw(s) => out.push_str(s),
            J::Str(s) => write_str(out, s),
            J::List(xs) => {
                out.push('[');
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    x.write(out);
                }
                out.push(']');
            }
            J::Map(pairs) => {
                let mut sorted: Vec<&(Box<str>, J)> = pairs.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                out.push('{');
                for (i, (k, v)) in sorted.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(out, k);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// A string as `json.dumps` writes it with `ensure_ascii=True`.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(ch),
            _ => {
                let mut units = [0u16; 2];
                for u in ch.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{:04x}", u);
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_as_python_json_dumps() {
        let v = J::map([
            ("b", J::List(vec![J::Int(-3), J::Null, J::Bool(true)])),
            ("a", J::from("Sämling d'Été \"x\" \\ \n\u{7f}\u{1f600}")),
            ("Z", J::BigInt("123456789012345678901234567890".into())),
        ]);
        assert_eq!(
            v.dumps(),
            r#"{"Z":123456789012345678901234567890,"a":"S\u00e4mling d'\u00c9t\u00e9 \"x\" \\ \n\u007f\ud83d\ude00","b":[-3,null,true]}"#
        );
    }
}
