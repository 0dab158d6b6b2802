//! Python's JSON, exactly: the values the Python engine writes (`dict`, `list`, `str`, `int`,
//! `bool`, `None`) and `json.dumps(value, separators=(",", ":"), sort_keys=True)`'s text.
//!
//! Keys are sorted by code point (byte order of UTF-8, which is the same), every character
//! outside printable ASCII is escaped as `\uXXXX` (surrogate pairs beyond the BMP), and
//! integers of any size are written as their decimal text.
#![forbid(unsafe_code)]

use std::fmt::Write;

/// A dict's key: borrowed when the engine names it (`"card"`), owned when read from a save,
/// so that the data of events, steps and decisions costs no allocation per key.
pub type Key = std::borrow::Cow<'static, str>;

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
    Map(Vec<(Key, J)>),
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
    pub fn map<const N: usize>(pairs: [(&'static str, J); N]) -> J {
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
                let mut sorted: Vec<&(Key, J)> = pairs.iter().collect();
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

/// Read JSON text into a [`J`] (the values Python's `json.loads` gives a save; a number
/// with a fraction or exponent is kept as its text, [`J::Raw`]; a key given twice keeps
/// its last value, as Python's dict).
///
/// # Errors
/// Where the text stops being JSON.
pub fn parse(text: &str) -> Result<J, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0, text, depth: 0 };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("extra data"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
    depth: u32,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("{what} at char {}", self.text[..self.i.min(self.text.len())].chars().count())
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<J, String> {
        // Deep nesting is no save: refuse it before the stack runs out.
        if self.depth > 200 {
            return Err(self.err("nested too deeply"));
        }
        match self.s.get(self.i) {
            None => Err(self.err("Expecting value")),
            Some(b'{') => {
                self.depth += 1;
                self.i += 1;
                let mut pairs: Vec<(Key, J)> = Vec::new();
                self.ws();
                if self.eat("}") {
                    self.depth -= 1;
                    return Ok(J::Map(pairs));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return Err(self.err("Expecting property name enclosed in double quotes"));
                    }
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(":") {
                        return Err(self.err("Expecting ':' delimiter"));
                    }
                    self.ws();
                    let v = self.value()?;
                    match pairs.iter_mut().find(|(key, _)| **key == *k) {
                        Some(slot) => slot.1 = v,
                        None => pairs.push((k.into(), v)),
                    }
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("}") {
                        break;
                    }
                    return Err(self.err("Expecting ',' delimiter"));
                }
                self.depth -= 1;
                Ok(J::Map(pairs))
            }
            Some(b'[') => {
                self.depth += 1;
                self.i += 1;
                let mut xs = Vec::new();
                self.ws();
                if self.eat("]") {
                    self.depth -= 1;
                    return Ok(J::List(xs));
                }
                loop {
                    self.ws();
                    xs.push(self.value()?);
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        break;
                    }
                    return Err(self.err("Expecting ',' delimiter"));
                }
                self.depth -= 1;
                Ok(J::List(xs))
            }
            Some(b'"') => Ok(J::Str(self.string()?.into())),
            Some(b't') if self.eat("true") => Ok(J::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(J::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(J::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("Expecting value")),
        }
    }

    fn number(&mut self) -> Result<J, String> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        let digits = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        if self.i == digits || (self.s[digits] == b'0' && self.i - digits > 1) {
            self.i = start;
            return Err(self.err("Expecting value"));
        }
        let mut float = false;
        if self.s.get(self.i) == Some(&b'.') {
            float = true;
            self.i += 1;
            let d = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == d {
                return Err(self.err("Expecting digits"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            float = true;
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            let d = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == d {
                return Err(self.err("Expecting digits"));
            }
        }
        let t = &self.text[start..self.i];
        if float {
            return Ok(J::Raw(t.into()));
        }
        Ok(t.parse::<i64>().map_or_else(|_| J::BigInt(if t == "-0" { "0".into() } else { t.into() }), J::Int))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.text.get(self.i..self.i + 4).ok_or_else(|| self.err("Invalid \\uXXXX escape"))?;
        let v = u32::from_str_radix(h, 16).map_err(|_| self.err("Invalid \\uXXXX escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') && self.s[self.i] >= 0x20 {
                self.i += 1;
            }
            out.push_str(&self.text[start..self.i]);
            match self.s.get(self.i) {
                None => return Err(self.err("Unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(&c) = self.s.get(self.i) else {
                        return Err(self.err("Unterminated string"));
                    };
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut u = self.hex4()?;
                            if (0xD800..0xDC00).contains(&u) && self.eat("\\u") {
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    return Err(self.err("a lone surrogate the native core cannot hold"));
                                }
                            }
                            out.push(
                                char::from_u32(u)
                                    .ok_or_else(|| self.err("a lone surrogate the native core cannot hold"))?,
                            );
                        }
                        _ => return Err(self.err("Invalid \\escape")),
                    }
                }
                Some(_) => return Err(self.err("Invalid control character")),
            }
        }
    }
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let text =
            r#"{"a":[1,-2,12345678901234567890123,null,true,false],"b":"S\u00e4 \ud83d\ude00 \"q\" \\ \n","c":{}}"#;
        assert_eq!(parse(text).unwrap().dumps(), text);
        assert_eq!(parse(" [1.5e3, 2] ").unwrap(), J::List(vec![J::Raw("1.5e3".into()), J::Int(2)]));
    }

    #[test]
    fn refuses_what_is_not_json() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "\"\\ud800\"", "[1] x", "tru", "\"a\u{1}\""] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(parse(&"[".repeat(1000)).is_err());
    }
}
