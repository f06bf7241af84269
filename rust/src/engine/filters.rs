//! The filters DataFusion offers a scan, translated into our predicates where the translation is
//! exact: the scan then selects rows with the dictionary kernel, the per-entry tables and zone
//! maps. The scan reports them `Inexact`, so DataFusion still evaluates each one above it: a
//! chunk our filter declines passes every row, and the answer never depends on the kernels.
//!
//! Exact means the predicate selects the same rows as DataFusion's expression, NULLs included.
//! Only a column compared with a literal of the same type is translated, on integer, decimal,
//! boolean, string and date columns (a date as its days since the epoch, the column's storage).
//! Floats are left to DataFusion (it orders NaN above every number), as are times and timestamps,
//! casts and functions.

use arrow::datatypes::DataType;
use arrow::datatypes::Schema;
use datafusion::common::ScalarValue;
use datafusion::logical_expr::BinaryExpr;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::Operator;
use datafusion::logical_expr::expr::Between;
use datafusion::logical_expr::expr::InList;
use datafusion::logical_expr::expr::Like;

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
            if let (Some(column), Some(value)) = (column(left, schema), literal(right)) {
                return Some(Predicate::Compare { column, op, value });
            }
            let (column, value) = (column(right, schema)?, literal(left)?);
            Some(Predicate::Compare { column, op: flipped(op), value })
        }
        Expr::Not(child) => Some(Predicate::Not(Box::new(translate(child, schema)?))),
        Expr::IsNull(e) => Some(Predicate::IsNull { column: column(e, schema)?, negated: false }),
        Expr::IsNotNull(e) => Some(Predicate::IsNull { column: column(e, schema)?, negated: true }),
        Expr::InList(InList { expr, list, negated }) => {
            let values = list.iter().map(literal).collect::<Option<Vec<_>>>()?;
            Some(Predicate::In { column: column(expr, schema)?, values, negated: *negated })
        }
        Expr::Between(Between { expr, negated, low, high }) => {
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
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Decimal128(_, _)
            | DataType::Boolean
            | DataType::Date32
            | DataType::Utf8
            | DataType::Utf8View
            | DataType::LargeUtf8
    );
    translatable.then(|| c.name.clone())
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
        ScalarValue::UInt8(Some(v)) => Literal::U64(*v as u64),
        ScalarValue::UInt16(Some(v)) => Literal::U64(*v as u64),
        ScalarValue::UInt32(Some(v)) => Literal::U64(*v as u64),
        ScalarValue::UInt64(Some(v)) => Literal::U64(*v),
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
    fn dates_compare_as_days_timestamps_stay_with_datafusion() {
        let s = schema();
        let day = lit(ScalarValue::Date32(Some(9_000)));
        assert_eq!(
            translate(&col("day").gt_eq(day.clone()), &s),
            Some(Predicate::Compare { column: "day".into(), op: CmpOp::Ge, value: Literal::I64(9_000) })
        );
        assert!(matches!(translate(&col("day").between(day.clone(), day), &s), Some(Predicate::Between { .. })));
        let ts = lit(ScalarValue::TimestampMicrosecond(Some(1), None));
        assert_eq!(translate(&col("ts").gt(ts), &s), None);
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
