//! SQL LIKE patterns in vortex's syntax.
//!
//! The reader's pattern (`docs/predicate-encoding.md`) is SQL's: `%` any sequence of characters,
//! `_` exactly one, and an optional escape character of the caller's choosing that makes the
//! next `%`, `_` or escape character literal; without an escape character `\` is an ordinary
//! character. vortex's `like` always escapes with `\` (`\x` is a literal `x` for any `x`, a
//! trailing `\` a literal backslash) and quotes regex metacharacters itself. [`to_vortex`]
//! rewrites one into the other: every literal `%`, `_` and `\` is written `\%`, `\_`, `\\`,
//! everything else as it is.
//!
//! ILIKE: vortex folds case with the regex engine's Unicode simple case folding, the reader with
//! Java's `toLowerCase(toUpperCase(c))` per code point. The two agree when the pattern and every
//! value are ASCII (both are then ASCII case-insensitive), so ILIKE is evaluated natively only
//! there ([`ascii_only`]); elsewhere the caller declines and Java evaluates it.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::VarBinViewArray;
use vortex_error::VortexResult;

use crate::error::Error;
use crate::error::Result;

/// One element of a parsed pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// A character matched literally.
    Char(char),
    /// `_`: exactly one character.
    AnyOne,
    /// `%`: any sequence of characters, the empty one included.
    AnySequence,
}

/// Parses a SQL pattern with an optional escape character. The escape character must be
/// followed by `%`, `_` or itself (as SQL requires, and as the Java side checks).
pub fn parse(pattern: &str, escape: Option<char>) -> Result<Vec<Token>> {
    let mut out = Vec::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(if Some(c) == escape {
            match chars.next() {
                Some(next) if next == '%' || next == '_' || Some(next) == escape => Token::Char(next),
                Some(_) => {
                    return Err(Error::Invalid(format!(
                        "LIKE pattern '{pattern}': the escape character must be followed by %, _ or itself"
                    )));
                }
                None => {
                    return Err(Error::Invalid(format!("LIKE pattern '{pattern}' ends with its escape character")));
                }
            }
        } else {
            match c {
                '%' => Token::AnySequence,
                '_' => Token::AnyOne,
                c => Token::Char(c),
            }
        });
    }
    Ok(out)
}

/// The pattern in vortex's `like` syntax (escape `\`).
pub fn to_vortex(tokens: &[Token]) -> String {
    let mut out = String::with_capacity(tokens.len() + 4);
    for t in tokens {
        match *t {
            Token::AnySequence => out.push('%'),
            Token::AnyOne => out.push('_'),
            Token::Char(c @ ('%' | '_' | '\\')) => {
                out.push('\\');
                out.push(c);
            }
            Token::Char(c) => out.push(c),
        }
    }
    out
}

/// Whether every string of `array` (null slots too, whatever bytes they hold) is ASCII: the
/// domain where vortex's ILIKE and the reader's agree.
pub fn ascii_only(array: &ArrayRef, ctx: &mut ExecutionCtx) -> VortexResult<bool> {
    let strings = array.clone().execute::<VarBinViewArray>(ctx)?;
    Ok((0..strings.len()).all(|i| strings.bytes_at(i).is_ascii()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Token::*;

    #[test]
    fn parses_wildcards_and_escapes() {
        assert_eq!(parse("a%_", None).unwrap(), vec![Char('a'), AnySequence, AnyOne]);
        assert_eq!(parse(r"\%", None).unwrap(), vec![Char('\\'), AnySequence]);
        assert_eq!(parse(r"\%\_\\", Some('\\')).unwrap(), vec![Char('%'), Char('_'), Char('\\')]);
        assert_eq!(parse("!%!!", Some('!')).unwrap(), vec![Char('%'), Char('!')]);
        // The escape character may itself be a wildcard: then it is never one.
        assert_eq!(parse("%%%_", Some('%')).unwrap(), vec![Char('%'), Char('_')]);
        assert!(parse("a!", Some('!')).is_err());
        assert!(parse("!a", Some('!')).is_err());
        assert_eq!(parse("", None).unwrap(), vec![]);
    }

    #[test]
    fn writes_vortex_syntax() {
        let v = |p: &str, e| to_vortex(&parse(p, e).unwrap());
        assert_eq!(v("abc%", None), "abc%");
        assert_eq!(v(r"a\b", None), r"a\\b");
        assert_eq!(v("!%x!_!!", Some('!')), r"\%x\_!");
        assert_eq!(v(r"\\\%", Some('\\')), r"\\\%");
        assert_eq!(v(".*+?[](){}|^$", None), ".*+?[](){}|^$");
    }
}
