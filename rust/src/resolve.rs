//! Resolving a leaf predicate against a column's dtype: literals become scalars of the column's
//! type, and literals the type cannot hold exactly (300 for a u8 column, 2.5 for an integer
//! column) become the equivalent comparisons with representable values, so the answer is always
//! the mathematically right one. The result, a [`Resolved`] tree, is evaluated by vortex (as a
//! scan filter expression) or by the dictionary kernel (on dictionary values): one semantics.

use vortex_array::dtype::DType;
use vortex_array::dtype::DecimalDType;
use vortex_array::dtype::Nullability::NonNullable;
use vortex_array::dtype::PType;
use vortex_array::scalar::DecimalValue;
use vortex_array::scalar::PValue;
use vortex_array::scalar::Scalar;

use crate::error::Error;
use crate::error::Result;
use crate::predicate::CmpOp;
use crate::predicate::Literal;
use crate::predicate::Predicate;

/// A leaf resolved against its column.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// Selects no row.
    False,
    /// Selects every row, nulls included (`NOT IN ()`).
    Every,
    /// Selects the non-null rows.
    NotNull,
    /// Selects the null rows.
    IsNull,
    /// `column op scalar`, the scalar of the column's type.
    Cmp(CmpOp, Scalar),
    And(Vec<Resolved>),
    Or(Vec<Resolved>),
}

/// Where a literal falls among the values a column type can hold.
enum Placement {
    Exact(Scalar),
    /// Not representable: the nearest representable values below and above, if any.
    Gap {
        floor: Option<Scalar>,
        ceil: Option<Scalar>,
    },
}

/// Resolves a normalized leaf (no NOT) against the dtype of its column.
pub fn resolve(leaf: &Predicate, dtype: &DType) -> Result<Resolved> {
    let column = leaf.column().expect("resolve takes leaves");
    let cmp = |op: CmpOp, value: &Literal| -> Result<Resolved> {
        if matches!(value, Literal::Null) {
            return Ok(Resolved::False);
        }
        Ok(match place(value, dtype).map_err(|m| type_error(column, dtype, leaf, m))? {
            Placement::Exact(s) => Resolved::Cmp(op, s),
            Placement::Gap { floor, ceil } => match op {
                CmpOp::Eq => Resolved::False,
                CmpOp::Ne => Resolved::NotNull,
                CmpOp::Lt | CmpOp::Le => floor.map_or(Resolved::False, |f| Resolved::Cmp(CmpOp::Le, f)),
                CmpOp::Gt | CmpOp::Ge => ceil.map_or(Resolved::False, |c| Resolved::Cmp(CmpOp::Ge, c)),
            },
        })
    };
    match leaf {
        Predicate::Compare { op, value, .. } => cmp(*op, value),
        Predicate::Between { low, high, .. } => {
            Ok(Resolved::And(vec![cmp(CmpOp::Ge, low)?, cmp(CmpOp::Le, high)?]))
        }
        Predicate::In { values, negated, .. } => {
            if values.is_empty() {
                return Ok(if *negated { Resolved::Every } else { Resolved::False });
            }
            if *negated {
                if values.iter().any(|v| matches!(v, Literal::Null)) {
                    return Ok(Resolved::False);
                }
                Ok(Resolved::And(values.iter().map(|v| cmp(CmpOp::Ne, v)).collect::<Result<_>>()?))
            } else {
                Ok(Resolved::Or(values.iter().map(|v| cmp(CmpOp::Eq, v)).collect::<Result<_>>()?))
            }
        }
        Predicate::IsNull { negated, .. } => {
            Ok(if *negated { Resolved::NotNull } else { Resolved::IsNull })
        }
        _ => unreachable!("resolve takes leaves"),
    }
}

fn type_error(column: &str, dtype: &DType, leaf: &Predicate, message: String) -> Error {
    Error::column(column, format!("is {dtype}; predicate {leaf:?}: {message}"))
}

fn place(value: &Literal, dtype: &DType) -> std::result::Result<Placement, String> {
    match (dtype, value) {
        (DType::Utf8(_), Literal::Utf8(s)) => Ok(Placement::Exact(Scalar::utf8(s.as_str(), NonNullable))),
        (DType::Binary(_), Literal::Binary(b)) => Ok(Placement::Exact(Scalar::binary(b.clone(), NonNullable))),
        (DType::Binary(_), Literal::Utf8(s)) => {
            Ok(Placement::Exact(Scalar::binary(s.as_bytes().to_vec(), NonNullable)))
        }
        (DType::Bool(_), Literal::Bool(b)) => Ok(Placement::Exact(Scalar::bool(*b, NonNullable))),
        (DType::Primitive(p, _), v) if p.is_int() => place_int(*p, v),
        (DType::Primitive(PType::F64, _), v) => Ok(Placement::Exact(f64_scalar(as_f64(v)?))),
        (DType::Primitive(PType::F32, _), v) => Ok(place_f32(as_f64(v)?)),
        (DType::Decimal(d, _), v) => place_decimal(*d, v),
        _ => Err(format!("the literal {value:?} cannot be compared with a {dtype} column")),
    }
}

