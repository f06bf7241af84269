//! Several group keys: composite codes of dictionaries, and tuples mixing dictionaries with
//! integer columns.

use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;

use super::ints;
use super::specs;
use super::xorshift;
use crate::aggregate::Func;
use crate::aggregate::aggregate;
use crate::runtime::session::execution_ctx;

/// COUNT(*) alone by one dictionary key, every row (the one-pass histogram) and selections,
/// null codes, null entries and u8/u32 codes, against a row-by-row count.
#[test]
fn counts_by_one_key_match_a_row_by_row_answer() {
    let n = 3000usize;
    let mut next = xorshift(0x1234_5678_9ABC_DEF1u64);
    let entries = [Some("x"), Some("y"), None, Some("é"), Some("")];
    let code_ok: Vec<bool> = (0..n).map(|_| next() % 9 != 0).collect();
    let code: Vec<u32> = (0..n).map(|_| (next() % 5) as u32).collect();
    let keys = [
        PrimitiveArray::new(code.iter().map(|&c| c as u8).collect::<Buffer<u8>>(), Validity::from_iter(code_ok.iter().copied())).into_array(),
        PrimitiveArray::new(code.iter().copied().collect::<Buffer<u32>>(), Validity::NonNullable).into_array(),
    ];
    for (k, codes) in keys.into_iter().enumerate() {
        let nullable_codes = k == 0;
        let values = VarBinViewArray::from_iter_nullable_str(entries).into_array();
        let key = DictArray::try_new(codes, values).unwrap().into_array();
        let slot = |r: usize| match (!nullable_codes || code_ok[r], entries[code[r] as usize]) {
            (true, Some(_)) => code[r] as usize,
            _ => entries.len(),
        };
        for percent in [100u64, 50, 3] {
            let keep: Vec<bool> = (0..n).map(|_| percent == 100 || next() % 100 < percent).collect();
            let mut words = vec![0u64; n.div_ceil(64)];
            keep.iter().enumerate().filter(|(_, k)| **k).for_each(|(r, _)| words[r / 64] |= 1 << (r % 64));
            let mut expected = vec![0i64; entries.len() + 1];
            (0..n).filter(|&r| keep[r]).for_each(|r| expected[slot(r)] += 1);
            let selection = (percent != 100).then_some(&words[..]);
            let aggs = [(Func::CountStar, None), (Func::CountStar, None)];
            let got = aggregate(&[&key], n, selection, &specs(&aggs), &mut execution_ctx()).unwrap().unwrap();
            let what = format!("codes {k}, {percent}%");
            assert_eq!(got.groups, entries.len() + 1, "{what}");
            assert!(got.codes.is_empty(), "{what}");
            assert_eq!(got.partials.len(), 3, "{what}");
            for p in &got.partials {
                assert_eq!(p.count, expected, "{what}");
            }
        }
    }
}

