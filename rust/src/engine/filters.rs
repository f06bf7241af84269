//! The filters DataFusion offers a scan, translated into our predicates where the translation is
//! exact: the scan then selects rows with the dictionary kernel, the per-entry tables and zone
//! maps. The scan reports them `Inexact`, so DataFusion still evaluates each one above it: a
//! chunk our filter declines passes every row, and the answer never depends on the kernels.
//!
//! Exact means the predicate selects the same rows as DataFusion's expression, NULLs included.
//! Only a column compared with a literal of the same type is translated, on integer, decimal,
//! boolean, string and date columns (a date as its days since the epoch, the column's storage),
//! and timestamps: the engine reads them floored to milliseconds (or seconds), so a comparison
//! with a literal becomes one with a range of the stored values (`ts > L` is `stored >= (L + 1) *
//! k` for `k` stored units per millisecond). Floats are left to DataFusion (it orders NaN above
//! every number), as are times, casts and functions.
//!
//! The schema is the file's as vortex-arrow maps it: a timestamp column in its stored unit.

use arrow::datatypes::DataType;
use arrow::datatypes::Schema;
use arrow::datatypes::TimeUnit;
use datafusion::common::ScalarValue;
use datafusion::logical_expr::BinaryExpr;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::Operator;
use datafusion::logical_expr::expr::Between;
use datafusion::logical_expr::expr::InList;
use datafusion::logical_expr::expr::Like;

use super::types::per_second;
use super::types::read_unit;
use crate::predicate::CmpOp;
use crate::predicate::Literal;
use crate::predicate::Predicate;

/// The predicate selecting exactly the rows `expr` keeps, over columns of `schema`; `None` when
/// there is no such translation.
pub fn translate(expr: &Expr, schema: &Schema) -> Option<Predicate> {
    match expr {
        Expr::BinaryExpr(BinaryExpr { left, op: Operator::And, right }) => {
            Some(Predicate::And(vec![translate(left, schema)?, translate(right, schema)?]))
        }
        Expr::BinaryExpr(BinaryExpr { left, op: Operator::Or, right }) => {
            Some(Predicate::Or(vec![translate(left, schema)?, translate(right, schema)?]))
        }
        Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
            let op = comparison(*op)?;
            let range = |c, op, v| timestamp_range(c, v, v, schema).map(|r| r.compare(op));
            if let Some(p) = range(left, op, right).or_else(|| range(right, flipped(op), left)) {
                return Some(p);
            }
            if let (Some(column), Some(value)) = (column(left, schema), literal(right)) {
                return Some(Predicate::Compare { column, op, value });
            }
            let (column, value) = (column(right, schema)?, literal(left)?);
            Some(Predicate::Compare { column, op: flipped(op), value })
        }
        Expr::Not(child) => Some(Predicate::Not(Box::new(translate(child, schema)?))),
        Expr::IsNull(e) => Some(Predicate::IsNull { column: null_tested(e, schema)?, negated: false }),
        Expr::IsNotNull(e) => Some(Predicate::IsNull { column: null_tested(e, schema)?, negated: true }),
        Expr::InList(InList { expr, list, negated }) => {
            let values = list.iter().map(literal).collect::<Option<Vec<_>>>()?;
            Some(Predicate::In { column: column(expr, schema)?, values, negated: *negated })
        }
        Expr::Between(Between { expr, negated, low, high }) => {
            if let Some(r) = timestamp_range(expr, low, high, schema) {
                return Some(if *negated { r.outside() } else { r.inside() });
            }
            let between = Predicate::Between { column: column(expr, schema)?, low: literal(low)?, high: literal(high)? };
            Some(if *negated { Predicate::Not(Box::new(between)) } else { between })
        }
        Expr::Like(Like { negated, expr, pattern, escape_char, case_insensitive }) => {
            let column = column(expr, schema)?;
            let Literal::Utf8(pattern) = literal(pattern)? else {
                return None;
            };
            // DataFusion's LIKE (arrow's) reads `\` as an escape when no escape is given; ours
            // does not: such patterns, and other escapes, stay with DataFusion.
            if escape_char.is_some() || pattern.contains('\\') || !is_utf8(schema, &column) {
                return None;
            }
            Some(Predicate::Like { column, pattern, escape: None, case_insensitive: *case_insensitive, negated: *negated })
        }
        _ => None,
    }
}

/// Stored values `[low, high)` of a timestamp column: the rows whose value, floored to the unit
/// the engine reads, lies between two literals (inclusive).
struct StoredRange {
    column: String,
    low: i64,
    high: i64,
}

impl StoredRange {
    fn bound(&self, op: CmpOp, value: i64) -> Predicate {
        Predicate::Compare { column: self.column.clone(), op, value: Literal::I64(value) }
    }

