//! The dictionary filter kernel against an independent row-by-row evaluation, for every shape of
//! codes (u8/u16/u32, plain, bit-packed, sliced, patched, nullable) and dictionary (null slots),
//! and against vortex's own filtered scan on files written by vortex.

mod common;

#[allow(dead_code)]
#[path = "../rust/fixtures/dict_fixture.rs"]
mod fixture;

use vortex4j::scan::chunk::Chunk;
use vortex4j::filter::dict::code_table;
use vortex4j::filter::dict::select_rows;
use vortex4j::io::file::open;
use fixture::Rng;
use fixture::WORDS;
use fixture::write_dict_fixture;
use vortex4j::predicate::CmpOp;
use vortex4j::predicate::Literal;
use vortex4j::predicate::Predicate;
use vortex4j::predicate::resolve::resolve;
use vortex4j::predicate::prepared::PreparedFilter;
use vortex4j::filter::LeafPath;
use vortex4j::scan::Scan;
use vortex4j::scan::filtered_rows;
use vortex4j::runtime::session::execution_ctx;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;
use vortex_fastlanes::BitPackedData;

/// SQL evaluation of a normalized leaf on one row's value, written independently of the kernel.
fn reference(leaf: &Predicate, value: Option<&str>) -> bool {
    let cmp = |op: CmpOp, lit: &Literal| match (value, lit) {
        (Some(v), Literal::Utf8(l)) => op.test(v.as_bytes().cmp(l.as_bytes())),
        _ => false,
    };
    match leaf {
        Predicate::Compare { op, value: lit, .. } => cmp(*op, lit),
        Predicate::Between { low, high, .. } => cmp(CmpOp::Ge, low) && cmp(CmpOp::Le, high),
        Predicate::In { values, negated: false, .. } => values.iter().any(|l| cmp(CmpOp::Eq, l)),
        Predicate::In { values, negated: true, .. } => {
            if values.is_empty() {
                true
            } else {
                !values.contains(&Literal::Null) && values.iter().all(|l| cmp(CmpOp::Ne, l))
            }
        }
        Predicate::IsNull { negated, .. } => value.is_none() != *negated,
        Predicate::Like { pattern, escape, case_insensitive, negated, .. } => {
            value.is_some_and(|v| common::oracle(pattern, *escape, *case_insensitive, v).expect("valid pattern") != *negated)
        }
        _ => unreachable!("leaves only"),
    }
}

fn s(v: &str) -> Literal {
    Literal::Utf8(v.to_string())
}

/// Every kind of leaf on column `s`: each operator, bounds between entries, absent values,
/// non-ASCII literals, empty and null-holding lists.
fn leaves() -> Vec<Predicate> {
    let c = || "s".to_string();
    let mut out = Vec::new();
    for op in [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
        for lit in ["AAPL", "AAPLZ", "", "Zürich", "東京", "zz", "A", "\u{1F389}party"] {
            out.push(Predicate::Compare { column: c(), op, value: s(lit) });
        }
        out.push(Predicate::Compare { column: c(), op, value: Literal::Null });
    }
    out.push(Predicate::Between { column: c(), low: s("AB"), high: s("MSFTX") });
    out.push(Predicate::Between { column: c(), low: s("z"), high: s("a") });
    out.push(Predicate::Between { column: c(), low: s(""), high: s("\u{10FFFF}") });
    for negated in [false, true] {
        out.push(Predicate::In { column: c(), values: vec![s("AAPL"), s("nope"), s("Zürich")], negated });
        out.push(Predicate::In { column: c(), values: vec![], negated });
        out.push(Predicate::In { column: c(), values: vec![s("IBM"), Literal::Null], negated });
        out.push(Predicate::IsNull { column: c(), negated });
        for (pattern, escape) in [
            ("A%", None),
            ("%L", None),
            ("%A%", None),
            ("_", None),
            ("%", None),
            ("", None),
            ("Z_rich", None),
            ("東%", None),
            ("%ü%", None),
            ("%y", None),
            ("w0%1", None),
            ("__", None),
            ("!%%", Some('!')),
            ("a pattern longer than every value%", None),
        ] {
            let pattern = pattern.to_string();
            out.push(Predicate::Like { column: c(), pattern, escape, case_insensitive: false, negated });
        }
        out.push(Predicate::Like { column: c(), pattern: "aa%".into(), escape: None, case_insensitive: true, negated });
        // Long lists: a set lookup per entry (duplicates, absent values, entries of every chunk
        // shape), with and without a NULL.
        let mut long: Vec<Literal> = (0..1200).map(|i| s(&format!("w{:05}", i * 7))).collect();
        long.extend(["AAPL", "Zürich", "", "nope", "AAPL"].map(s));
        out.push(Predicate::In { column: c(), values: long.clone(), negated });
        long.push(Literal::Null);
        out.push(Predicate::In { column: c(), values: long, negated });
    }
    out
}

