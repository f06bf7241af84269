//! Long `IN` / `NOT IN` lists, resolved to a set lookup (vortex's prepared set), select exactly
//! the rows the list of single comparisons selects (how every list was evaluated before, and how
//! short lists still are), on every column type: literals of mixed numeric types, out of range,
//! fractional, duplicated, NULL; float columns with -0.0, NaN and infinities; strings with
//! non-ASCII and empty values; null rows.

#[allow(dead_code)]
#[path = "../rust/fixtures/dict_fixture.rs"]
mod fixture;

use vortex4j::filter::column_selection;
use fixture::Rng;
use vortex4j::predicate::CmpOp;
use vortex4j::predicate::Literal;
use vortex4j::predicate::Predicate;
use vortex4j::predicate::resolve::Resolved;
use vortex4j::predicate::resolve::SET_MIN;
use vortex4j::predicate::resolve::resolve;
use vortex4j::runtime::session::execution_ctx;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DecimalArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::dtype::DecimalDType;
use vortex_array::dtype::NativePType;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;

/// Today's form: the OR of `column = v` (NOT IN: the AND of `column <> v`), each literal
/// resolved and evaluated on its own.
fn one_by_one(column: &ArrayRef, values: &[Literal], negated: bool) -> Vec<u64> {
    let mut ctx = execution_ctx();
    let len = column.len();
    if values.is_empty() {
        return if negated { vec![u64::MAX; len.div_ceil(64)] } else { vec![0; len.div_ceil(64)] };
    }
    let mut acc = if negated { vec![u64::MAX; len.div_ceil(64)] } else { vec![0; len.div_ceil(64)] };
    for v in values {
        let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
        let leaf = Predicate::Compare { column: "c".into(), op, value: v.clone() };
        let words = column_selection(column, &resolve(&leaf, column.dtype()).unwrap(), &mut ctx).unwrap();
        for (a, w) in acc.iter_mut().zip(words) {
            if negated { *a &= w } else { *a |= w }
        }
    }
    if len % 64 != 0 {
        *acc.last_mut().unwrap() &= (1u64 << (len % 64)) - 1;
    }
    acc
}

fn has_set(r: &Resolved) -> bool {
    match r {
        Resolved::InSet { .. } => true,
        Resolved::And(c) | Resolved::Or(c) => c.iter().any(has_set),
        _ => false,
    }
}

/// The list as a set gives today's answer, for IN and NOT IN, with and without a NULL.
fn check(name: &str, column: &ArrayRef, values: Vec<Literal>) {
    let mut ctx = execution_ctx();
    for negated in [false, true] {
        for with_null in [false, true] {
            let mut values = values.clone();
            if with_null {
                values.insert(values.len() / 2, Literal::Null);
            }
            let leaf = Predicate::In { column: "c".into(), values: values.clone(), negated };
            let resolved = resolve(&leaf, column.dtype()).unwrap();
            if negated && with_null {
                // NOT IN with a NULL selects nothing, without any lookup.
                assert_eq!(resolved, Resolved::False, "{name}");
            } else if values.len() >= 4 * SET_MIN {
                assert!(has_set(&resolved), "{name}: a set for {} literals", values.len());
            }
            let got = column_selection(column, &resolved, &mut ctx).unwrap();
            let want = if negated && with_null { vec![0; column.len().div_ceil(64)] } else { one_by_one(column, &values, negated) };
            assert_eq!(got, want, "{name} negated={negated} null={with_null}");
        }
    }
}

fn nullable<T: NativePType>(values: Vec<T>) -> ArrayRef {
    let valid: Vec<bool> = (0..values.len()).map(|i| i % 13 != 7).collect();
    PrimitiveArray::new(values.into_iter().collect::<Buffer<T>>(), Validity::from_iter(valid)).into_array()
}

/// Integer literals of every wire type, some out of the column's range or fractional.
fn numbers(rng: &mut Rng, n: usize, span: i64) -> Vec<Literal> {
    (0..n)
        .map(|i| {
            let v = rng.below(2 * span as usize) as i64 - span;
            match i % 6 {
                0 => Literal::I64(v),
                1 => Literal::F64(v as f64),
                2 => Literal::Decimal { scale: 2, unscaled: v as i128 * 100 },
                3 => Literal::F64(v as f64 + 0.5),
                4 => Literal::U64(v.unsigned_abs() + (1 << 40)),
                _ => Literal::I64(v.wrapping_mul(1 << 20)),
            }
        })
        .collect()
}

