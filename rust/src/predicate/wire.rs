//! The predicate's wire form (`docs/predicate-encoding.md`, version 1): decoding what Java
//! sends, and encoding back for round-trip tests and for Rust-side callers (benches, fixtures).

use super::CmpOp;
use super::Literal;
use super::Predicate;
use crate::error::Error;
use crate::error::Result;

/// The encoding version this module reads and writes.
pub const VERSION: u8 = 1;

impl CmpOp {
    fn from_code(code: u8) -> Result<Self> {
        Ok(match code {
            0 => CmpOp::Eq,
            1 => CmpOp::Ne,
            2 => CmpOp::Lt,
            3 => CmpOp::Le,
            4 => CmpOp::Gt,
            5 => CmpOp::Ge,
            _ => return Err(Error::Invalid(format!("unknown comparison operator {code}"))),
        })
    }

    fn code(self) -> u8 {
        self as u8
    }
}

impl Predicate {
    /// Decodes the wire form.
    pub fn decode(bytes: &[u8]) -> Result<Predicate> {
        let mut r = Reader { bytes, pos: 0 };
        let version = r.u8()?;
        if version != VERSION {
            return Err(Error::Invalid(format!(
                "predicate encoding version {version}, expected {VERSION}"
            )));
        }
        let p = r.node(0)?;
        if r.pos != bytes.len() {
            return Err(Error::Invalid(format!(
                "{} trailing bytes after the predicate",
                bytes.len() - r.pos
            )));
        }
        Ok(p)
    }

    /// Encodes to the wire form.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![VERSION];
        write_node(&mut out, self);
        out
    }
}

/// LIKE node flags.
const LIKE_NEGATED: u8 = 1;
const LIKE_CASE_INSENSITIVE: u8 = 2;

/// LIST_CONTAINS node flags.
const CONTAINS_NEGATED: u8 = 1;
const CONTAINS_SQL_NULLS: u8 = 2;