/// Selects with the kernel and checks each row against [`reference`].
fn check_kernel(codes: ArrayRef, values: &[Option<&str>], rows: &[Option<&str>]) {
    let values_array = VarBinViewArray::from_iter_nullable_str(values.iter().copied()).into_array();
    let mut ctx = execution_ctx();
    for leaf in leaves() {
        let resolved = resolve(&leaf, values_array.dtype()).unwrap();
        let table = code_table(&values_array, &resolved, &mut ctx).unwrap();
        let words = select_rows(&codes, &table, &mut ctx).unwrap();
        assert_eq!(words.len(), rows.len().div_ceil(64), "{leaf:?}");
        // The reference once per distinct value: rows repeat the dictionary's words.
        let mut memo = std::collections::HashMap::new();
        for (i, v) in rows.iter().enumerate() {
            let got = words[i / 64] >> (i % 64) & 1 == 1;
            let want = *memo.entry(*v).or_insert_with(|| reference(&leaf, *v));
            assert_eq!(got, want, "row {i} ({v:?}) for {leaf:?}");
        }
        if rows.len() % 64 != 0 {
            assert_eq!(words.last().unwrap() >> (rows.len() % 64), 0, "bits past the end for {leaf:?}");
        }
    }
}

/// Dictionary with a null slot (index 3) and every fixture word.
fn dictionary() -> Vec<Option<&'static str>> {
    WORDS.iter().enumerate().map(|(i, w)| (i != 3).then_some(*w)).collect()
}

fn random_codes(n: usize, entries: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.below(entries) as u32).collect()
}

