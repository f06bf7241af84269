//! The predicate model: leaves and connectives with SQL semantics, and NOT pushed to the leaves.
//!
//! Java builds predicates and sends them as bytes ([`wire`]); a leaf is resolved against its
//! column's type ([`resolve`]) or turned into a vortex expression ([`expression`]); a filter's
//! tree is prepared once per scan ([`prepared`]).

pub(crate) mod expression;
pub mod like;
pub mod prepared;
pub mod resolve;
mod wire;

/// A literal value of a predicate.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    I64(i64),
    F64(f64),
    Utf8(String),
    Binary(Vec<u8>),
    Decimal { scale: i32, unscaled: i128 },
    U64(u64),
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The operator selecting exactly the non-null rows this one rejects.
    pub fn negate(self) -> Self {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// Whether an ordering satisfies the operator.
    pub fn test(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => ord == Equal,
            CmpOp::Ne => ord != Equal,
            CmpOp::Lt => ord == Less,
            CmpOp::Le => ord != Greater,
            CmpOp::Gt => ord == Greater,
            CmpOp::Ge => ord != Less,
        }
    }

    /// The SQL symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A row filter with SQL semantics (see the encoding document).
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    Compare { column: String, op: CmpOp, value: Literal },
    Between { column: String, low: Literal, high: Literal },
    In { column: String, values: Vec<Literal>, negated: bool },
    IsNull { column: String, negated: bool },
    /// `column [NOT] LIKE pattern [ESCAPE escape]` (ILIKE with `case_insensitive`) on a utf8
    /// column: `%`, `_` and the escape character as in SQL (see [`crate::predicate::like`]); `escape: None`
    /// means none, so `\` is an ordinary character. A null row is never selected.
    Like { column: String, pattern: String, escape: Option<char>, case_insensitive: bool, negated: bool },
    /// `column` (a list or fixed-size list) holds an element equal to `value`. A null list is
    /// unknown; a list without such an element is false, or unknown when it holds a null element
    /// and `sql_nulls` (SQL's `value = ANY(list)`). `negated`: NOT of that (unknown stays
    /// unknown). See [`crate::filter::list`].
    ListContains { column: String, value: Literal, sql_nulls: bool, negated: bool },
    /// The number of elements of `column` (a list or fixed-size list) compared with `length`; a
    /// null list is unknown.
    ListLength { column: String, op: CmpOp, length: i64 },
    And(Vec<Predicate>),
    Or(Vec<Predicate>),
    Not(Box<Predicate>),
}

impl Predicate {
    /// The column of a leaf, `None` for AND, OR, NOT.
    pub fn column(&self) -> Option<&str> {
        match self {
            Predicate::Compare { column, .. }
            | Predicate::Between { column, .. }
            | Predicate::In { column, .. }
            | Predicate::IsNull { column, .. }
            | Predicate::Like { column, .. }
            | Predicate::ListContains { column, .. }
            | Predicate::ListLength { column, .. } => Some(column),
            _ => None,
        }
    }

    /// The same filter with NOT pushed down to the leaves. Under three-valued logic the rows a
    /// normalized predicate selects are unions and intersections of what its leaves select.
    pub fn normalize(self) -> Predicate {
        match self {
            Predicate::Not(child) => child.negate(),
            Predicate::And(c) => Predicate::And(c.into_iter().map(Predicate::normalize).collect()),
            Predicate::Or(c) => Predicate::Or(c.into_iter().map(Predicate::normalize).collect()),
            leaf => leaf,
        }
    }

    /// The normalized form of NOT self.
    fn negate(self) -> Predicate {
        match self {
            Predicate::Not(child) => child.normalize(),
            Predicate::And(c) => Predicate::Or(c.into_iter().map(Predicate::negate).collect()),
            Predicate::Or(c) => Predicate::And(c.into_iter().map(Predicate::negate).collect()),
            Predicate::Compare { column, op, value } => Predicate::Compare {
                column,
                op: op.negate(),
                value,
            },
            Predicate::Between { column, low, high } => Predicate::Or(vec![
                Predicate::Compare {
                    column: column.clone(),
                    op: CmpOp::Lt,
                    value: low,
                },
                Predicate::Compare {
                    column,
                    op: CmpOp::Gt,
                    value: high,
                },
            ]),
            Predicate::In {
                column,
                values,
                negated,
            } => Predicate::In {
                column,
                values,
                negated: !negated,
            },
            Predicate::IsNull { column, negated } => Predicate::IsNull {
                column,
                negated: !negated,
            },
            Predicate::Like { column, pattern, escape, case_insensitive, negated } => {
                Predicate::Like { column, pattern, escape, case_insensitive, negated: !negated }
            }
            Predicate::ListContains { column, value, sql_nulls, negated } => {
                Predicate::ListContains { column, value, sql_nulls, negated: !negated }
            }
            Predicate::ListLength { column, op, length } => Predicate::ListLength { column, op: op.negate(), length },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_pushes_not_to_leaves() {
        let p = Predicate::Not(Box::new(Predicate::And(vec![
            Predicate::Compare {
                column: "a".into(),
                op: CmpOp::Lt,
                value: Literal::I64(1),
            },
            Predicate::Between {
                column: "b".into(),
                low: Literal::I64(1),
                high: Literal::I64(2),
            },
        ])));
        let expected = Predicate::Or(vec![
            Predicate::Compare {
                column: "a".into(),
                op: CmpOp::Ge,
                value: Literal::I64(1),
            },
            Predicate::Or(vec![
                Predicate::Compare {
                    column: "b".into(),
                    op: CmpOp::Lt,
                    value: Literal::I64(1),
                },
                Predicate::Compare {
                    column: "b".into(),
                    op: CmpOp::Gt,
                    value: Literal::I64(2),
                },
            ]),
        ]);
        assert_eq!(p.normalize(), expected);
    }
}
