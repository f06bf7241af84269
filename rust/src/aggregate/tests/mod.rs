//! The kernel against row-by-row evaluations: grouping by one key and none here, several keys
//! in [`keys`], the folds over encoded, sparse and float columns in [`folds`].

mod folds;
mod keys;

use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;

use super::Agg;
use super::Aggregated;
use super::Func;
use super::Partial;
use super::Values;
use super::aggregate;
use crate::runtime::session::execution_ctx;

fn specs<'a>(aggs: &[(Func, Option<&'a ArrayRef>)]) -> Vec<Agg<'a>> {
    aggs.iter().map(|&(func, column)| Agg { func, column, start: 0.0 }).collect()
}

fn ints(p: &Partial) -> Vec<i64> {
    match &p.value {
        Values::Int(v) => v.clone(),
        Values::Float(v) => panic!("float values {v:?}"),
    }
}

/// A deterministic pseudo-random sequence.
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[test]
fn groups_by_code_with_null_codes_and_null_entries() {
    // Entries: a, NULL, b. Codes: 0 1 2 0 (null) 2 0; values v: 5 7 -3 NULL 9 4 1.
    let values = VarBinViewArray::from_iter_nullable_str([Some("a"), None, Some("b")]).into_array();
    let codes = PrimitiveArray::new(
        [0u16, 1, 2, 0, 0, 2, 0].into_iter().collect::<Buffer<u16>>(),
        Validity::from_iter([true, true, true, true, false, true, true]),
    )
    .into_array();
    let key = DictArray::try_new(codes, values).unwrap().into_array();
    let v = PrimitiveArray::new(
        [5i32, 7, -3, 0, 9, 4, 1].into_iter().collect::<Buffer<i32>>(),
        Validity::from_iter([true, true, true, false, true, true, true]),
    )
    .into_array();
    // Select every row but the last.
    let selection = [0b0111111u64];
    let aggs = [(Func::CountStar, None), (Func::Count, Some(&v)), (Func::Sum, Some(&v)), (Func::Min, Some(&v)), (Func::Max, Some(&v))];
    let Aggregated { groups, partials: p, .. } = aggregate(&[&key], 7, Some(&selection), &specs(&aggs), &mut execution_ctx()).unwrap().unwrap();
    // Groups: code 0 (a), code 1 (NULL entry -> null group), code 2 (b), null group = 3.
    assert_eq!(groups, 4);
    assert_eq!(p[0].count, vec![2, 0, 2, 2]); // rows: a {0,3}, b {2,5}, null {1,4}
    assert_eq!(p[1].count, vec![2, 0, 2, 2]); // COUNT(*)
    assert_eq!(p[2].count, vec![1, 0, 2, 2]); // COUNT(v): row 3 is null
    assert_eq!((p[3].count[0], ints(&p[3])[0]), (1, 5)); // SUM a
    assert_eq!((ints(&p[3])[2], ints(&p[3])[3]), (1, 16)); // SUM b, SUM null group (7 + 9)
    assert_eq!((ints(&p[4])[2], ints(&p[5])[2]), (-3, 4)); // MIN/MAX b
}

