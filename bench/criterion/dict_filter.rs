//! The dictionary filter kernel against vortex's own Dict compare kernel and against decoding
//! every row to a string and comparing (the per-row path the kernel replaces).
//!
//! Rows: 1,048,576 (16 chunks' worth) in one dictionary array with bit-packed codes, as the
//! reference writer stores them. Pool sizes 16/256/4096/65536; selectivity 0/1/50/100%.
//!
//! `like`: LIKE prefix / suffix / infix on the same shape with FSST-compressed entries (as the
//! reference writer stores them): our per-code table (vortex's like on the entries) and fused
//! selection, against vortex's own Dict like kernel and against decoding each row and matching.
//!
//! `in_list`: IN lists of 10, 100 and 10,000 literals on one 65,536-row chunk, before (one
//! equality compare per literal, ORed) and after (one set lookup per value), on a dictionary
//! (the per-code table) and on plain i64 and utf8 columns.
//!
//! Run: `cargo bench --bench dict_filter` (add `-- --quick` for a fast pass; a group name such
//! as `like` or `in_list` after `--` runs only that group).

#[allow(dead_code)]
#[path = "../../rust/fixtures/dict_fixture.rs"]
mod dict_fixture;
use dict_fixture::Rng;
use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::Throughput;
use criterion::criterion_group;
use criterion::criterion_main;
use std::hint::black_box;
use vortex4j::filter::dict::code_table;
use vortex4j::filter::column_selection;
use vortex4j::filter::dict::select_rows;
use vortex4j::predicate::CmpOp;
use vortex4j::predicate::Literal;
use vortex4j::predicate::Predicate;
use vortex4j::predicate::resolve::Resolved;
use vortex4j::predicate::resolve::resolve;
use vortex4j::runtime::session::execution_ctx;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::BoolArray;
use vortex_array::arrays::ConstantArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::builtins::ArrayBuiltins;
use vortex_array::optimizer::ArrayOptimizer;
use vortex_array::dtype::Nullability::NonNullable;
use vortex_array::scalar::Scalar;
use vortex_array::scalar_fn::fns::like::Like;
use vortex_array::scalar_fn::fns::like::LikeOptions;
use vortex_array::scalar_fn::fns::operators::Operator;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;
use vortex_fastlanes::BitPackedData;

const ROWS: usize = 1 << 20;

/// The name stored at dictionary slot `code`: a permutation of sorted names, as dictionaries are
/// in first-appearance order, so a range predicate selects codes scattered over the pool.
fn entry(code: usize, pool: usize) -> String {
    format!("sym{:06}", (code * 7919) % pool)
}

struct Case {
    dict: ArrayRef,
    codes: ArrayRef,
    values: ArrayRef,
    leaf: Predicate,
    op: Operator,
    /// The literals; more than one means `IN`, evaluated by vortex as an OR of compares.
    literals: Vec<String>,
}

/// Codes: for 1% selectivity, code 0 on 1% of rows and the rest spread over the other codes;
/// otherwise uniform. Leaves: 0% `= absent`, 1% `= entry 0`, 50% `< the middle name` (half the
/// codes, scattered), 100% `>= ""`.
fn case(pool: usize, selectivity: u32) -> Case {
    let mut rng = Rng::new(pool as u64 * 31 + selectivity as u64);
    let codes: Vec<u32> = (0..ROWS)
        .map(|_| {
            if selectivity == 1 {
                if rng.below(100) == 0 { 0 } else { 1 + rng.below(pool - 1) as u32 }
            } else {
                rng.below(pool) as u32
            }
        })
        .collect();
    let width = (usize::BITS - (pool - 1).leading_zeros()) as u8;
    let prim = if width < 16 {
        PrimitiveArray::new(codes.iter().map(|&c| c as u16).collect::<Buffer<u16>>(), Validity::NonNullable)
    } else {
        PrimitiveArray::new(codes.into_iter().collect::<Buffer<u32>>(), Validity::NonNullable)
    }
    .into_array();
    let codes = BitPackedData::encode(&prim, width, &mut execution_ctx()).unwrap().into_array();
    let values = VarBinViewArray::from_iter_str((0..pool).map(|c| entry(c, pool))).into_array();
    let dict = DictArray::try_new(codes.clone(), values.clone()).unwrap().into_array();
    if selectivity == IN3 {
        let literals: Vec<String> = [1, pool / 3, pool - 2].iter().map(|&c| entry(c, pool)).collect();
        let leaf = Predicate::In {
            column: "s".into(),
            values: literals.iter().map(|l| Literal::Utf8(l.clone())).collect(),
            negated: false,
        };
        return Case { dict, codes, values, leaf, op: Operator::Eq, literals };
    }
    let (op, cmp, literal) = match selectivity {
        0 => (Operator::Eq, CmpOp::Eq, "absent".to_string()),
        1 => (Operator::Eq, CmpOp::Eq, entry(0, pool)),
        50 => (Operator::Lt, CmpOp::Lt, format!("sym{:06}", pool / 2)),
        _ => (Operator::Gte, CmpOp::Ge, String::new()),
    };
    let leaf = Predicate::Compare { column: "s".into(), op: cmp, value: Literal::Utf8(literal.clone()) };
    Case { dict, codes, values, leaf, op, literals: vec![literal] }
}

