//! Resolving a leaf predicate against a column's dtype: literals become scalars of the column's
//! type, and literals the type cannot hold exactly (300 for a u8 column, 2.5 for an integer
//! column) become the equivalent comparisons with representable values, so the answer is always
//! the mathematically right one. The result, a [`Resolved`] tree, is evaluated by vortex (as a
//! scan filter expression) or by the dictionary kernel (on dictionary values): one semantics.

use vortex_array::dtype::DType;
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
    /// `column IN (values)`, or with `negated` `NOT IN`: a non-null row outside the values. The
    /// values are distinct scalars of the column's type, at least [`SET_MIN`] of them (shorter
    /// lists resolve to comparisons); evaluated as one set lookup per value.
    InSet { values: Vec<Scalar>, negated: bool },
    /// `column [NOT] [I]LIKE pattern`, the pattern in vortex's syntax ([`crate::predicate::like`]).
    Like { pattern: String, case_insensitive: bool, negated: bool },
    And(Vec<Resolved>),
    Or(Vec<Resolved>),
}

impl Resolved {
    /// Whether it holds a case-insensitive LIKE, which is evaluated natively only on ASCII
    /// values (see [`crate::predicate::like`]).
    pub fn has_ilike(&self) -> bool {
        match self {
            Resolved::Like { case_insensitive, .. } => *case_insensitive,
            Resolved::And(c) | Resolved::Or(c) => c.iter().any(Resolved::has_ilike),
            _ => false,
        }
    }
}

/// The shortest `IN` list evaluated as a set. Shorter lists are an OR of equality compares,
/// which work on the encoded data (`bench/criterion/dict_filter.rs` measures the crossover).
pub const SET_MIN: usize = 16;

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
            if *negated && values.iter().any(|v| matches!(v, Literal::Null)) {
                return Ok(Resolved::False);
            }
            let op = if *negated { CmpOp::Ne } else { CmpOp::Eq };
            let points = values.iter().map(|v| cmp(op, v)).collect::<Result<Vec<_>>>()?;
            Ok(in_list(points, *negated))
        }
        Predicate::Like { pattern, escape, case_insensitive, negated, .. } => {
            if !matches!(dtype, DType::Utf8(_)) {
                return Err(type_error(column, dtype, leaf, "LIKE takes utf8 columns".into()));
            }
            let pattern = crate::predicate::like::to_vortex(&crate::predicate::like::parse(pattern, *escape)?);
            Ok(Resolved::Like { pattern, case_insensitive: *case_insensitive, negated: *negated })
        }
        Predicate::IsNull { negated, .. } => {
            Ok(if *negated { Resolved::NotNull } else { Resolved::IsNull })
        }
        // List leaves are evaluated by `filter::list` on the list itself, never resolved to a compare.
        Predicate::ListContains { .. } | Predicate::ListLength { .. } => {
            Err(type_error(column, dtype, leaf, "list predicates are not resolved against a column's values".into()))
        }
        _ => unreachable!("resolve takes leaves"),
    }
}

/// `IN` (or, `negated`, `NOT IN`) from its literals resolved one by one (`= v` or `<> v`): the
/// literals the column type holds exactly are the points; the others select nothing (`IN`) or
/// constrain nothing beyond non-null (`NOT IN`). Long lists of points become a set.
fn in_list(resolved: Vec<Resolved>, negated: bool) -> Resolved {
    let mut exact: Vec<Scalar> = resolved
        .into_iter()
        .filter_map(|r| match r {
            Resolved::Cmp(_, s) => Some(s),
            _ => None,
        })
        .collect();
    // Equal scalars are one point. Scalar equality is by value, floats bitwise (as vortex's
    // compare), so it is an equivalence and hashing is consistent with it.
    #[derive(PartialEq, Hash)]
    struct Point(Scalar);
    impl Eq for Point {}
    let mut seen = std::collections::HashSet::with_capacity(exact.len());
    exact.retain(|s| seen.insert(Point(s.clone())));
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    let mut points: Vec<Resolved> = if exact.len() >= SET_MIN {
        vec![Resolved::InSet { values: exact, negated }]
    } else {
        exact.into_iter().map(|s| Resolved::Cmp(op, s)).collect()
    };
    match (points.len(), negated) {
        (0, false) => Resolved::False,
        // Every literal is one the type cannot hold: every non-null row is outside the list.
        (0, true) => Resolved::NotNull,
        (1, _) => points.pop().expect("one point"),
        (_, true) => Resolved::And(points),
        (_, false) => Resolved::Or(points),
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
        (DType::Primitive(p, _), v) if p.is_int() => {
            let (min, max) = int_range(*p);
            place_exact(&number(v)?, 0, min, max, |x| int_scalar(*p, x))
        }
        (DType::Primitive(PType::F64, _), v) => Ok(place_float::<f64>(&number(v)?)),
        (DType::Primitive(PType::F32, _), v) => Ok(place_float::<f32>(&number(v)?)),
        (DType::Decimal(d, _), v) => {
            let bound = 10i128.pow(d.precision() as u32) - 1;
            let d = *d;
            place_exact(&number(v)?, d.scale() as i32, -bound, bound, move |x| {
                Scalar::decimal(DecimalValue::I128(x), d, NonNullable)
            })
        }
        // Dates, times and timestamps: their integer storage in the column's units, compared as
        // the extension type (vortex compares the storage of two values of one extension type).
        (DType::Extension(ext), v) if matches!(ext.storage_dtype(), DType::Primitive(p, _) if p.is_int()) => {
            let ext = ext.with_nullability(NonNullable);
            let wrap = |s: Scalar| Scalar::extension_ref(ext.clone(), s);
            Ok(match place(v, ext.storage_dtype())? {
                Placement::Exact(s) => Placement::Exact(wrap(s)),
                Placement::Gap { floor, ceil } => Placement::Gap { floor: floor.map(wrap), ceil: ceil.map(wrap) },
            })
        }
        _ => Err(format!("the literal {value:?} cannot be compared with a {dtype} column")),
    }
}