#[test]
fn integer_columns() {
    let mut rng = Rng::new(1);
    let n = 5000;
    let i64s: Vec<i64> = (0..n).map(|_| rng.below(4000) as i64 - 2000).collect();
    let u8s: Vec<u8> = (0..n).map(|_| rng.below(256) as u8).collect();
    let i32s: Vec<i32> = (0..n).map(|_| rng.below(4000) as i32 - 2000).collect();
    for count in [SET_MIN, 100, 10_000] {
        let lits = numbers(&mut rng, count, 2500);
        check(&format!("i64 x{count}"), &nullable(i64s.clone()), lits.clone());
        check(&format!("i32 x{count}"), &nullable(i32s.clone()), lits);
        check(&format!("i64 (small span) x{count}"), &nullable(i64s.clone()), numbers(&mut rng, count, 30));
        check(&format!("u8 x{count}"), &nullable(u8s.clone()), numbers(&mut rng, count, 300));
    }
    // Duplicates only: one distinct point is a comparison, not a set.
    let dup = vec![Literal::I64(5); 100];
    let r = resolve(&Predicate::In { column: "c".into(), values: dup, negated: false }, nullable(i64s.clone()).dtype()).unwrap();
    assert!(!has_set(&r), "{r:?}");
}

#[test]
fn float_columns_with_signed_zeros_nan_and_infinities() {
    let mut rng = Rng::new(2);
    let special = [0.0f64, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.5, 1e300, -1e-300];
    let f64s: Vec<f64> = (0..4000)
        .map(|i| if i % 5 == 0 { special[i % special.len()] } else { (rng.below(2000) as f64 - 1000.0) / 4.0 })
        .collect();
    let f32s: Vec<f32> = f64s.iter().map(|&d| d as f32).collect();
    for count in [SET_MIN, 100, 10_000] {
        let mut lits = numbers(&mut rng, count, 300);
        lits.extend([0.0, -0.0, f64::NAN, f64::INFINITY, 0.5, 1e300].map(Literal::F64));
        lits.push(Literal::I64(0));
        lits.push(Literal::Decimal { scale: 1, unscaled: 5 });
        lits.extend((0..count / 4).map(|i| Literal::F64(i as f64 / 4.0 - 100.0)));
        check(&format!("f64 x{count}"), &nullable(f64s.clone()), lits.clone());
        check(&format!("f32 x{count}"), &nullable(f32s.clone()), lits);
    }
}

#[test]
fn decimal_columns() {
    let mut rng = Rng::new(3);
    let dtype = DecimalDType::new(12, 2);
    let values: Vec<i64> = (0..3000).map(|_| rng.below(20_000) as i64 - 10_000).collect();
    let valid: Vec<bool> = (0..values.len()).map(|i| i % 11 != 3).collect();
    let column = DecimalArray::new(values.into_iter().collect::<Buffer<i64>>(), dtype, Validity::from_iter(valid)).into_array();
    for count in [SET_MIN, 1000] {
        let mut lits = numbers(&mut rng, count, 100);
        lits.extend((0..count).map(|i| Literal::Decimal { scale: 3, unscaled: (i as i128 - 500) * 10 + (i as i128 % 2) }));
        check(&format!("decimal x{count}"), &column, lits);
    }
}

#[test]
fn string_columns() {
    let mut rng = Rng::new(4);
    let words: Vec<String> = (0..500).map(|i| format!("w{i:04}")).chain(["", "Zürich", "東京", "🎉"].map(String::from)).collect();
    let rows: Vec<Option<&str>> = (0..6000).map(|i| (i % 17 != 0).then(|| words[rng.below(words.len())].as_str())).collect();
    let column = VarBinViewArray::from_iter_nullable_str(rows).into_array();
    for count in [SET_MIN, 100, 10_000] {
        let lits: Vec<Literal> = (0..count)
            .map(|i| Literal::Utf8(if i % 3 == 0 { format!("absent{i}") } else { words[rng.below(words.len())].clone() }))
            .collect();
        check(&format!("utf8 x{count}"), &column, lits);
    }
}
