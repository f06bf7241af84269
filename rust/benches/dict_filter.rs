//! The dictionary filter kernel against vortex's own Dict compare kernel and against decoding
//! every row to a string and comparing (the per-row path the kernel replaces).
//!
//! Rows: 1,048,576 (16 chunks' worth) in one dictionary array with bit-packed codes, as the
//! reference writer stores them. Pool sizes 16/256/4096/65536; selectivity 0/1/50/100%.
//! Run: `cargo bench --bench dict_filter` (add `-- --quick` for a fast pass).

use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::Throughput;
use criterion::criterion_group;
use criterion::criterion_main;
use std::hint::black_box;
use vortex4j::dict_filter::code_table;
use vortex4j::dict_filter::select_rows;
use vortex4j::fixture::Rng;
use vortex4j::predicate::CmpOp;
use vortex4j::predicate::Literal;
use vortex4j::predicate::Predicate;
use vortex4j::resolve::resolve;
use vortex4j::session::execution_ctx;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::BoolArray;
use vortex_array::arrays::ConstantArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::builtins::ArrayBuiltins;
use vortex_array::dtype::Nullability::NonNullable;
use vortex_array::scalar::Scalar;
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

criterion_group!(benches, bench);
criterion_main!(benches);