fn rows_of(codes: &[u32], valid: &[bool], dict: &[Option<&'static str>]) -> Vec<Option<&'static str>> {
    codes.iter().zip(valid).map(|(&c, &ok)| if ok { dict[c as usize] } else { None }).collect()
}

fn primitive<T: vortex_array::dtype::NativePType>(v: Vec<T>, valid: &[bool], nullable: bool) -> ArrayRef {
    let validity = if nullable { Validity::from_iter(valid.iter().copied()) } else { Validity::NonNullable };
    PrimitiveArray::new(v.into_iter().collect::<Buffer<T>>(), validity).into_array()
}

#[test]
fn plain_codes_of_every_width_with_null_codes_and_null_slots() {
    let dict = dictionary();
    for n in [0usize, 1, 63, 64, 65, 1000, 3000] {
        let codes = random_codes(n, dict.len(), n as u64);
        let valid: Vec<bool> = (0..n).map(|i| i % 7 != 3).collect();
        let rows = rows_of(&codes, &valid, &dict);
        check_kernel(primitive(codes.iter().map(|&c| c as u8).collect(), &valid, true), &dict, &rows);
        check_kernel(primitive(codes.iter().map(|&c| c as u16).collect(), &valid, true), &dict, &rows);
        check_kernel(primitive(codes.clone(), &valid, true), &dict, &rows);
        // Non-nullable codes: nulls come only from the dictionary slot.
        let all = vec![true; n];
        check_kernel(primitive(codes.clone(), &all, false), &dict, &rows_of(&codes, &all, &dict));
    }
}

#[test]
fn bit_packed_codes_fused_path_sliced_and_patched() {
    let dict = dictionary();
    let mut ctx = execution_ctx();
    for n in [1usize, 1024, 1500, 5000] {
        let codes = random_codes(n, dict.len(), 99 + n as u64);
        let valid: Vec<bool> = (0..n).map(|i| i % 11 != 5).collect();
        for nullable in [false, true] {
            let valid = if nullable { valid.clone() } else { vec![true; n] };
            let rows = rows_of(&codes, &valid, &dict);
            for (width, t) in [(5u8, 8), (7, 8), (5, 16), (15, 16), (5, 32), (20, 32), (3, 16)] {
                // Width 3 leaves codes >= 8 as patches.
                let prim = match t {
                    8 => primitive(codes.iter().map(|&c| c as u8).collect(), &valid, nullable),
                    16 => primitive(codes.iter().map(|&c| c as u16).collect(), &valid, nullable),
                    _ => primitive(codes.clone(), &valid, nullable),
                };
                let packed = BitPackedData::encode(&prim, width, &mut ctx).unwrap().into_array();
                check_kernel(packed.clone(), &dict, &rows);
                // A slice starting mid-block exercises the offset path.
                if n > 100 {
                    let sliced = packed.slice(37..n - 5).unwrap();
                    check_kernel(sliced, &dict, &rows[37..n - 5]);
                }
            }
        }
    }
}

#[test]
fn degenerate_tables_all_and_none() {
    // One value everywhere: "= AAPL" selects every valid row, "= MSFT" none.
    let dict = vec![Some("AAPL"), Some("MSFT")];
    let codes = vec![0u32; 777];
    let valid: Vec<bool> = (0..777).map(|i| i % 5 != 0).collect();
    let rows = rows_of(&codes, &valid, &dict);
    check_kernel(primitive(codes.iter().map(|&c| c as u16).collect(), &valid, true), &dict, &rows);
    let all_null = vec![false; 777];
    check_kernel(
        primitive(codes.iter().map(|&c| c as u16).collect(), &all_null, true),
        &dict,
        &rows_of(&codes, &all_null, &dict),
    );
}

/// Files written by vortex: the prepared filter (the dictionary kernel, or vortex's compute on the
/// whole column where the dictionary is larger than the chunk) and vortex's own filtered scan
/// agree with an independent evaluation.
#[test]
fn agrees_with_vortex_filtered_scan_on_reference_files() {
    let dir = std::env::temp_dir().join(format!("vortex4j-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bits = |words: &[u64], first: u64, out: &mut Vec<u64>| {
        for i in 0..words.len() * 64 {
            if words[i / 64] >> (i % 64) & 1 == 1 {
                out.push(first + i as u64);
            }
        }
    };
    for (name, reference_strategy, chunks, rows) in [("flat", false, 8, 700), ("ref", true, 3, 70_000)] {
        let path = dir.join(format!("{name}.vortex"));
        let path = path.to_str().unwrap();
        let expected = write_dict_fixture(path, chunks, rows, 5, reference_strategy).unwrap();
        let file = open(path).unwrap();
        for leaf in leaves() {
            let ilike = matches!(leaf, Predicate::Like { case_insensitive: true, .. });
            // The independent answer, once per distinct value (the rows repeat a few words).
            let mut memo = std::collections::HashMap::new();
            let independent: Vec<u64> = (0..expected.len() as u64)
                .filter(|&r| {
                    let v = expected[r as usize].as_deref();
                    *memo.entry(v).or_insert_with(|| reference(&leaf, v))
                })
                .collect();
            let names = ["s".to_string()];
            let mut scan = Scan::open(&file, &names, None).unwrap();
            let prepared = PreparedFilter::of(&names, scan.dtypes(), &leaf).unwrap();
            let mut selected = Vec::new();
            let (mut first, mut not_by_dictionary) = (0u64, 0);
            while let Some(chunk) = scan.next_chunk().unwrap() {
                let chunk = Chunk::new(chunk);
                let len = chunk.len() as u64;
                let mut paths = [LeafPath::NotEvaluated];
                match prepared.selection_by_paths(&chunk, &[None], &mut paths).unwrap() {
                    Some(words) => bits(&words, first, &mut selected),
                    // Only ILIKE on non-ASCII values is left to Java.
                    None if ilike => {
                        assert_eq!(paths[0], LeafPath::Declined, "{name}: {leaf:?}");
                        selected.extend(independent.iter().filter(|&&r| r >= first && r < first + len));
                    }
                    None => panic!("{name}: {leaf:?} declined by the prepared filter"),
                }
                not_by_dictionary += usize::from(paths[0] != LeafPath::Dictionary);
                first += len;
            }
            let vortex = filtered_rows(&file, &leaf).unwrap();
            assert_eq!(selected, vortex, "{name}: {leaf:?}");
            assert_eq!(selected, independent, "{name}: {leaf:?}");
            if !reference_strategy && !ilike {
                // Chunks 3 and 7 hold dictionaries larger than themselves: the kernel declines
                // them, and vortex's compute on the whole column answers.
                assert_eq!(not_by_dictionary, 2, "{name}: {leaf:?}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