/// A numeric literal's exact value.
enum Number {
    /// `unscaled / 10^scale`.
    Rational(i128, i32),
    Float(f64),
}

fn number(v: &Literal) -> std::result::Result<Number, String> {
    Ok(match v {
        Literal::I64(i) => Number::Rational(*i as i128, 0),
        Literal::U64(u) => Number::Rational(*u as i128, 0),
        Literal::Decimal { scale, unscaled } => Number::Rational(*unscaled, *scale),
        Literal::F64(f) => Number::Float(*f),
        other => return Err(format!("the literal {other:?} is not a number")),
    })
}

/// `floor(n * 10^scale)` and whether that is exact; `None` when the result would not fit an
/// i128 comfortably (it is then beyond every column range, by its sign).
fn units(n: &Number, scale: i32) -> Option<(i128, bool)> {
    match n {
        Number::Rational(u, s) => {
            let (fl, exact) = rational_floor(*u, s - scale);
            (fl.unsigned_abs() < 1u128 << 126).then_some((fl, exact))
        }
        Number::Float(d) => float_units(*d, scale),
    }
}

/// `floor(d * 10^scale)` exactly (a double is `m * 2^e`), via 256-bit integers.
fn float_units(d: f64, scale: i32) -> Option<(i128, bool)> {
    use arrow::datatypes::i256;
    if !d.is_finite() || !(0..=38).contains(&scale) {
        return None;
    }
    if d == 0.0 {
        return Some((0, true));
    }
    let bits = d.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if exp == 0 { (frac, -1074) } else { (frac | 1 << 52, exp - 1075) };
    let num = i256::from_i128(m as i128).checked_mul(i256::from_i128(10).checked_pow(scale as u32)?)?;
    let (q, exact) = if e >= 0 {
        if e > 200 {
            return None;
        }
        (num.checked_mul(i256::from_i128(1) << e as u8)?, true)
    } else if -e > 250 {
        (i256::from_i128(0), false)
    } else {
        let div = i256::from_i128(1) << (-e) as u8;
        (num.wrapping_div(div), num.wrapping_rem(div) == i256::from_i128(0))
    };
    let q = q.to_i128().filter(|q| q.unsigned_abs() < 1u128 << 126)?;
    Some(if d < 0.0 { (if exact { -q } else { -q - 1 }, exact) } else { (q, exact) })
}

/// Places an exact number among the integers `[min, max]` (an integer column, or a decimal
/// column in units of `10^-scale`).
fn place_exact(
    n: &Number,
    scale: i32,
    min: i128,
    max: i128,
    make: impl Fn(i128) -> Scalar,
) -> std::result::Result<Placement, String> {
    let above_all = || Placement::Gap { floor: Some(make(max)), ceil: None };
    let below_all = || Placement::Gap { floor: None, ceil: Some(make(min)) };
    if let Number::Float(d) = n {
        // NaN sorts above every number, as Java's Double.compare has it.
        if d.is_nan() || *d == f64::INFINITY {
            return Ok(above_all());
        }
        if *d == f64::NEG_INFINITY {
            return Ok(below_all());
        }
    }
    Ok(match units(n, scale) {
        Some((floor, exact)) => place_in_range(floor, exact, min, max, make),
        None if matches!(n, Number::Float(d) if *d < 0.0) || matches!(n, Number::Rational(u, _) if *u < 0) => below_all(),
        None => above_all(),
    })
}

/// Float column types.
trait Float: Copy + PartialEq + Into<f64> + std::str::FromStr + Into<Scalar> {
    fn from_f64(d: f64) -> Self;
    fn up(self) -> Self;
    fn down(self) -> Self;
}