    fn inside(&self) -> Predicate {
        Predicate::And(vec![self.bound(CmpOp::Ge, self.low), self.bound(CmpOp::Lt, self.high)])
    }

    fn outside(&self) -> Predicate {
        Predicate::Or(vec![self.bound(CmpOp::Lt, self.low), self.bound(CmpOp::Ge, self.high)])
    }

    /// `column op literal`, the range being the literal's.
    fn compare(&self, op: CmpOp) -> Predicate {
        match op {
            CmpOp::Eq => self.inside(),
            CmpOp::Ne => self.outside(),
            CmpOp::Lt => self.bound(CmpOp::Lt, self.low),
            CmpOp::Ge => self.bound(CmpOp::Ge, self.low),
            CmpOp::Le => self.bound(CmpOp::Lt, self.high),
            CmpOp::Gt => self.bound(CmpOp::Ge, self.high),
        }
    }
}

/// The stored values of timestamp column `column` whose engine value lies in `[low, high]`
/// (literals of the engine's unit, no zone); `None` for anything else, or on overflow.
fn timestamp_range(column: &Expr, low: &Expr, high: &Expr, schema: &Schema) -> Option<StoredRange> {
    let Expr::Column(c) = column else {
        return None;
    };
    let DataType::Timestamp(stored, _) = schema.field_with_name(&c.name).ok()?.data_type() else {
        return None;
    };
    let read = read_unit(*stored);
    let value = |e: &Expr| match (e, read) {
        (Expr::Literal(ScalarValue::TimestampSecond(Some(v), None), _), TimeUnit::Second)
        | (Expr::Literal(ScalarValue::TimestampMillisecond(Some(v), None), _), TimeUnit::Millisecond) => Some(*v),
        _ => None,
    };
    let per = per_second(*stored) / per_second(read);
    let low = value(low)?.checked_mul(per)?;
    let high = value(high)?.checked_add(1)?.checked_mul(per)?;
    Some(StoredRange { column: c.name.clone(), low, high })
}

fn comparison(op: Operator) -> Option<CmpOp> {
    Some(match op {
        Operator::Eq => CmpOp::Eq,
        Operator::NotEq => CmpOp::Ne,
        Operator::Lt => CmpOp::Lt,
        Operator::LtEq => CmpOp::Le,
        Operator::Gt => CmpOp::Gt,
        Operator::GtEq => CmpOp::Ge,
        _ => return None,
    })
}

/// `a op b` as `b op' a`.
fn flipped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        op => op,
    }
}

/// The name of a plain column of a translatable type.
fn column(expr: &Expr, schema: &Schema) -> Option<String> {
    let Expr::Column(c) = expr else {
        return None;
    };
    let field = schema.field_with_name(&c.name).ok()?;
    let translatable = matches!(
        field.data_type(),
        DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::Decimal128(_, _)
            | DataType::Boolean
            | DataType::Date32
            | DataType::Utf8
            | DataType::Utf8View
            | DataType::LargeUtf8
    );
    translatable.then(|| c.name.clone())
}

/// The name of a plain column whose NULLs our predicates test: translatable ones and timestamps.
fn null_tested(expr: &Expr, schema: &Schema) -> Option<String> {
    column(expr, schema).or_else(|| match expr {
        Expr::Column(c) => schema
            .field_with_name(&c.name)
            .is_ok_and(|f| matches!(f.data_type(), DataType::Timestamp(_, _)))
            .then(|| c.name.clone()),
        _ => None,
    })
}

fn is_utf8(schema: &Schema, column: &str) -> bool {
    schema
        .field_with_name(column)
        .is_ok_and(|f| matches!(f.data_type(), DataType::Utf8 | DataType::Utf8View | DataType::LargeUtf8))
}

