//! Twin of mysticvale/errors.py: the errors the native core reports on purpose.
//!
//! `py.rs` maps each to the Python class of the same name (imported from
//! `mysticvale.errors`, so one `except` catches both engines' errors).
#![forbid(unsafe_code)]

use std::fmt;

/// Python's `repr` of a string: single quotes unless the text holds one and no double quote.
pub fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A catalogue table the twin cannot represent (Python's `CatalogueError`): every problem
/// found, and where the table came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogueError {
    /// Every problem found, each naming its card.
    pub problems: Vec<String>,
    /// Where the table came from.
    pub source: String,
}

impl CatalogueError {
    /// An error with one problem.
    pub fn one(problem: impl Into<String>, source: &str) -> CatalogueError {
        CatalogueError { problems: vec![problem.into()], source: source.to_owned() }
    }
}

impl fmt::Display for CatalogueError {
    /// The text of Python's `CatalogueError`: the source, the count, one line per problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} problem(s):", self.source, self.problems.len())?;
        for p in &self.problems {
            write!(f, "\n  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CatalogueError {}

#[cfg(test)]
mod tests {
    use super::py_repr;

    #[test]
    fn repr_quotes_as_python() {
        assert_eq!(py_repr("jump"), "'jump'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("both ' and \""), "'both \\' and \"'");
        assert_eq!(py_repr("a\\b\n\t\u{1}"), "'a\\\\b\\n\\t\\x01'");
        assert_eq!(py_repr("Été"), "'Été'");
    }
}

/// A saved game that cannot be loaded (Python's `SaveError`): corrupt, or from an
/// incompatible version. Nothing is half-loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveError(pub String);

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SaveError {}
