//! The folds over encoded columns (decoded whole or taken at sparse selections, or already
//! decoded) and over floats (Java's running sum and `Double.compare` order).

use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;

use vortex_array::arrays::Primitive;

use super::ints;
use super::specs;
use super::xorshift;
use crate::aggregate::Agg;
use crate::aggregate::Func;
use crate::aggregate::Values;
use crate::aggregate::aggregate;
use crate::runtime::session::execution_ctx;

/// A bit-packed integer column (nulls, patched outliers) that is both a group key and the
/// aggregated column, beside a dictionary key with bit-packed codes and a float column in two
/// chunks (not decoded: the kernel decodes or takes them), over selections of no row, sparse
/// ones (taken at the selected rows), a dense one and every row; the same rows already decoded
/// (as a chunk's shared decoding hands them) give the same answers; narrow values group
/// through tables, wide ones through hash maps. Against a row-by-row evaluation.
#[test]
fn sparse_and_shared_decodings_match_a_row_by_row_answer() {
    use vortex_array::arrays::ChunkedArray;
    use vortex_fastlanes::BitPacked;
    let n = 5000usize;
    let mut next = xorshift(0x6A09_E667_F3BC_C908u64);
    let entries = [Some("a"), None, Some("b"), Some("c"), Some("d")];
    let code: Vec<u16> = (0..n).map(|_| (next() % entries.len() as u64) as u16).collect();
    let codes = PrimitiveArray::new(code.iter().copied().collect::<Buffer<u16>>(), Validity::NonNullable).into_array();
    let packed_codes = BitPacked::encode(&codes, 3, &mut execution_ctx()).unwrap().into_array();
    let key = DictArray::try_new(packed_codes, VarBinViewArray::from_iter_nullable_str(entries).into_array()).unwrap().into_array();
    let sym = |r: usize| entries[code[r] as usize].map(str::to_string);
    let f: Vec<f64> = (0..n).map(|_| (next() % 10_000) as f64 / 8.0 - 300.0).collect();
    let f_ok: Vec<bool> = (0..n).map(|_| next() % 9 != 0).collect();
    let f_half = |lo: usize, hi: usize| {
        PrimitiveArray::new(f[lo..hi].iter().copied().collect::<Buffer<f64>>(), Validity::from_iter(f_ok[lo..hi].iter().copied())).into_array()
    };
    let floats = ChunkedArray::try_new([f_half(0, 1800), f_half(1800, n)], f_half(0, 1).dtype().clone()).unwrap().into_array();
    for wide in [false, true] {
        // Non-negative (bit-packing's domain); outliers beyond 5 bits become patches.
        let v: Vec<i64> = (0..n).map(|_| if next() % 40 == 0 { 1_000 + (next() % if wide { 1 << 40 } else { 50 }) as i64 } else { (next() % 20) as i64 }).collect();
        let v_ok: Vec<bool> = (0..n).map(|_| next() % 6 != 0).collect();
        let plain = PrimitiveArray::new(v.iter().copied().collect::<Buffer<i64>>(), Validity::from_iter(v_ok.iter().copied())).into_array();
        let packed = BitPacked::encode(&plain, 5, &mut execution_ctx()).unwrap().into_array();
        assert!(!packed.is::<Primitive>());
        for percent in [0u64, 1, 5, 40, 100] {
            let keep: Vec<bool> = (0..n).map(|_| percent == 100 || next() % 100 < percent).collect();
            let mut words = vec![0u64; n.div_ceil(64)];
            keep.iter().enumerate().filter(|(_, k)| **k).for_each(|(r, _)| words[r / 64] |= 1 << (r % 64));
            let selection = (percent != 100).then_some(&words[..]);
            for column in [&packed, &plain] {
                let decoded = column.is::<Primitive>();
                let what = format!("wide={wide} {percent}% decoded={decoded}");
                let aggs = specs(&[
                    (Func::CountStar, None),
                    (Func::Count, Some(column)),
                    (Func::Sum, Some(column)),
                    (Func::Min, Some(column)),
                    (Func::Max, Some(column)),
                    (Func::Max, Some(&floats)),
                ]);
                let value = |r: usize| v_ok[r].then_some(v[r]);
                // (sym, v), (v, sym), (sym), (): each group's key tuple and aggregates.
                type Key = Vec<Option<String>>;
                let tuple_of = |order: usize, r: usize| -> Key {
                    let (s, x) = (sym(r), value(r).map(|x| x.to_string()));
                    match order {
                        0 => vec![s, x],
                        1 => vec![x, s],
                        2 => vec![s],
                        _ => vec![],
                    }
                };
                for order in 0..4 {
                    let keys: Vec<&ArrayRef> = match order {
                        0 => vec![&key, column],
                        1 => vec![column, &key],
                        2 => vec![&key],
                        _ => vec![],
                    };
                    let got = aggregate(&keys, n, selection, &aggs, &mut execution_ctx()).unwrap().unwrap();
                    let name = |g: usize, k: usize| -> Option<String> {
                        match order {
                            2 => (g < entries.len()).then(|| entries[g]).flatten().map(str::to_string),
                            3 => unreachable!("no key"),
                            _ => {
                                let kv = &got.keys[k];
                                let is_sym = (order == 0) == (k == 0);
                                match (kv.nulls[g], is_sym) {
                                    (true, _) => None,
                                    (false, true) => entries[kv.values[g] as usize].map(str::to_string),
                                    (false, false) => Some(kv.values[g].to_string()),
                                }
                            }
                        }
                    };
                    type Row = (i64, i64, i64, i64, i64, i64, Option<u64>);
                    let mut seen = std::collections::HashMap::<Key, Row>::new();
                    for g in 0..got.groups {
                        if got.partials[0].count[g] == 0 {
                            continue;
                        }
                        let tuple: Key = (0..keys.len()).map(|k| name(g, k)).collect();
                        let p = &got.partials;
                        let fmax = match &p[6].value {
                            Values::Float(m) => (p[6].count[g] > 0).then(|| m[g].to_bits()),
                            Values::Int(_) => panic!("{what}: integer max of a float column"),
                        };
                        let zero_empty = |x: i64| if p[2].count[g] == 0 { 0 } else { x };
                        let row = (p[0].count[g], p[1].count[g], p[2].count[g], zero_empty(ints(&p[3])[g]), zero_empty(ints(&p[4])[g]), zero_empty(ints(&p[5])[g]), fmax);
                        assert!(seen.insert(tuple.clone(), row).is_none(), "{what} order {order}: {tuple:?} in two groups");
                    }
                    let mut expected = std::collections::HashMap::<Key, Row>::new();
                    for r in (0..n).filter(|&r| keep[r]) {
                        let e = expected.entry(tuple_of(order, r)).or_insert((0, 0, 0, 0, i64::MAX, i64::MIN, None));
                        e.0 += 1;
                        e.1 += 1;
                        if let Some(x) = value(r) {
                            e.2 += 1;
                            e.3 += x;
                            e.4 = e.4.min(x);
                            e.5 = e.5.max(x);
                        }
                        if f_ok[r] {
                            e.6 = Some(e.6.map_or(f[r], |m| f64::from_bits(m).max(f[r])).to_bits());
                        }
                    }
                    for e in expected.values_mut().filter(|e| e.2 == 0) {
                        (e.3, e.4, e.5) = (0, 0, 0);
                    }
                    if order == 3 && expected.is_empty() {
                        // Without a key the one group exists with no row.
                        expected.insert(vec![], (0, 0, 0, 0, 0, 0, None));
                        seen.entry(vec![]).or_insert((0, 0, 0, 0, 0, 0, None));
                    }
                    assert_eq!(seen, expected, "{what} order {order}");
                }
            }
        }
    }
}