/// The "selectivity" standing for `IN` of three entries (3/pool of the rows).
const IN3: u32 = 3;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dict_filter");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.sample_size(20);
    for pool in [16usize, 256, 4096, 65536] {
        for selectivity in [0u32, 1, 50, 100, IN3] {
            let case = case(pool, selectivity);
            let id = if selectivity == IN3 {
                format!("pool={pool}/in3")
            } else {
                format!("pool={pool}/sel={selectivity}%")
            };
            let mut ctx = execution_ctx();
            let resolved = resolve(&case.leaf, case.values.dtype()).unwrap();
            let table = code_table(&case.values, &resolved, &mut ctx).unwrap();

            group.bench_function(BenchmarkId::new("vortex4j_kernel", &id), |b| {
                b.iter(|| black_box(select_rows(&case.codes, &table, &mut ctx).unwrap()))
            });
            group.bench_function(BenchmarkId::new("vortex4j_kernel_with_table", &id), |b| {
                b.iter(|| {
                    let t = code_table(&case.values, &resolved, &mut ctx).unwrap();
                    black_box(select_rows(&case.codes, &t, &mut ctx).unwrap())
                })
            });
            group.bench_function(BenchmarkId::new("vortex_dict_compare", &id), |b| {
                let rhs: Vec<ArrayRef> = case
                    .literals
                    .iter()
                    .map(|l| ConstantArray::new(Scalar::utf8(l.as_str(), NonNullable), ROWS).into_array())
                    .collect();
                b.iter(|| {
                    // vortex's Dict compare kernel per literal; IN is the OR of the compares.
                    let mut result: Option<ArrayRef> = None;
                    for r in &rhs {
                        let cmp = case.dict.binary(r.clone(), case.op).unwrap();
                        let cmp = cmp.execute::<BoolArray>(&mut ctx).unwrap().into_array();
                        result = Some(match result {
                            None => cmp,
                            Some(acc) => acc.binary(cmp, Operator::Or).unwrap().execute::<BoolArray>(&mut ctx).unwrap().into_array(),
                        });
                    }
                    black_box(result)
                })
            });
            if (pool == 256 || pool == 65536) && selectivity != IN3 {
                group.bench_function(BenchmarkId::new("decode_each_row_and_compare", &id), |b| {
                    b.iter(|| {
                        // The per-row path: every row decoded to a String, then compared.
                        let strings = case.dict.clone().execute::<VarBinViewArray>(&mut ctx).unwrap();
                        let mut words = vec![0u64; ROWS.div_ceil(64)];
                        for i in 0..ROWS {
                            let s = String::from_utf8(strings.bytes_at(i).to_vec()).unwrap();
                            let literal = &case.literals[0];
                            let hit = match case.op {
                                Operator::Eq => &s == literal,
                                Operator::Lt => s.as_bytes() < literal.as_bytes(),
                                _ => s.as_bytes() >= literal.as_bytes(),
                            };
                            words[i / 64] |= (hit as u64) << (i % 64);
                        }
                        black_box(words)
                    })
                });
            }
        }
    }
    group.finish();
}

/// The FSST-compressed form of `values`, as the reference writer stores dictionary entries.
fn fsst(values: &ArrayRef) -> ArrayRef {
    let mut ctx = execution_ctx();
    let compressor = vortex_fsst::fsst_train_compressor(values, &mut ctx).unwrap();
    vortex_fsst::fsst_compress(values, &compressor, &mut ctx).unwrap().into_array()
}

fn like_leaf(pattern: &str) -> Predicate {
    Predicate::Like { column: "s".into(), pattern: pattern.into(), escape: None, case_insensitive: false, negated: false }
}