fn literal(expr: &Expr) -> Option<Literal> {
    let Expr::Literal(value, _) = expr else {
        return None;
    };
    if value.is_null() {
        return Some(Literal::Null);
    }
    Some(match value {
        ScalarValue::Boolean(Some(b)) => Literal::Bool(*b),
        ScalarValue::Int8(Some(v)) => Literal::I64(*v as i64),
        ScalarValue::Int16(Some(v)) => Literal::I64(*v as i64),
        ScalarValue::Int32(Some(v)) => Literal::I64(*v as i64),
        ScalarValue::Int64(Some(v)) => Literal::I64(*v),
        ScalarValue::Date32(Some(days)) => Literal::I64(*days as i64),
        ScalarValue::Decimal128(Some(v), _, scale) => Literal::Decimal { scale: *scale as i32, unscaled: *v },
        ScalarValue::Utf8(Some(s)) | ScalarValue::Utf8View(Some(s)) | ScalarValue::LargeUtf8(Some(s)) => {
            Literal::Utf8(s.clone())
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::datatypes::Field;
    use datafusion::logical_expr::col;
    use datafusion::logical_expr::lit;

    fn schema() -> Schema {
        Schema::new(vec![
            Field::new("sym", DataType::Utf8, true),
            Field::new("qty", DataType::Int64, true),
            Field::new("px", DataType::Float64, true),
            Field::new("day", DataType::Date32, true),
            Field::new("ts", DataType::Timestamp(arrow::datatypes::TimeUnit::Microsecond, None), true),
        ])
    }

    #[test]
    fn dates_compare_as_days() {
        let s = schema();
        let day = lit(ScalarValue::Date32(Some(9_000)));
        assert_eq!(
            translate(&col("day").gt_eq(day.clone()), &s),
            Some(Predicate::Compare { column: "day".into(), op: CmpOp::Ge, value: Literal::I64(9_000) })
        );
        assert!(matches!(translate(&col("day").between(day.clone(), day), &s), Some(Predicate::Between { .. })));
    }

    /// `ts` is stored in microseconds and read floored to milliseconds.
    #[test]
    fn timestamps_compare_as_ranges_of_stored_values() {
        let s = schema();
        let ms = |v| lit(ScalarValue::TimestampMillisecond(Some(v), None));
        let at = |op, v| Predicate::Compare { column: "ts".into(), op, value: Literal::I64(v) };
        assert_eq!(translate(&col("ts").gt(ms(-2)), &s), Some(at(CmpOp::Ge, -1_000)));
        assert_eq!(translate(&col("ts").lt_eq(ms(5)), &s), Some(at(CmpOp::Lt, 6_000)));
        assert_eq!(translate(&ms(5).gt(col("ts")), &s), Some(at(CmpOp::Lt, 5_000)));
        assert_eq!(
            translate(&col("ts").eq(ms(-2)), &s),
            Some(Predicate::And(vec![at(CmpOp::Ge, -2_000), at(CmpOp::Lt, -1_000)]))
        );
        assert_eq!(
            translate(&col("ts").not_between(ms(1), ms(3)), &s),
            Some(Predicate::Or(vec![at(CmpOp::Lt, 1_000), at(CmpOp::Ge, 4_000)]))
        );
        assert_eq!(translate(&col("ts").is_null(), &s), Some(Predicate::IsNull { column: "ts".into(), negated: false }));
        // A literal in another unit, or one overflowing the stored unit, stays with DataFusion.
        assert_eq!(translate(&col("ts").gt(lit(ScalarValue::TimestampMicrosecond(Some(1), None))), &s), None);
        assert_eq!(translate(&col("ts").gt(ms(i64::MAX / 10)), &s), None);
    }

    #[test]
    fn comparisons_either_way_round() {
        let s = schema();
        assert_eq!(
            translate(&col("qty").gt(lit(5i64)), &s),
            Some(Predicate::Compare { column: "qty".into(), op: CmpOp::Gt, value: Literal::I64(5) })
        );
        assert_eq!(
            translate(&lit(5i64).gt(col("qty")), &s),
            Some(Predicate::Compare { column: "qty".into(), op: CmpOp::Lt, value: Literal::I64(5) })
        );
    }

    #[test]
    fn connectives_need_every_child() {
        let s = schema();
        let both = col("sym").eq(lit("A")).or(col("qty").lt_eq(lit(3i64)));
        assert!(matches!(translate(&both, &s), Some(Predicate::Or(c)) if c.len() == 2));
        // A float leaf is not translated, so neither is the OR holding it.
        let with_float = col("sym").eq(lit("A")).or(col("px").gt(lit(1.0f64)));
        assert_eq!(translate(&with_float, &s), None);
        assert!(matches!(translate(&!col("sym").eq(lit("A")), &s), Some(Predicate::Not(_))));
    }

    #[test]
    fn like_in_and_null_tests() {
        let s = schema();
        assert!(matches!(translate(&col("sym").like(lit("A%")), &s), Some(Predicate::Like { negated: false, .. })));
        assert_eq!(translate(&col("sym").like(lit("A\\%")), &s), None);
        assert!(matches!(
            translate(&col("sym").in_list(vec![lit("A"), lit("B")], true), &s),
            Some(Predicate::In { negated: true, values, .. }) if values.len() == 2
        ));
        assert_eq!(translate(&col("qty").is_null(), &s), Some(Predicate::IsNull { column: "qty".into(), negated: false }));
        assert_eq!(translate(&col("px").is_null(), &s), None);
    }
}