/// Nesting deeper than this is rejected rather than risking the native stack.
const MAX_DEPTH: usize = 256;

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            Error::Invalid(format!("predicate encoding truncated at byte {}", self.pos))
        })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn count(&mut self) -> Result<usize> {
        let n = self.u32()? as usize;
        // Every element takes at least one byte, so a larger count is corrupt.
        if n > self.bytes.len() - self.pos {
            return Err(Error::Invalid(format!("predicate count {n} exceeds the encoding")));
        }
        Ok(n)
    }

    fn str(&mut self) -> Result<String> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| Error::Invalid("predicate string is not UTF-8".into()))
    }

    fn literal(&mut self) -> Result<Literal> {
        Ok(match self.u8()? {
            0 => Literal::Null,
            1 => Literal::Bool(self.u8()? != 0),
            2 => Literal::I64(self.i64()?),
            3 => Literal::F64(f64::from_bits(self.i64()? as u64)),
            4 => Literal::Utf8(self.str()?),
            5 => {
                let n = self.u32()? as usize;
                Literal::Binary(self.take(n)?.to_vec())
            }
            6 => {
                let scale = self.u32()? as i32;
                let unscaled = i128::from_le_bytes(self.take(16)?.try_into().expect("16 bytes"));
                Literal::Decimal { scale, unscaled }
            }
            7 => Literal::U64(self.i64()? as u64),
            t => return Err(Error::Invalid(format!("unknown literal tag {t}"))),
        })
    }

    fn node(&mut self, depth: usize) -> Result<Predicate> {
        if depth > MAX_DEPTH {
            return Err(Error::Invalid("predicate nested too deeply".into()));
        }
        Ok(match self.u8()? {
            1 => {
                let op = CmpOp::from_code(self.u8()?)?;
                let column = self.str()?;
                Predicate::Compare {
                    column,
                    op,
                    value: self.literal()?,
                }
            }
            2 => {
                let column = self.str()?;
                let low = self.literal()?;
                Predicate::Between {
                    column,
                    low,
                    high: self.literal()?,
                }
            }
            tag @ (3 | 4) => {
                let column = self.str()?;
                let n = self.count()?;
                let values = (0..n).map(|_| self.literal()).collect::<Result<_>>()?;
                Predicate::In {
                    column,
                    values,
                    negated: tag == 4,
                }
            }
            tag @ (5 | 6) => Predicate::IsNull {
                column: self.str()?,
                negated: tag == 6,
            },
            tag @ (7 | 8) => {
                let n = self.count()?;
                let children = (0..n).map(|_| self.node(depth + 1)).collect::<Result<_>>()?;
                if tag == 7 {
                    Predicate::And(children)
                } else {
                    Predicate::Or(children)
                }
            }
            9 => Predicate::Not(Box::new(self.node(depth + 1)?)),
            10 => {
                let flags = self.u8()?;
                if flags & !(LIKE_NEGATED | LIKE_CASE_INSENSITIVE) != 0 {
                    return Err(Error::Invalid(format!("unknown LIKE flags {flags:#x}")));
                }
                let column = self.str()?;
                let pattern = self.str()?;
                let escape = self.str()?;
                let mut chars = escape.chars();
                let escape = match (chars.next(), chars.next()) {
                    (None, _) => None,
                    (Some(c), None) => Some(c),
                    _ => return Err(Error::Invalid(format!("LIKE escape '{escape}' is not one character"))),
                };
                // Reject what SQL rejects (a dangling escape) here, not at evaluation.
                crate::predicate::like::parse(&pattern, escape)?;
                Predicate::Like {
                    column,
                    pattern,
                    escape,
                    case_insensitive: flags & LIKE_CASE_INSENSITIVE != 0,
                    negated: flags & LIKE_NEGATED != 0,
                }
            }
            11 => {
                let flags = self.u8()?;
                if flags & !(CONTAINS_NEGATED | CONTAINS_SQL_NULLS) != 0 {
                    return Err(Error::Invalid(format!("unknown LIST_CONTAINS flags {flags:#x}")));
                }
                let column = self.str()?;
                Predicate::ListContains {
                    column,
                    value: self.literal()?,
                    sql_nulls: flags & CONTAINS_SQL_NULLS != 0,
                    negated: flags & CONTAINS_NEGATED != 0,
                }
            }
            12 => {
                let op = CmpOp::from_code(self.u8()?)?;
                let column = self.str()?;
                Predicate::ListLength { column, op, length: self.i64()? }
            }
            t => return Err(Error::Invalid(format!("unknown predicate node tag {t}"))),
        })
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn write_literal(out: &mut Vec<u8>, l: &Literal) {
    match l {
        Literal::Null => out.push(0),
        Literal::Bool(b) => out.extend_from_slice(&[1, *b as u8]),
        Literal::I64(v) => {
            out.push(2);
            out.extend_from_slice(&v.to_le_bytes());
        }
        Literal::F64(v) => {
            out.push(3);
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
        Literal::Utf8(s) => {
            out.push(4);
            write_str(out, s);
        }
        Literal::Binary(b) => {
            out.push(5);
            out.extend_from_slice(&(b.len() as u32).to_le_bytes());
            out.extend_from_slice(b);
        }
        Literal::Decimal { scale, unscaled } => {
            out.push(6);
            out.extend_from_slice(&scale.to_le_bytes());
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Literal::U64(v) => {
            out.push(7);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

fn write_node(out: &mut Vec<u8>, p: &Predicate) {
    match p {
        Predicate::Compare { column, op, value } => {
            out.extend_from_slice(&[1, op.code()]);
            write_str(out, column);
            write_literal(out, value);
        }
        Predicate::Between { column, low, high } => {
            out.push(2);
            write_str(out, column);
            write_literal(out, low);
            write_literal(out, high);
        }
        Predicate::In {
            column,
            values,
            negated,
        } => {
            out.push(if *negated { 4 } else { 3 });
            write_str(out, column);
            out.extend_from_slice(&(values.len() as u32).to_le_bytes());
            values.iter().for_each(|v| write_literal(out, v));
        }
        Predicate::IsNull { column, negated } => {
            out.push(if *negated { 6 } else { 5 });
            write_str(out, column);
        }
        Predicate::And(c) | Predicate::Or(c) => {
            out.push(if matches!(p, Predicate::And(_)) { 7 } else { 8 });
            out.extend_from_slice(&(c.len() as u32).to_le_bytes());
            c.iter().for_each(|n| write_node(out, n));
        }
        Predicate::Not(c) => {
            out.push(9);
            write_node(out, c);
        }
        Predicate::Like { column, pattern, escape, case_insensitive, negated } => {
            let flags = if *negated { LIKE_NEGATED } else { 0 } | if *case_insensitive { LIKE_CASE_INSENSITIVE } else { 0 };
            out.extend_from_slice(&[10, flags]);
            write_str(out, column);
            write_str(out, pattern);
            write_str(out, &escape.map(String::from).unwrap_or_default());
        }
        Predicate::ListContains { column, value, sql_nulls, negated } => {
            let flags = if *negated { CONTAINS_NEGATED } else { 0 } | if *sql_nulls { CONTAINS_SQL_NULLS } else { 0 };
            out.extend_from_slice(&[11, flags]);
            write_str(out, column);
            write_literal(out, value);
        }
        Predicate::ListLength { column, op, length } => {
            out.extend_from_slice(&[12, op.code()]);
            write_str(out, column);
            out.extend_from_slice(&length.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Predicate {
        Predicate::Or(vec![
            Predicate::And(vec![
                Predicate::Compare {
                    column: "sym".into(),
                    op: CmpOp::Ge,
                    value: Literal::Utf8("Zürich".into()),
                },
                Predicate::Between {
                    column: "price".into(),
                    low: Literal::F64(1.5),
                    high: Literal::I64(-3),
                },
            ]),
            Predicate::In {
                column: "sym".into(),
                values: vec![Literal::Null, Literal::Binary(vec![0, 255]), Literal::U64(u64::MAX)],
                negated: true,
            },
            Predicate::Not(Box::new(Predicate::IsNull {
                column: "v".into(),
                negated: false,
            })),
            Predicate::Compare {
                column: "d".into(),
                op: CmpOp::Lt,
                value: Literal::Decimal {
                    scale: 2,
                    unscaled: -12345,
                },
            },
            Predicate::And(vec![]),
            Predicate::Like {
                column: "s".into(),
                pattern: "a!%_東%".into(),
                escape: Some('!'),
                case_insensitive: false,
                negated: true,
            },
            Predicate::Like {
                column: "s".into(),
                pattern: r"\%".into(),
                escape: None,
                case_insensitive: true,
                negated: false,
            },
            Predicate::ListContains {
                column: "l".into(),
                value: Literal::I64(-5),
                sql_nulls: true,
                negated: true,
            },
            Predicate::ListLength { column: "st.l".into(), op: CmpOp::Ge, length: 3 },
        ])
    }

    #[test]
    fn round_trip() {
        let p = sample();
        assert_eq!(Predicate::decode(&p.encode()).unwrap(), p);
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = sample().encode();
        for n in 0..bytes.len() {
            assert!(Predicate::decode(&bytes[..n]).is_err(), "prefix of {n} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Predicate::decode(&longer).is_err());
    }

    #[test]
    fn rejects_unknown_version_and_tags() {
        assert!(Predicate::decode(&[2, 5, 0, 0, 0, 0]).is_err());
        assert!(Predicate::decode(&[1, 42]).is_err());
        assert!(Predicate::decode(&[1, 7, 255, 255, 255, 255]).is_err());
    }

    #[test]
    fn like_node_rejects_bad_flags_escapes_and_patterns() {
        let like = |escape: &str, pattern: &str, flags: u8| {
            let mut out = vec![VERSION, 10, flags];
            write_str(&mut out, "s");
            write_str(&mut out, pattern);
            write_str(&mut out, escape);
            Predicate::decode(&out)
        };
        assert!(like("", "a%", 0).is_ok());
        assert!(like("!", "a!%", 3).is_ok());
        assert!(like("", "a%", 4).is_err(), "unknown flag");
        assert!(like("!?", "a%", 0).is_err(), "two escape characters");
        assert!(like("!", "a!", 0).is_err(), "dangling escape");
        assert!(like("!", "!a", 0).is_err(), "escape before an ordinary character");
        let neg = Predicate::Not(Box::new(like("", "a%", 2).unwrap())).normalize();
        assert!(matches!(neg, Predicate::Like { negated: true, case_insensitive: true, .. }));
    }
}