fn f64_scalar(v: f64) -> Scalar {
    Scalar::primitive(v, NonNullable)
}

fn as_f64(v: &Literal) -> std::result::Result<f64, String> {
    Ok(match v {
        Literal::I64(i) => *i as f64,
        Literal::U64(u) => *u as f64,
        Literal::F64(f) => *f,
        Literal::Decimal { scale, unscaled } => *unscaled as f64 / 10f64.powi(*scale),
        other => return Err(format!("the literal {other:?} is not a number")),
    })
}

/// An f64 literal against an f32 column: exact if it converts back unchanged, else strictly
/// between two neighbouring f32 values (possibly infinite, which columns can hold too).
fn place_f32(d: f64) -> Placement {
    let scalar = |v: f32| Scalar::primitive(v, NonNullable);
    let f = d as f32;
    if d.is_nan() || f as f64 == d {
        return Placement::Exact(scalar(f));
    }
    let (lo, hi) = if (f as f64) < d { (f, f.next_up()) } else { (f.next_down(), f) };
    Placement::Gap {
        floor: Some(scalar(lo)),
        ceil: Some(scalar(hi)),
    }
}

/// The integer range of an integer ptype.
fn int_range(p: PType) -> (i128, i128) {
    match p {
        PType::I8 => (i8::MIN as i128, i8::MAX as i128),
        PType::I16 => (i16::MIN as i128, i16::MAX as i128),
        PType::I32 => (i32::MIN as i128, i32::MAX as i128),
        PType::I64 => (i64::MIN as i128, i64::MAX as i128),
        PType::U8 => (0, u8::MAX as i128),
        PType::U16 => (0, u16::MAX as i128),
        PType::U32 => (0, u32::MAX as i128),
        PType::U64 => (0, u64::MAX as i128),
        _ => unreachable!("integer ptypes only"),
    }
}

fn int_scalar(p: PType, v: i128) -> Scalar {
    let pv = match p {
        PType::I8 => PValue::I8(v as i8),
        PType::I16 => PValue::I16(v as i16),
        PType::I32 => PValue::I32(v as i32),
        PType::I64 => PValue::I64(v as i64),
        PType::U8 => PValue::U8(v as u8),
        PType::U16 => PValue::U16(v as u16),
        PType::U32 => PValue::U32(v as u32),
        PType::U64 => PValue::U64(v as u64),
        _ => unreachable!("integer ptypes only"),
    };
    Scalar::primitive_value(pv, p, NonNullable)
}

/// Places a rational `r` among the integers `[min, max]`, given `floor` = the largest integer
/// at most `r` and whether `r` is that integer.
fn place_in_range(
    floor: i128,
    exact: bool,
    min: i128,
    max: i128,
    make: impl Fn(i128) -> Scalar,
) -> Placement {
    if exact && (min..=max).contains(&floor) {
        return Placement::Exact(make(floor));
    }
    // Not representable: the nearest representable integers below and above `r`, if any.
    let above = if exact { floor } else { floor + 1 };
    Placement::Gap {
        floor: (floor >= min).then(|| make(floor.min(max))),
        ceil: (above <= max).then(|| make(above.max(min))),
    }
}

fn place_int(p: PType, v: &Literal) -> std::result::Result<Placement, String> {
    let (min, max) = int_range(p);
    let make = |x: i128| int_scalar(p, x);
    match v {
        Literal::I64(i) => Ok(place_in_range(*i as i128, true, min, max, make)),
        Literal::U64(u) => Ok(place_in_range(*u as i128, true, min, max, make)),
        Literal::F64(f) => {
            if f.is_nan() || *f >= 1e39 {
                // Above every integer (NaN sorts last, as Java's Double.compare has it).
                return Ok(Placement::Gap { floor: Some(make(max)), ceil: None });
            }
            if *f <= -1e39 {
                return Ok(Placement::Gap { floor: None, ceil: Some(make(min)) });
            }
            let fl = f.floor();
            Ok(place_in_range(fl as i128, fl == *f, min, max, make))
        }
        Literal::Decimal { scale, unscaled } => {
            let (fl, exact) = rational_floor(*unscaled, *scale);
            Ok(place_in_range(fl, exact, min, max, make))
        }
        other => Err(format!("the literal {other:?} is not a number")),
    }
}

/// floor(unscaled / 10^scale) and whether the division is exact (saturating for huge scales).
fn rational_floor(unscaled: i128, scale: i32) -> (i128, bool) {
    if scale <= 0 {
        let m = 10i128.checked_pow((-scale) as u32);
        return match m.and_then(|m| unscaled.checked_mul(m)) {
            Some(v) => (v, true),
            None => (if unscaled < 0 { i128::MIN / 2 } else { i128::MAX / 2 }, true),
        };
    }
    match 10i128.checked_pow(scale as u32) {
        Some(d) => (unscaled.div_euclid(d), unscaled.rem_euclid(d) == 0),
        None => (if unscaled < 0 { -1 } else { 0 }, unscaled == 0),
    }
}