fn bench_like(c: &mut Criterion) {
    let mut group = c.benchmark_group("like");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.sample_size(20);
    for pool in [256usize, 4096] {
        let base = case(pool, 50);
        let values = fsst(&base.values);
        let dict = DictArray::try_new(base.codes.clone(), values.clone()).unwrap().into_array();
        // Entries are sym000000..: prefix 1/10 of them, suffix 1/10, infix about 1/10 too.
        for (shape, pattern) in [("prefix", "sym0001%"), ("suffix", "%7"), ("infix", "%m00%3%")] {
            let id = format!("pool={pool}/{shape}");
            let mut ctx = execution_ctx();
            let leaf = like_leaf(pattern);
            let resolved = resolve(&leaf, values.dtype()).unwrap();
            let Resolved::Like { pattern: vortex_pattern, .. } = &resolved else { unreachable!() };
            group.bench_function(BenchmarkId::new("vortex4j_kernel_with_table", &id), |b| {
                b.iter(|| {
                    let t = code_table(&values, &resolved, &mut ctx).unwrap();
                    black_box(select_rows(&base.codes, &t, &mut ctx).unwrap())
                })
            });
            let table = code_table(&values, &resolved, &mut ctx).unwrap();
            group.bench_function(BenchmarkId::new("vortex4j_kernel", &id), |b| {
                b.iter(|| black_box(select_rows(&base.codes, &table, &mut ctx).unwrap()))
            });
            group.bench_function(BenchmarkId::new("vortex_dict_like", &id), |b| {
                let rhs = ConstantArray::new(Scalar::utf8(vortex_pattern.as_str(), NonNullable), ROWS).into_array();
                b.iter(|| {
                    // vortex's Dict like rule (a reduce rule, applied by optimize as vortex's scan
                    // does): like on the entries, then the boolean dictionary decoded.
                    let result = Like::try_new(dict.clone(), rhs.clone(), LikeOptions::default()).unwrap();
                    let result = result.into_array().optimize().unwrap();
                    black_box(result.execute::<BoolArray>(&mut ctx).unwrap())
                })
            });
            group.bench_function(BenchmarkId::new("decode_each_row_and_match", &id), |b| {
                let needle = pattern.trim_matches('%');
                b.iter(|| {
                    let strings = dict.clone().execute::<VarBinViewArray>(&mut ctx).unwrap();
                    let mut words = vec![0u64; ROWS.div_ceil(64)];
                    for i in 0..ROWS {
                        let s = String::from_utf8(strings.bytes_at(i).to_vec()).unwrap();
                        let hit = match shape {
                            "prefix" => s.starts_with(needle),
                            "suffix" => s.ends_with(needle),
                            _ => s.contains("m00") && s[s.find("m00").unwrap() + 3..].contains('3'),
                        };
                        words[i / 64] |= (hit as u64) << (i % 64);
                    }
                    black_box(words)
                })
            });
        }
    }
    group.finish();
}

/// Rows of the `in_list` group: one chunk.
const CHUNK: usize = 1 << 16;

/// `IN` as it resolved before sets: one equality compare per literal, ORed.
fn one_compare_per_literal(values: &[Scalar]) -> Resolved {
    Resolved::Or(values.iter().map(|v| Resolved::Cmp(CmpOp::Eq, v.clone())).collect())
}

fn bench_in_list(c: &mut Criterion) {
    let mut group = c.benchmark_group("in_list");
    group.throughput(Throughput::Elements(CHUNK as u64));
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(3));
    let mut rng = Rng::new(77);
    let pool = 65536;
    let names: Vec<String> = (0..pool).map(|c| entry(c, pool)).collect();
    let codes: Vec<u32> = (0..CHUNK).map(|_| rng.below(pool) as u32).collect();
    let prim = PrimitiveArray::new(codes.iter().copied().collect::<Buffer<u32>>(), Validity::NonNullable).into_array();
    let packed = BitPackedData::encode(&prim, 16, &mut execution_ctx()).unwrap().into_array();
    let values = fsst(&VarBinViewArray::from_iter_str(names.iter().map(String::as_str)).into_array());
    let ints = PrimitiveArray::new((0..CHUNK).map(|_| rng.below(1 << 20) as i64).collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
    let strings = VarBinViewArray::from_iter_str(codes.iter().map(|&c| names[c as usize].as_str())).into_array();
    for n in [10usize, 100, 10_000] {
        let literals: Vec<usize> = (0..n).map(|_| rng.below(pool)).collect();
        let as_strings: Vec<Literal> = literals.iter().map(|&c| Literal::Utf8(names[c].clone())).collect();
        let as_ints: Vec<Literal> = literals.iter().map(|&c| Literal::I64(c as i64 * 16)).collect();
        let leaf = |values: Vec<Literal>| Predicate::In { column: "s".into(), values, negated: false };
        for (column, array, list) in [("dict", &values, &as_strings), ("i64", &ints, &as_ints), ("utf8", &strings, &as_strings)] {
            let id = format!("{column}/n={n}");
            let mut ctx = execution_ctx();
            let after = resolve(&leaf(list.clone()), array.dtype()).unwrap();
            let points: Vec<Scalar> = match &after {
                Resolved::InSet { values, .. } => values.clone(),
                Resolved::Or(c) => c.iter().map(|r| match r { Resolved::Cmp(_, s) => s.clone(), _ => unreachable!() }).collect(),
                Resolved::Cmp(_, s) => vec![s.clone()],
                other => unreachable!("{other:?}"),
            };
            let before = one_compare_per_literal(&points);
            for (name, resolved) in [("before_compare_per_literal", &before), ("after_set", &after)] {
                group.bench_function(BenchmarkId::new(name, &id), |b| {
                    b.iter(|| {
                        if column == "dict" {
                            let t = code_table(array, resolved, &mut ctx).unwrap();
                            black_box(select_rows(&packed, &t, &mut ctx).unwrap())
                        } else {
                            black_box(column_selection(array, resolved, &mut ctx).unwrap())
                        }
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench, bench_like, bench_in_list);
criterion_main!(benches);