/// Every selection density, with and without a key, nulls everywhere, against a row-by-row
/// evaluation.
#[test]
fn every_density_matches_a_row_by_row_answer() {
    let n = 1000usize;
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
    let entries = [Some("a"), None, Some("b"), Some("c")];
    let values = VarBinViewArray::from_iter_nullable_str(entries).into_array();
    let code: Vec<u16> = (0..n).map(|_| (next() % 4) as u16).collect();
    let code_ok: Vec<bool> = (0..n).map(|_| next() % 10 != 0).collect();
    let v: Vec<i64> = (0..n).map(|_| (next() % 2001) as i64 - 1000).collect();
    let v_ok: Vec<bool> = (0..n).map(|_| next() % 7 != 0).collect();
    let codes = PrimitiveArray::new(code.iter().copied().collect::<Buffer<u16>>(), Validity::from_iter(code_ok.iter().copied())).into_array();
    let key = DictArray::try_new(codes, values).unwrap().into_array();
    let col = PrimitiveArray::new(v.iter().copied().collect::<Buffer<i64>>(), Validity::from_iter(v_ok.iter().copied())).into_array();
    let aggs = [(Func::CountStar, None), (Func::Count, Some(&col)), (Func::Sum, Some(&col)), (Func::Min, Some(&col)), (Func::Max, Some(&col))];
    for percent in [0u64, 1, 5, 12, 13, 50, 99, 100] {
        let keep: Vec<bool> = (0..n).map(|_| next() % 100 < percent).collect();
        let mut words = vec![0u64; n.div_ceil(64)];
        keep.iter().enumerate().filter(|(_, k)| **k).for_each(|(r, _)| words[r / 64] |= 1 << (r % 64));
        for keyed in [true, false] {
            let groups = if keyed { 5 } else { 1 };
            let group = |r: usize| match (keyed, code_ok[r], entries[code[r] as usize]) {
                (false, _, _) => 0,
                (true, true, Some(_)) => code[r] as usize,
                _ => 4,
            };
            let (mut rows, mut count, mut sum) = (vec![0i64; groups], vec![0i64; groups], vec![0i64; groups]);
            let (mut min, mut max) = (vec![i64::MAX; groups], vec![i64::MIN; groups]);
            for r in (0..n).filter(|&r| keep[r]) {
                let g = group(r);
                rows[g] += 1;
                if v_ok[r] {
                    count[g] += 1;
                    sum[g] += v[r];
                    min[g] = min[g].min(v[r]);
                    max[g] = max[g].max(v[r]);
                }
            }
            let zero_empty = |a: Vec<i64>| a.into_iter().zip(&count).map(|(a, &c)| if c == 0 { 0 } else { a }).collect::<Vec<_>>();
            let selection = (percent != 100).then_some(&words[..]);
            let keys: Vec<&ArrayRef> = if keyed { vec![&key] } else { vec![] };
            let Aggregated { groups: got_groups, partials: p, .. } = aggregate(&keys, n, selection, &specs(&aggs), &mut execution_ctx()).unwrap().unwrap();
            let what = format!("{percent}% keyed={keyed}");
            assert_eq!(got_groups, groups, "{what}");
            assert_eq!((&p[0].count, &p[1].count, &p[2].count), (&rows, &rows, &count), "{what}");
            assert_eq!((&p[3].count, &p[4].count, &p[5].count), (&count, &count, &count), "{what}");
            assert_eq!(ints(&p[3]), zero_empty(sum.clone()), "{what}");
            assert_eq!(ints(&p[4]), zero_empty(min.clone()), "{what}");
            assert_eq!(ints(&p[5]), zero_empty(max.clone()), "{what}");
        }
    }
}

#[test]
fn declines_what_java_computes() {
    let plain = VarBinViewArray::from_iter_str(["x", "y"]).into_array();
    assert!(aggregate(&[&plain], 2, None, &specs(&[(Func::CountStar, None)]), &mut execution_ctx()).unwrap().is_none());
    // A float sum by a key: Java's running sums per group are not known before grouping.
    let values = VarBinViewArray::from_iter_str(["x", "y"]).into_array();
    let codes = PrimitiveArray::new([0u8, 1].into_iter().collect::<Buffer<u8>>(), Validity::NonNullable).into_array();
    let key = DictArray::try_new(codes, values).unwrap().into_array();
    let f = PrimitiveArray::new([1.5f64, 2.0].into_iter().collect::<Buffer<f64>>(), Validity::NonNullable).into_array();
    assert!(aggregate(&[&key], 2, None, &specs(&[(Func::Sum, Some(&f))]), &mut execution_ctx()).unwrap().is_none());
    assert!(aggregate(&[&key], 2, None, &specs(&[(Func::Max, Some(&f))]), &mut execution_ctx()).unwrap().is_some());
    assert!(aggregate(&[], 2, None, &specs(&[(Func::Sum, Some(&f))]), &mut execution_ctx()).unwrap().is_some());
}

#[test]
fn sum_overflow_is_an_error() {
    let big = PrimitiveArray::new([i64::MAX, 1].into_iter().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
    assert!(aggregate(&[], 2, None, &specs(&[(Func::Sum, Some(&big))]), &mut execution_ctx()).is_err());
    // Extremes that cancel: the sum is exact.
    let wide = PrimitiveArray::new([i64::MAX, 5, i64::MIN].into_iter().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
    let p = aggregate(&[], 3, None, &specs(&[(Func::Sum, Some(&wide))]), &mut execution_ctx()).unwrap().unwrap().partials;
    assert_eq!(ints(&p[1]), vec![4]);
}
