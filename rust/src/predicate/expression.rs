//! A predicate as a vortex filter expression, for vortex's own filtered scan (the reference the
//! tests and benchmarks compare against).

use vortex_array::dtype::DType;
use vortex_array::expr::Expression;
use vortex_array::expr::ilike;
use vortex_array::expr::in_list_of;
use vortex_array::expr::like;
use vortex_array::expr::not;
use vortex_array::expr::not_ilike;
use vortex_array::expr::not_like;
use vortex_array::expr::and_collect;
use vortex_array::expr::eq;
use vortex_array::expr::gt;
use vortex_array::expr::gt_eq;
use vortex_array::expr::is_not_null;
use vortex_array::expr::is_null;
use vortex_array::expr::lit;
use vortex_array::expr::lt;
use vortex_array::expr::lt_eq;
use vortex_array::expr::not_eq;
use vortex_array::expr::or_collect;

use crate::error::Error;
use crate::error::Result;
use crate::io::file::OpenFile;
use crate::predicate::CmpOp;
use crate::predicate::Predicate;
use crate::predicate::resolve::Resolved;
use crate::predicate::resolve::resolve;

/// The filter expression selecting the rows where `filter` is true.
pub fn to_expression(file: &OpenFile, filter: &Predicate) -> Result<Expression> {
    node(file, &filter.clone().normalize())
}

fn node(file: &OpenFile, p: &Predicate) -> Result<Expression> {
    Ok(match p {
        Predicate::And(c) => and_collect(c.iter().map(|n| node(file, n)).collect::<Result<Vec<_>>>()?)
            .unwrap_or_else(|| lit(true)),
        Predicate::Or(c) => or_collect(c.iter().map(|n| node(file, n)).collect::<Result<Vec<_>>>()?)
            .unwrap_or_else(|| lit(false)),
        Predicate::Not(_) => unreachable!("normalized"),
        leaf => {
            let column = leaf.column().expect("leaf");
            let (read, dtype) = file.column(column)?;
            if crate::filter::list::is_list_leaf(leaf) {
                crate::filter::list::expression(column, read, &dtype, leaf)?
            } else {
                resolved(column, read, &dtype, &resolve(leaf, &dtype)?)?
            }
        }
    })
}

/// `r` as an expression over `read`, the expression reading `column` (of type `dtype`).
pub(crate) fn resolved(column: &str, read: Expression, dtype: &DType, r: &Resolved) -> Result<Expression> {
    Ok(match r {
        Resolved::False => lit(false),
        Resolved::Every => lit(true),
        Resolved::NotNull => is_not_null(read.clone()),
        Resolved::IsNull => is_null(read.clone()),
        Resolved::Cmp(op, s) => {
            let (c, v) = (read.clone(), lit(s.clone()));
            match op {
                CmpOp::Eq => eq(c, v),
                CmpOp::Ne => not_eq(c, v),
                CmpOp::Lt => lt(c, v),
                CmpOp::Le => lt_eq(c, v),
                CmpOp::Gt => gt(c, v),
                CmpOp::Ge => gt_eq(c, v),
            }
        }
        Resolved::InSet { values, negated } => {
            let set = in_list_of(read.clone(), dtype.clone(), values.clone())
                .map_err(|e| Error::column(column, format!("cannot build the IN list: {e}")))?;
            if *negated { not(set) } else { set }
        }
        Resolved::Like { pattern, case_insensitive, negated } => {
            let (c, p) = (read.clone(), lit(pattern.as_str()));
            match (case_insensitive, negated) {
                (false, false) => like(c, p),
                (false, true) => not_like(c, p),
                (true, false) => ilike(c, p),
                (true, true) => not_ilike(c, p),
            }
        }
        Resolved::And(c) => and_collect(c.iter().map(|n| resolved(column, read.clone(), dtype, n)).collect::<Result<Vec<_>>>()?)
            .unwrap_or_else(|| lit(true)),
        Resolved::Or(c) => or_collect(c.iter().map(|n| resolved(column, read.clone(), dtype, n)).collect::<Result<Vec<_>>>()?)
            .unwrap_or_else(|| lit(false)),
    })
}