fn place_decimal(d: DecimalDType, v: &Literal) -> std::result::Result<Placement, String> {
    let (unscaled, scale) = match v {
        Literal::I64(i) => (*i as i128, 0),
        Literal::U64(u) => (*u as i128, 0),
        Literal::Decimal { scale, unscaled } => (*unscaled, *scale),
        other => return Err(format!("the literal {other:?} is not an integer or decimal")),
    };
    // Rescale to the column's scale: value * 10^(s - scale), exact or between two steps.
    let shift = d.scale() as i32 - scale;
    let (fl, exact) = rational_floor(unscaled, -shift);
    let bound = 10i128.pow(d.precision() as u32) - 1;
    let make = |x: i128| Scalar::decimal(DecimalValue::I128(x), d, NonNullable);
    Ok(place_in_range(fl, exact, -bound, bound, make))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vortex_array::dtype::Nullability::Nullable;

    fn leaf(op: CmpOp, value: Literal) -> Predicate {
        Predicate::Compare { column: "c".into(), op, value }
    }

    fn u8col() -> DType {
        DType::Primitive(PType::U8, Nullable)
    }

    #[test]
    fn out_of_range_integers_resolve_statically() {
        let r = |op, v| resolve(&leaf(op, Literal::I64(v)), &u8col()).unwrap();
        assert_eq!(r(CmpOp::Eq, 300), Resolved::False);
        assert_eq!(r(CmpOp::Ne, 300), Resolved::NotNull);
        assert_eq!(r(CmpOp::Lt, 300), Resolved::Cmp(CmpOp::Le, int_scalar(PType::U8, 255)));
        assert_eq!(r(CmpOp::Gt, 300), Resolved::False);
        assert_eq!(r(CmpOp::Gt, -1), Resolved::Cmp(CmpOp::Ge, int_scalar(PType::U8, 0)));
        assert_eq!(r(CmpOp::Lt, -1), Resolved::False);
        assert_eq!(r(CmpOp::Eq, 7), Resolved::Cmp(CmpOp::Eq, int_scalar(PType::U8, 7)));
    }

    #[test]
    fn fractions_against_integers_round_the_right_way() {
        let col = DType::Primitive(PType::I32, Nullable);
        let r = |op, v| resolve(&leaf(op, Literal::F64(v)), &col).unwrap();
        assert_eq!(r(CmpOp::Lt, 2.5), Resolved::Cmp(CmpOp::Le, int_scalar(PType::I32, 2)));
        assert_eq!(r(CmpOp::Ge, 2.5), Resolved::Cmp(CmpOp::Ge, int_scalar(PType::I32, 3)));
        assert_eq!(r(CmpOp::Ge, -2.5), Resolved::Cmp(CmpOp::Ge, int_scalar(PType::I32, -2)));
        assert_eq!(r(CmpOp::Eq, 2.5), Resolved::False);
        assert_eq!(r(CmpOp::Eq, 2.0), Resolved::Cmp(CmpOp::Eq, int_scalar(PType::I32, 2)));
        let dec = |op, unscaled, scale| {
            resolve(&leaf(op, Literal::Decimal { scale, unscaled }), &col).unwrap()
        };
        assert_eq!(dec(CmpOp::Le, -251, 2), Resolved::Cmp(CmpOp::Le, int_scalar(PType::I32, -3)));
    }

    #[test]
    fn null_literals_and_lists() {
        let col = DType::Utf8(Nullable);
        let s = |v: &str| Literal::Utf8(v.into());
        let p = |values, negated| Predicate::In { column: "c".into(), values, negated };
        assert_eq!(resolve(&p(vec![], false), &col).unwrap(), Resolved::False);
        assert_eq!(resolve(&p(vec![], true), &col).unwrap(), Resolved::Every);
        assert_eq!(resolve(&p(vec![s("a"), Literal::Null], true), &col).unwrap(), Resolved::False);
        assert_eq!(resolve(&leaf(CmpOp::Eq, Literal::Null), &col).unwrap(), Resolved::False);
    }

    #[test]
    fn wrong_literal_type_names_the_column() {
        let err = resolve(&leaf(CmpOp::Eq, Literal::I64(5)), &DType::Utf8(Nullable)).unwrap_err();
        assert!(err.to_string().contains("column 'c'"), "{err}");
    }

    #[test]
    fn decimal_rescaling() {
        let col = DType::Decimal(DecimalDType::new(5, 2), Nullable);
        let make = |x| Scalar::decimal(DecimalValue::I128(x), DecimalDType::new(5, 2), NonNullable);
        let r = |op, unscaled, scale| {
            resolve(&leaf(op, Literal::Decimal { scale, unscaled }), &col).unwrap()
        };
        assert_eq!(r(CmpOp::Eq, 15, 1), Resolved::Cmp(CmpOp::Eq, make(150)));
        assert_eq!(r(CmpOp::Lt, 1234, 3), Resolved::Cmp(CmpOp::Le, make(123)));
        assert_eq!(r(CmpOp::Eq, 1234, 3), Resolved::False);
    }
}