/// Two and three dictionary keys (null codes, null entries), dense and hashed composite codes:
/// each group's rows and sums against a row-by-row evaluation keyed by the entries' values.
#[test]
fn composite_keys_match_a_row_by_row_answer() {
    let n = 2000usize;
    let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
    let key = |entries: &[Option<&str>], next: &mut dyn FnMut() -> u64| {
        let code: Vec<u32> = (0..n).map(|_| (next() % entries.len() as u64) as u32).collect();
        let ok: Vec<bool> = (0..n).map(|_| next() % 9 != 0).collect();
        let values = VarBinViewArray::from_iter_nullable_str(entries.iter().copied()).into_array();
        let codes = PrimitiveArray::new(code.iter().copied().collect::<Buffer<u32>>(), Validity::from_iter(ok.iter().copied())).into_array();
        let array = DictArray::try_new(codes, values).unwrap().into_array();
        let value: Vec<Option<String>> = (0..n).map(|r| if ok[r] { entries[code[r] as usize].map(str::to_string) } else { None }).collect();
        (array, value)
    };
    let small = [Some("x"), None, Some("y")];
    let accented = [Some("p"), Some("q"), Some("é")];
    let wide: Vec<String> = (0..300).map(|i| format!("k{i}")).collect();
    let wide: Vec<Option<&str>> = wide.iter().map(|s| Some(s.as_str())).collect();
    let (a, av) = key(&small, &mut next);
    let (b, bv) = key(&accented, &mut next);
    let (c, cv) = key(&wide, &mut next);
    let v: Vec<i64> = (0..n).map(|_| (next() % 100) as i64).collect();
    let col = PrimitiveArray::new(v.iter().copied().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
    let keep: Vec<bool> = (0..n).map(|_| next() % 3 != 0).collect();
    let mut words = vec![0u64; n.div_ceil(64)];
    keep.iter().enumerate().filter(|(_, k)| **k).for_each(|(r, _)| words[r / 64] |= 1 << (r % 64));
    // (a, b): 4 * 4 codes, a dense table; (a, b, c) and (c, a, c): beyond DENSE_CODES, a hash map.
    type Case<'a> = (Vec<&'a ArrayRef>, Vec<&'a Vec<Option<String>>>, Vec<&'a [Option<&'a str>]>);
    let cases: [Case; 3] = [
        (vec![&a, &b], vec![&av, &bv], vec![&small, &accented]),
        (vec![&a, &b, &c], vec![&av, &bv, &cv], vec![&small, &accented, &wide]),
        (vec![&c, &a, &c], vec![&cv, &av, &cv], vec![&wide, &small, &wide]),
    ];
    for (keys, values, entries) in cases {
        let got = aggregate(&keys, n, Some(&words), &specs(&[(Func::CountStar, None), (Func::Sum, Some(&col))]), &mut execution_ctx())
            .unwrap()
            .unwrap();
        assert_eq!(got.codes.len(), got.groups);
        let mut seen = std::collections::HashMap::new();
        for (g, &code) in got.codes.iter().enumerate() {
            let (mut rest, mut tuple) = (code, vec![]);
            for e in &entries {
                let radix = e.len() as u64 + 1;
                tuple.push(e.get((rest % radix) as usize).copied().flatten().map(str::to_string));
                rest /= radix;
            }
            assert!(seen.insert(tuple, (got.partials[1].count[g], ints(&got.partials[2])[g])).is_none(), "a tuple in two groups");
        }
        let mut expected = std::collections::HashMap::new();
        for r in (0..n).filter(|&r| keep[r]) {
            let tuple: Vec<Option<String>> = values.iter().map(|v| v[r].clone()).collect();
            let e = expected.entry(tuple).or_insert((0i64, 0i64));
            e.0 += 1;
            e.1 += v[r];
        }
        assert_eq!(seen, expected, "{} keys", keys.len());
    }
    // A composite code beyond 64 bits is declined: Java groups the chunk.
    let many: Vec<&ArrayRef> = (0..8).map(|_| &c).collect();
    assert!(aggregate(&many, n, None, &specs(&[(Func::CountStar, None)]), &mut execution_ctx()).unwrap().is_none());
}

/// Dictionary keys (u8 codes with nulls and a null entry, u32 codes) mixed with i64 and i16
/// keys (negatives, nulls) over two chunks and selections of 0, some and all rows: each
/// chunk's groups are distinct key tuples, and merged by their values the rows and sums equal
/// a row-by-row evaluation.
#[test]
fn mixed_keys_match_a_row_by_row_answer() {
    let n = 1500usize;
    let mut next = xorshift(0x5DEE_CE66_D1CE_4E5Bu64);
    let entries = [Some("x"), None, Some("é"), Some("")];
    let ok: Vec<bool> = (0..n).map(|_| next() % 7 != 0).collect();
    let code: Vec<u32> = (0..n).map(|_| (next() % entries.len() as u64) as u32).collect();
    let narrow = DictArray::try_new(
        PrimitiveArray::new(code.iter().map(|&c| c as u8).collect::<Buffer<u8>>(), Validity::from_iter(ok.iter().copied())).into_array(),
        VarBinViewArray::from_iter_nullable_str(entries).into_array(),
    )
    .unwrap()
    .into_array();
    let narrow_value: Vec<Option<String>> = (0..n).map(|r| if ok[r] { entries[code[r] as usize].map(|e| format!("s{e}")) } else { None }).collect();
    let wide_code: Vec<u32> = (0..n).map(|_| (next() % 3) as u32).collect();
    let wide = DictArray::try_new(
        PrimitiveArray::new(wide_code.iter().copied().collect::<Buffer<u32>>(), Validity::NonNullable).into_array(),
        VarBinViewArray::from_iter_str(["p", "q", "r"]).into_array(),
    )
    .unwrap()
    .into_array();
    let wide_value: Vec<Option<String>> = (0..n).map(|r| Some(format!("s{}", ["p", "q", "r"][wide_code[r] as usize]))).collect();
    let big: Vec<i64> = (0..n).map(|_| (next() % 9) as i64 - 4 + if next() % 50 == 0 { i64::MIN + 4 } else { 0 }).collect();
    let big_ok: Vec<bool> = (0..n).map(|_| next() % 5 != 0).collect();
    let big_col = PrimitiveArray::new(big.iter().copied().collect::<Buffer<i64>>(), Validity::from_iter(big_ok.iter().copied())).into_array();
    let big_value: Vec<Option<String>> = (0..n).map(|r| big_ok[r].then(|| format!("i{}", big[r]))).collect();
    let small: Vec<i16> = (0..n).map(|_| (next() % 5) as i16 - 2).collect();
    let small_col = PrimitiveArray::new(small.iter().copied().collect::<Buffer<i16>>(), Validity::NonNullable).into_array();
    let small_value: Vec<Option<String>> = (0..n).map(|r| Some(format!("i{}", small[r]))).collect();
    let v: Vec<i64> = (0..n).map(|_| (next() % 1000) as i64 - 500).collect();
    let col = PrimitiveArray::new(v.iter().copied().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
    // Per key: its array, its value per row, and how a group's value names it (a dictionary slot or an integer).
    type Key<'a> = (&'a ArrayRef, &'a Vec<Option<String>>, Option<&'a [&'a str]>);
    let narrow_names: Vec<&str> = entries.iter().map(|e| e.unwrap_or("?")).collect();
    let wide_names = ["p", "q", "r"];
    let cases: [Vec<Key>; 3] = [
        vec![(&narrow, &narrow_value, Some(&narrow_names)), (&big_col, &big_value, None)],
        vec![(&big_col, &big_value, None), (&wide, &wide_value, Some(&wide_names))],
        vec![(&small_col, &small_value, None), (&narrow, &narrow_value, Some(&narrow_names)), (&big_col, &big_value, None)],
    ];
    let half = 700;
    for keys in &cases {
        for percent in [0u64, 30, 100] {
            let keep: Vec<bool> = (0..n).map(|_| percent == 100 || next() % 100 < percent).collect();
            let mut merged = std::collections::HashMap::<Vec<Option<String>>, (i64, i64)>::new();
            for (lo, hi) in [(0, half), (half, n)] {
                let mut w = vec![0u64; (hi - lo).div_ceil(64)];
                (lo..hi).filter(|&r| keep[r]).for_each(|r| w[(r - lo) / 64] |= 1 << ((r - lo) % 64));
                let arrays: Vec<ArrayRef> = keys.iter().map(|k| k.0.slice(lo..hi).unwrap()).collect();
                let arrays: Vec<&ArrayRef> = arrays.iter().collect();
                let c = col.slice(lo..hi).unwrap();
                let selection = (percent != 100).then_some(&w[..]);
                let aggs = specs(&[(Func::CountStar, None), (Func::Sum, Some(&c))]);
                let got = aggregate(&arrays, hi - lo, selection, &aggs, &mut execution_ctx()).unwrap().unwrap();
                assert!(got.codes.is_empty());
                assert_eq!(got.keys.len(), keys.len());
                let mut seen = std::collections::HashSet::new();
                for g in 0..got.groups {
                    let tuple: Vec<Option<String>> = keys
                        .iter()
                        .zip(&got.keys)
                        .map(|(k, kv)| match (kv.nulls[g], k.2) {
                            (true, _) => None,
                            (false, Some(names)) => Some(format!("s{}", names[kv.values[g] as usize])),
                            (false, None) => Some(format!("i{}", kv.values[g])),
                        })
                        .collect();
                    assert!(seen.insert(tuple.clone()), "a tuple in two groups: {tuple:?}");
                    let e = merged.entry(tuple).or_default();
                    e.0 += got.partials[1].count[g];
                    e.1 += ints(&got.partials[2])[g];
                }
            }
            let mut expected = std::collections::HashMap::<Vec<Option<String>>, (i64, i64)>::new();
            for r in (0..n).filter(|&r| keep[r]) {
                let e = expected.entry(keys.iter().map(|k| k.1[r].clone()).collect()).or_default();
                e.0 += 1;
                e.1 += v[r];
            }
            assert_eq!(merged, expected, "{} keys, {percent}%", keys.len());
        }
    }
    // One integer key, or a float key among several: Java groups the chunk.
    let f = PrimitiveArray::new(v.iter().map(|&x| x as f64).collect::<Buffer<f64>>(), Validity::NonNullable).into_array();
    assert!(aggregate(&[&big_col], n, None, &specs(&[(Func::CountStar, None)]), &mut execution_ctx()).unwrap().is_none());
    assert!(aggregate(&[&narrow, &f], n, None, &specs(&[(Func::CountStar, None)]), &mut execution_ctx()).unwrap().is_none());
}