/// Java's `Double.compare`, as its documentation defines it (on `doubleToLongBits`, which
/// makes every NaN one value).
fn double_compare(a: f64, b: f64) -> std::cmp::Ordering {
    if a < b {
        return std::cmp::Ordering::Less;
    }
    if a > b {
        return std::cmp::Ordering::Greater;
    }
    let bits = |x: f64| if x.is_nan() { 0x7ff8_0000_0000_0000i64 } else { x.to_bits() as i64 };
    bits(a).cmp(&bits(b))
}

/// Float SUM continues a running sum bit for bit as a row-order `+=` does (NaN, ±inf, -0.0,
/// nulls, an empty selection, all-null rows, f32 widened), over two chunks; MIN/MAX by a key
/// in Java's `Double.compare` order; against a row-by-row evaluation.
#[test]
fn float_aggregates_match_a_row_order_evaluation() {
    let n = 700usize;
    let mut next = xorshift(0x0DDB_A11C_0FFE_E123u64);
    let special = [f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, 1e308, -1e308, 5e-324];
    let v: Vec<f64> = (0..n)
        .map(|_| match next() % 8 {
            0 => special[(next() % special.len() as u64) as usize],
            _ => ((next() % 2_000_001) as f64 - 1_000_000.0) / 7.0 * 10f64.powi((next() % 9) as i32 - 4),
        })
        .collect();
    let ok: Vec<bool> = (0..n).map(|_| next() % 6 != 0).collect();
    let finite_only: Vec<f64> = v.iter().map(|x| if x.is_finite() { *x } else { 1.25 }).collect();
    let entries = [Some("a"), Some("b"), None];
    let code: Vec<u8> = (0..n).map(|_| (next() % 3) as u8).collect();
    let key = DictArray::try_new(
        PrimitiveArray::new(code.iter().copied().collect::<Buffer<u8>>(), Validity::NonNullable).into_array(),
        VarBinViewArray::from_iter_nullable_str(entries).into_array(),
    )
    .unwrap()
    .into_array();
    // Entry 2 is null: its rows are the null group, 3 (the dictionary's length).
    let group = |r: usize| if code[r] == 2 { 3 } else { code[r] as usize };
    for (label, values, nulls) in [("specials", &v, true), ("finite", &finite_only, false), ("all null", &v, false)] {
        let all_null = label == "all null";
        let valid = |r: usize| !all_null && (!nulls || ok[r]);
        let validity = if all_null { Validity::AllInvalid } else if nulls { Validity::from_iter(ok.iter().copied()) } else { Validity::NonNullable };
        let f64s = PrimitiveArray::new(values.iter().copied().collect::<Buffer<f64>>(), validity.clone()).into_array();
        let f32s = PrimitiveArray::new(values.iter().map(|&x| x as f32).collect::<Buffer<f32>>(), validity).into_array();
        for (col, widen) in [(&f64s, false), (&f32s, true)] {
            let value = |r: usize| if widen { values[r] as f32 as f64 } else { values[r] };
            for percent in [0u64, 3, 50, 100] {
                let keep: Vec<bool> = (0..n).map(|_| percent == 100 || next() % 100 < percent).collect();
                let mut words = vec![0u64; n.div_ceil(64)];
                keep.iter().enumerate().filter(|(_, k)| **k).for_each(|(r, _)| words[r / 64] |= 1 << (r % 64));
                let what = format!("{label} f32={widen} {percent}%");
                // SUM without a key, over two chunks: the second starts from the first's sum.
                let half = n / 2;
                let mut expected = 0.0f64;
                let mut start = 0.0f64;
                for (lo, hi) in [(0, half), (half, n)] {
                    let slice = |a: &ArrayRef| a.slice(lo..hi).unwrap();
                    let c = slice(col);
                    let mut w = vec![0u64; (hi - lo).div_ceil(64)];
                    (lo..hi).filter(|&r| keep[r]).for_each(|r| w[(r - lo) / 64] |= 1 << ((r - lo) % 64));
                    let agg = [Agg { func: Func::Sum, column: Some(&c), start }];
                    let got = aggregate(&[], hi - lo, Some(&w), &agg, &mut execution_ctx()).unwrap().unwrap();
                    let mut count = 0i64; // the chunk's values
                    for r in (lo..hi).filter(|&r| keep[r] && valid(r)) {
                        expected += value(r);
                        count += 1;
                    }
                    let Values::Float(sum) = &got.partials[1].value else { panic!("{what}: integer sum") };
                    // Bit for bit; a NaN's sign and payload are unspecified (in Rust as in Java,
                    // whose Double.equals makes every NaN one value).
                    let bits = |x: f64| if x.is_nan() { f64::NAN.to_bits() } else { x.to_bits() };
                    assert_eq!(bits(sum[0]), bits(expected), "{what}: {} vs {expected}", sum[0]);
                    assert_eq!(got.partials[1].count[0], count, "{what}");
                    start = sum[0];
                }
                // MIN/MAX by a key.
                let aggs = specs(&[(Func::Min, Some(col)), (Func::Max, Some(col))]);
                let got = aggregate(&[&key], n, Some(&words), &aggs, &mut execution_ctx()).unwrap().unwrap();
                let (Values::Float(min), Values::Float(max)) = (&got.partials[1].value, &got.partials[2].value) else {
                    panic!("{what}: integer min/max")
                };
                for g in 0..4 {
                    let rows: Vec<f64> = (0..n).filter(|&r| keep[r] && valid(r) && group(r) == g).map(value).collect();
                    assert_eq!(got.partials[1].count[g], rows.len() as i64, "{what} group {g}");
                    let Some(&first) = rows.first() else { continue };
                    let lo = rows.iter().fold(first, |a, &x| if double_compare(x, a).is_lt() { x } else { a });
                    let hi = rows.iter().fold(first, |a, &x| if double_compare(x, a).is_gt() { x } else { a });
                    let bits = |x: f64| if x.is_nan() { f64::NAN.to_bits() } else { x.to_bits() };
                    assert_eq!((bits(min[g]), bits(max[g])), (bits(lo), bits(hi)), "{what} group {g}");
                }
            }
        }
    }
}
