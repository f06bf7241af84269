//! Fused filter + group-by aggregation of one chunk over dictionary codes: the rows a selection
//! bitmap keeps are grouped by their code (a null code or a null dictionary entry is the null
//! group, index `dictionary length`), and COUNT / SUM / MIN / MAX of numeric columns are folded
//! per group. No string is decoded: Java names each group once, from the dictionary. Several
//! group columns may also mix dictionaries with integer and date columns.
//!
//! Per-chunk partial results go back to Java, which merges them across chunks. Integer results
//! are exact. A floating-point SUM (without GROUP BY) continues Java's running sum: Java passes
//! the sum so far, the kernel adds the chunk's values to it in row order and returns the new sum,
//! so the result is bit-identical to Java adding every row itself (and to Calcite's own sum over
//! the same rows). MIN/MAX of floats order as Java's `Double.compare` (-0.0 below 0.0, NaN above
//! +inf), which no summation order affects.
//!
//! [`aggregate`] is the entry: the selected rows' columns are decoded once ([`columns`]), their
//! keys read as dictionary slots or integer values ([`keys`]), the rows grouped ([`groups`]: one
//! dictionary, composite codes, tuples of mixed keys) and each aggregate folded per group
//! ([`fold`]).

mod columns;
mod fold;
mod groups;
mod keys;
#[cfg(test)]
mod tests;

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_error::VortexResult;
use vortex_error::vortex_bail;

use columns::Decodings;
use columns::selected_rows;
use columns::valid_bits;
use crate::filter::bits::bit;

pub use keys::KeyValues;

/// Aggregate functions (codes shared with Java's `GroupAggregate.Function`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    CountStar,
    Count,
    Sum,
    Min,
    Max,
}

impl Func {
    /// From the Java ordinal.
    pub fn from_ordinal(o: i32) -> Option<Self> {
        [Func::CountStar, Func::Count, Func::Sum, Func::Min, Func::Max].get(usize::try_from(o).ok()?).copied()
    }
}

/// One aggregate's per-group partial result.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    /// Rows (COUNT(*)) or non-null values (everything else) per group.
    pub count: Vec<i64>,
    /// SUM, MIN or MAX per group (meaningless where `count` is 0); empty for counts.
    pub value: Values,
}

/// The per-group values of a partial: integers, or floats (SUM, MIN, MAX of a float column).
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Partial {
    fn counts(count: Vec<i64>) -> Self {
        Partial { count, value: Values::Int(vec![]) }
    }
}

/// Whether the native kernel aggregates `func` over a column of `dtype` (else Java does), with
/// group columns (`keyed`) or without.
pub fn supported(func: Func, dtype: Option<&DType>, keyed: bool) -> bool {
    match (func, dtype) {
        (Func::CountStar, _) => true,
        (Func::Count, Some(_)) => true,
        // Integers that fit i64 exactly.
        (Func::Sum | Func::Min | Func::Max, Some(DType::Primitive(p, _))) if p.is_int() => *p != PType::U64,
        // A float sum continues Java's running sum, which exists only for the one group without
        // keys (per group it would need Java's groups before the kernel has made its own).
        (Func::Sum, Some(DType::Primitive(PType::F32 | PType::F64, _))) => !keyed,
        (Func::Min | Func::Max, Some(DType::Primitive(PType::F32 | PType::F64, _))) => true,
        _ => false,
    }
}

/// A chunk's aggregation: its groups (see [`groups::groups`]) and one partial per aggregate, after the
/// selected rows per group.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregated {
    /// Number of groups.
    pub groups: usize,
    /// With several keys, each group's composite code; else empty (the group is the code).
    pub codes: Vec<u64>,
    /// With several keys of which one is an integer column, each key's value per group (and
    /// `codes` empty); else empty.
    pub keys: Vec<KeyValues>,
    pub partials: Vec<Partial>,
}

/// One aggregate of [`aggregate`]: its function, its column (none for COUNT(*)) and, for a float
/// SUM, the sum so far that the chunk's values are added to (0.0 before the first chunk).
#[derive(Clone, Copy)]
pub struct Agg<'a> {
    pub func: Func,
    pub column: Option<&'a ArrayRef>,
    pub start: f64,
}

/// Aggregates one chunk. `keys` are the group columns (none: one group), `selection` the rows to
/// keep (or all), `aggs` the functions and their columns. The first partial holds the selected
/// rows per group, then one per aggregate. `None` when [`groups::groups`] declines the keys or an
/// aggregate is not [`supported`]: Java aggregates the chunk instead.
pub fn aggregate(
    keys: &[&ArrayRef],
    len: usize,
    selection: Option<&[u64]>,
    aggs: &[Agg<'_>],
    ctx: &mut ExecutionCtx,
) -> VortexResult<Option<Aggregated>> {
    if aggs.iter().any(|a| !supported(a.func, a.column.map(|c| c.dtype()), !keys.is_empty())) {
        return Ok(None);
    }
    // Every row of a chunk counted per entry of one dictionary (an unfiltered `GROUP BY s` with
    // COUNT(*)): one pass over the codes, without the lists of rows and group ids.
    if selection.is_none() && keys.len() == 1 && aggs.iter().all(|a| a.func == Func::CountStar) {
        if let Some((counts, n)) = keys::key_counts(keys[0], len, ctx)? {
            let partials = (0..=aggs.len()).map(|_| Partial::counts(counts.clone())).collect();
            return Ok(Some(Aggregated { groups: n + 1, codes: vec![], keys: vec![], partials }));
        }
    }
    let rows = selected_rows(len, selection);
    let mut decodings = Decodings::new(&rows, len);
    let Some(g) = groups::groups(keys, len, &rows, &mut decodings, ctx)? else {
        return Ok(None);
    };
    // First: the selected rows of each group (which groups exist at all).
    let mut out = Vec::with_capacity(aggs.len() + 1);
    let mut per_group = vec![0i64; g.count];
    g.gids.iter().for_each(|&gid| per_group[gid as usize] += 1);
    out.push(Partial::counts(per_group));
    for agg in aggs {
        out.push(match (agg.func, agg.column) {
            (Func::CountStar, _) => {
                let mut count = vec![0i64; g.count];
                g.gids.iter().for_each(|&gid| count[gid as usize] += 1);
                Partial::counts(count)
            }
            (Func::Count, Some(c)) => {
                let valid = valid_bits(c, ctx)?;
                let mut count = vec![0i64; g.count];
                for (&r, &gid) in rows.iter().zip(&g.gids) {
                    if valid.as_ref().is_none_or(|w| bit(w, r as usize)) {
                        count[gid as usize] += 1;
                    }
                }
                Partial::counts(count)
            }
            (f, Some(c)) if c.dtype().is_float() => fold::floats(f, &*decodings.get(c, ctx)?, agg.start, &rows, &g)?,
            (f, Some(c)) => fold::ints(f, &*decodings.get(c, ctx)?, &rows, &g)?,
            (f, None) => vortex_bail!("{f:?} needs a column"),
        });
    }
    Ok(Some(Aggregated { groups: g.count, codes: g.codes, keys: g.keys, partials: out }))
}