impl Float for f64 {
    fn from_f64(d: f64) -> Self {
        d
    }
    fn up(self) -> Self {
        self.next_up()
    }
    fn down(self) -> Self {
        self.next_down()
    }
}

impl Float for f32 {
    fn from_f64(d: f64) -> Self {
        d as f32
    }
    fn up(self) -> Self {
        self.next_up()
    }
    fn down(self) -> Self {
        self.next_down()
    }
}

/// Places a number among the values of a float type: the nearest value (correctly rounded),
/// exact if it equals the number, else the number lies strictly between it and a neighbour.
fn place_float<F: Float>(n: &Number) -> Placement {
    let nearest: F = match n {
        Number::Float(d) => F::from_f64(*d),
        Number::Rational(u, s) => format!("{u}e{}", -s).parse().ok().unwrap_or_else(|| F::from_f64(*u as f64)),
    };
    let f: f64 = nearest.into();
    let order = match n {
        Number::Float(d) if d.is_nan() || f.is_nan() => std::cmp::Ordering::Equal,
        Number::Float(d) => f.partial_cmp(d).expect("not NaN"),
        Number::Rational(u, s) => {
            let (u, s) = if *s < 0 { (u.saturating_mul(10i128.saturating_pow((-s) as u32)), 0) } else { (*u, *s) };
            match float_units(f, s) {
                Some((fl, true)) => fl.cmp(&u),
                Some((fl, false)) if fl < u => std::cmp::Ordering::Less,
                Some(_) => std::cmp::Ordering::Greater,
                // Out of range (or infinite): the float's sign says which side it is on.
                None if f > 0.0 => std::cmp::Ordering::Greater,
                None => std::cmp::Ordering::Less,
            }
        }
    };
    match order {
        std::cmp::Ordering::Equal => Placement::Exact(nearest.into()),
        std::cmp::Ordering::Less => Placement::Gap { floor: Some(nearest.into()), ceil: Some(nearest.up().into()) },
        std::cmp::Ordering::Greater => Placement::Gap { floor: Some(nearest.down().into()), ceil: Some(nearest.into()) },
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

/// floor(unscaled / 10^scale) and whether the division is exact (saturating for huge values).
fn rational_floor(unscaled: i128, scale: i32) -> (i128, bool) {
    if scale <= 0 {
        let m = 10i128.checked_pow(scale.unsigned_abs());
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

#[cfg(test)]
mod tests {
    use super::*;
    use vortex_array::dtype::DecimalDType;
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
    fn floats_and_decimals_compare_by_exact_value() {
        let f64col = DType::Primitive(PType::F64, Nullable);
        let dec = |op, unscaled, scale| {
            resolve(&leaf(op, Literal::Decimal { scale, unscaled }), &f64col).unwrap()
        };
        // 0.1 is not a double: = selects nothing, < is <= the double just below 0.1.
        assert_eq!(dec(CmpOp::Eq, 1, 1), Resolved::False);
        assert_eq!(dec(CmpOp::Lt, 1, 1), Resolved::Cmp(CmpOp::Le, Scalar::primitive(0.1f64.next_down(), NonNullable)));
        assert_eq!(dec(CmpOp::Ge, 1, 1), Resolved::Cmp(CmpOp::Ge, Scalar::primitive(0.1f64, NonNullable)));
        // 0.5 is exact.
        assert_eq!(dec(CmpOp::Eq, 5, 1), Resolved::Cmp(CmpOp::Eq, Scalar::primitive(0.5f64, NonNullable)));
        // A double on a decimal(10, 2) column: 12.5 is 1250 exactly, 0.1 lies between 0.10 and 0.11.
        let col = DType::Decimal(DecimalDType::new(10, 2), Nullable);
        let make = |x| Scalar::decimal(DecimalValue::I128(x), DecimalDType::new(10, 2), NonNullable);
        let f = |op, v| resolve(&leaf(op, Literal::F64(v)), &col).unwrap();
        assert_eq!(f(CmpOp::Eq, 12.5), Resolved::Cmp(CmpOp::Eq, make(1250)));
        assert_eq!(f(CmpOp::Eq, 0.1), Resolved::False);
        assert_eq!(f(CmpOp::Gt, 0.1), Resolved::Cmp(CmpOp::Ge, make(11)));
        assert_eq!(f(CmpOp::Le, -0.1), Resolved::Cmp(CmpOp::Le, make(-11)));
        assert_eq!(f(CmpOp::Lt, 1e300), Resolved::Cmp(CmpOp::Le, make(9_999_999_999)));
        // Integers beyond 2^53 against a double column.
        let big = (1i64 << 53) + 1;
        assert_eq!(
            resolve(&leaf(CmpOp::Eq, Literal::I64(big)), &f64col).unwrap(),
            Resolved::False
        );
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
