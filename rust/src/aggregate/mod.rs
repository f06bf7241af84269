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

use std::rc::Rc;

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::IntoArray;
use vortex_array::arrays::ExtensionArray;
use vortex_array::arrays::Primitive;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::extension::ExtensionArrayExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;
use vortex_error::VortexResult;
use vortex_error::vortex_bail;
use vortex_mask::Mask;

use crate::filter::bits::bit_words;
use crate::filter::dict::string_dictionary;

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

/// Groups of a chunk: the group of each selected row, the number of groups and, with several
/// keys, each group's composite code or, when a key is an integer column, each group's key values
/// (see [`groups`]).
struct Groups {
    gids: Vec<u32>,
    count: usize,
    codes: Vec<u64>,
    keys: Vec<KeyValues>,
}

/// One group column's value per group, when a chunk is grouped by dictionary and integer keys
/// ([`groups`]): a dictionary slot or an integer (a date's days since the epoch), and whether the
/// key is null (its value then meaningless).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeyValues {
    pub values: Vec<i64>,
    pub nulls: Vec<bool>,
}

/// Composite codes (or, grouping by values, parent groups × key values) up to this many are
/// numbered through a table, more through a hash map.
const DENSE_CODES: u64 = 1 << 16;

/// A selection of at most one row in this many is sparse: its columns are taken at the selected
/// rows (vortex's bit-packed `take` unpacks just those values) rather than decoded whole. The
/// ratio above which vortex's own `take` decodes the whole array instead.
const SPARSE: usize = 8;

fn selected_rows(len: usize, selection: Option<&[u64]>) -> Vec<u32> {
    match selection {
        None => (0..len as u32).collect(),
        Some(words) => {
            let mut rows = Vec::with_capacity(words.iter().map(|w| w.count_ones() as usize).sum());
            for (w, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    rows.push((w * 64) as u32 + bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
            rows
        }
    }
}

/// The validity of `array` as LSB-first words, or `None` when every row is valid.
fn valid_bits(array: &ArrayRef, ctx: &mut ExecutionCtx) -> VortexResult<Option<Vec<u64>>> {
    let len = array.len();
    Ok(match array.validity()?.execute_mask(len, ctx)? {
        Mask::AllTrue(_) => None,
        Mask::AllFalse(_) => Some(vec![0; len.div_ceil(64)]),
        Mask::Values(v) => Some(bit_words(v.bit_buffer(), len)),
    })
}

#[inline(always)]
fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

/// A primitive column's values for the selected rows of a chunk: either the whole chunk decoded
/// (read at each selected row) or, for a sparse selection of an encoded column, only the selected
/// rows in order; with their validity.
struct Decoded {
    values: PrimitiveArray,
    valid: Option<Vec<u64>>,
    /// `values` holds the selected rows only.
    taken: bool,
}

impl Decoded {
    /// `column` for the selected `rows` of a chunk of `len` rows. A column already decoded (the
    /// chunk's shared decoding, see `Chunk::decoded`) is read as it is.
    fn new(column: &ArrayRef, rows: &[u32], len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Self> {
        let taken = rows.len() * SPARSE <= len && !column.is::<Primitive>();
        let array = if taken {
            let indices = PrimitiveArray::new(rows.iter().copied().collect::<Buffer<u32>>(), Validity::NonNullable);
            column.take(indices.into_array())?
        } else {
            column.clone()
        };
        let values = array.execute::<PrimitiveArray>(ctx)?;
        let valid = valid_bits(&values.clone().into_array(), ctx)?;
        Ok(Decoded { values, valid, taken })
    }

    /// Where the `i`th selected row, `row`, is in `values`.
    #[inline(always)]
    fn at(&self, i: usize, row: u32) -> usize {
        if self.taken { i } else { row as usize }
    }

    #[inline(always)]
    fn is_valid(&self, at: usize) -> bool {
        self.valid.as_ref().is_none_or(|w| bit(w, at))
    }
}

/// The decodings of one chunk's columns for its selected rows, each made once however many keys
/// and aggregates read the column (`GROUP BY volume` with `SUM(volume)`).
struct Decodings<'r> {
    rows: &'r [u32],
    len: usize,
    done: Vec<(ArrayRef, Rc<Decoded>)>,
}

impl<'r> Decodings<'r> {
    fn new(rows: &'r [u32], len: usize) -> Self {
        Decodings { rows, len, done: Vec::new() }
    }

    fn get(&mut self, column: &ArrayRef, ctx: &mut ExecutionCtx) -> VortexResult<Rc<Decoded>> {
        if let Some((_, d)) = self.done.iter().find(|(c, _)| ArrayRef::ptr_eq(c, column)) {
            return Ok(Rc::clone(d));
        }
        let d = Rc::new(Decoded::new(column, self.rows, self.len, ctx)?);
        self.done.push((column.clone(), Rc::clone(&d)));
        Ok(d)
    }
}

/// The slot of each selected row in the dictionary of strings `key`: its code, or the
/// dictionary's length for a null code or a null entry; and that length. `None` when `key` is not
/// a dictionary of strings.
fn key_slots(key: &ArrayRef, rows: &[u32], len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Option<(Vec<u32>, usize)>> {
    let Some((codes, values)) = string_dictionary(key) else {
        return Ok(None);
    };
    let null_slot = values.len() as u32;
    // Each code's slot, decided once: a null dictionary entry is the null slot.
    let entries_valid = valid_bits(&values, ctx)?;
    let slot_of: Vec<u32> = (0..null_slot)
        .map(|c| if entries_valid.as_ref().is_some_and(|w| !bit(w, c as usize)) { null_slot } else { c })
        .collect();
    let codes = Decoded::new(&codes, rows, len, ctx)?;
    let slots = match_each_integer_ptype!(codes.values.ptype(), |P| {
        let c = codes.values.as_slice::<P>();
        rows.iter()
            .enumerate()
            .map(|(i, &r)| {
                let at = codes.at(i, r);
                // A code outside the dictionary (corrupt data) counts as null.
                if codes.is_valid(at) { slot_of.get(c[at] as usize).copied().unwrap_or(null_slot) } else { null_slot }
            })
            .collect()
    });
    Ok(Some((slots, values.len())))
}

/// Rows per slot of the dictionary of strings `key` over all `len` rows of a chunk (slots as
/// [`key_slots`] gives them), counted in one pass over the codes; and the dictionary's length.
/// `None` when `key` is not a dictionary of strings.
fn key_counts(key: &ArrayRef, len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Option<(Vec<i64>, usize)>> {
    let Some((codes, values)) = string_dictionary(key) else {
        return Ok(None);
    };
    let n = values.len();
    let codes_valid = valid_bits(&codes, ctx)?;
    let codes = codes.execute::<PrimitiveArray>(ctx)?;
    // Slot n: null codes, null entries and (corrupt data) codes outside the dictionary.
    let mut per_slot = vec![0i64; n + 1];
    match_each_integer_ptype!(codes.ptype(), |P| {
        let c = &codes.as_slice::<P>()[..len];
        match &codes_valid {
            None => c.iter().for_each(|&x| per_slot[(x as usize).min(n)] += 1),
            Some(w) => c.iter().enumerate().for_each(|(r, &x)| {
                per_slot[if bit(w, r) { (x as usize).min(n) } else { n }] += 1;
            }),
        }
    });
    if let Some(w) = valid_bits(&values, ctx)? {
        for c in (0..n).filter(|&c| !bit(&w, c)) {
            per_slot[n] += std::mem::take(&mut per_slot[c]);
        }
    }
    Ok(Some((per_slot, n)))
}

/// Groups the selected rows by the dictionary codes of `keys`. Without a key all rows are one
/// group; with one key group `c` is code `c` and the last group (index `dictionary length`) the
/// null key. With several keys each row's composite code is `slot_0 + (n_0 + 1) * (slot_1 +
/// (n_1 + 1) * (...))` (`n_k` the length of key `k`'s dictionary, slot `n_k` its null) and the
/// groups, numbered in first-seen order, carry their composite codes. Several keys of which some
/// are integer (or date) columns are grouped by their values ([`tuple_groups`]). `None` when one
/// key is not a dictionary of strings, when a key is neither that nor an integer column fitting
/// i64 nor a date in days, or when the composite codes of dictionary keys would not fit 64 bits.
fn groups(
    keys: &[&ArrayRef],
    len: usize,
    rows: &[u32],
    decodings: &mut Decodings<'_>,
    ctx: &mut ExecutionCtx,
) -> VortexResult<Option<Groups>> {
    if keys.is_empty() {
        let gids = vec![0; rows.len()];
        return Ok(Some(Groups { gids, count: 1, codes: vec![], keys: vec![] }));
    }
    // Each key's slots (a dictionary of strings) or values (an integer column), made once.
    let mut columns = Vec::with_capacity(keys.len());
    for key in keys {
        columns.push(match key_slots(key, rows, len, ctx)? {
            Some((slots, n)) => KeyColumn::Slots(slots, n),
            // A single key that is not a dictionary stays with Java, which also applies a group
            // key function to it row by row; several keys may mix dictionaries and integers.
            None if keys.len() == 1 => return Ok(None),
            None => match int_keys(key, rows, decodings, ctx)? {
                Some(values) => KeyColumn::Values(values),
                None => return Ok(None),
            },
        });
    }
    if columns.iter().any(|c| matches!(c, KeyColumn::Values(_))) {
        return Ok(Some(tuple_groups(columns, rows.len())));
    }
    let (slots, radix): (Vec<Vec<u32>>, Vec<u64>) = columns
        .into_iter()
        .map(|c| match c {
            KeyColumn::Slots(s, n) => (s, n as u64 + 1),
            KeyColumn::Values(_) => unreachable!("grouped by values above"),
        })
        .unzip();
    if keys.len() == 1 {
        let gids = slots.into_iter().next().unwrap_or_default();
        return Ok(Some(Groups { gids, count: radix[0] as usize, codes: vec![], keys: vec![] }));
    }
    let Some(product) = radix.iter().try_fold(1u64, |p, &r| p.checked_mul(r)) else {
        return Ok(None);
    };
    let composite = |i: usize| slots.iter().zip(&radix).rev().fold(0u64, |c, (s, &r)| c * r + u64::from(s[i]));
    let mut codes = Vec::new();
    let mut gids = Vec::with_capacity(rows.len());
    if product <= DENSE_CODES {
        let mut id = vec![u32::MAX; product as usize];
        for i in 0..rows.len() {
            let c = composite(i);
            let g = &mut id[c as usize];
            if *g == u32::MAX {
                *g = codes.len() as u32;
                codes.push(c);
            }
            gids.push(*g);
        }
    } else {
        let mut id = rustc_hash::FxHashMap::<u64, u32>::default();
        for i in 0..rows.len() {
            let c = composite(i);
            let g = *id.entry(c).or_insert_with(|| {
                codes.push(c);
                (codes.len() - 1) as u32
            });
            gids.push(g);
        }
    }
    Ok(Some(Groups { gids, count: codes.len(), codes, keys: vec![] }))
}

/// One group column for the selected rows: dictionary slots (and the dictionary's length, the
/// null slot) or integer values.
enum KeyColumn {
    Slots(Vec<u32>, usize),
    Values(KeyValues),
}

/// The integer value of each selected row in `key` (a date: its days) and whether it is null;
/// `None` unless `key` is an integer column fitting i64 or a date stored as 32-bit days.
fn int_keys(key: &ArrayRef, rows: &[u32], decodings: &mut Decodings<'_>, ctx: &mut ExecutionCtx) -> VortexResult<Option<KeyValues>> {
    let storage = match key.dtype() {
        DType::Primitive(p, _) if p.is_int() && *p != PType::U64 => key.clone(),
        DType::Extension(ext) if ext.id().as_str() == "vortex.date" && matches!(ext.storage_dtype(), DType::Primitive(PType::I32, _)) => {
            key.clone().execute::<ExtensionArray>(ctx)?.storage_array().clone()
        }
        _ => return Ok(None),
    };
    let d = decodings.get(&storage, ctx)?;
    let nulls = rows.iter().enumerate().map(|(i, &r)| !d.is_valid(d.at(i, r))).collect();
    let values = match_each_integer_ptype!(d.values.ptype(), |P| {
        let v = d.values.as_slice::<P>();
        rows.iter().enumerate().map(|(i, &r)| v[d.at(i, r)] as i64).collect()
    });
    Ok(Some(KeyValues { values, nulls }))
}

/// Groups the selected `rows` by several keys, each dictionary slots or integer values, one key
/// at a time: a row's group after key `k` is a dense id of (its group after key `k - 1`, its value
/// of key `k`), numbered through a table where the groups so far times the key's range of values
/// are few (a dictionary, a narrow range of integers), else through a hash map. The final groups
/// are numbered in first-seen order and carry each key's value ([`KeyValues`]; a dictionary key's
/// value is its slot).
fn tuple_groups(columns: Vec<KeyColumn>, rows: usize) -> Groups {
    let width = columns.len();
    let mut gids = vec![0u32; rows];
    // Per key, each group's parent (its group over the keys before) and its value of the key.
    let mut levels: Vec<(Vec<u32>, KeyValues)> = Vec::with_capacity(width);
    for column in columns {
        let column = match column {
            KeyColumn::Values(v) => v,
            KeyColumn::Slots(slots, n) => KeyValues {
                nulls: slots.iter().map(|&s| s as usize == n).collect(),
                values: slots.into_iter().map(i64::from).collect(),
            },
        };
        let groups_so_far = levels.last().map_or(1, |(parents, _)| parents.len());
        let (mut parents, mut level) = (Vec::new(), KeyValues::default());
        let mut new_group = |gid: u32, value: i64, null: bool| {
            parents.push(gid);
            level.values.push(value);
            level.nulls.push(null);
            (parents.len() - 1) as u32
        };
        match dense_range(&column, groups_so_far) {
            // Entry of (group, value): group * width + value - min, the last of each group's row the null.
            Some((min, span)) => {
                let mut id = vec![u32::MAX; groups_so_far * span];
                for (i, gid) in gids.iter_mut().enumerate() {
                    let (value, null) = (column.values[i], column.nulls[i]);
                    let entry = *gid as usize * span + if null { span - 1 } else { (value - min) as usize };
                    if id[entry] == u32::MAX {
                        id[entry] = new_group(*gid, value, null);
                    }
                    *gid = id[entry];
                }
            }
            None => {
                let mut id = rustc_hash::FxHashMap::<u128, u32>::default();
                for (i, gid) in gids.iter_mut().enumerate() {
                    let (value, null) = (column.values[i], column.nulls[i]);
                    let entry = u128::from(*gid) << 65 | u128::from(null) << 64 | u128::from(if null { 0 } else { value as u64 });
                    *gid = *id.entry(entry).or_insert_with(|| new_group(*gid, value, null));
                }
            }
        }
        levels.push((parents, level));
    }
    let count = levels.last().map_or(1, |(parents, _)| parents.len());
    // Each final group's value of every key, from the last key back to the first.
    let mut keys_out = vec![KeyValues::default(); width];
    let mut at: Vec<u32> = (0..count as u32).collect();
    for (k, (parents, level)) in levels.iter().enumerate().rev() {
        keys_out[k].values = at.iter().map(|&g| level.values[g as usize]).collect();
        keys_out[k].nulls = at.iter().map(|&g| level.nulls[g as usize]).collect();
        at.iter_mut().for_each(|g| *g = parents[*g as usize]);
    }
    Groups { gids, count, codes: vec![], keys: keys_out }
}

/// The smallest non-null value of `column` and the span of a group's table entries (its values'
/// range and the null) when `groups` such tables fit [`DENSE_CODES`]; `None` otherwise.
fn dense_range(column: &KeyValues, groups: usize) -> Option<(i64, usize)> {
    let mut valid = column.values.iter().zip(&column.nulls).filter(|(_, null)| !**null).map(|(v, _)| *v);
    let first = valid.next().unwrap_or(0);
    let (min, max) = valid.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let span = u64::try_from(i128::from(max) - i128::from(min) + 2).ok()?;
    (span.checked_mul(groups as u64)? <= DENSE_CODES).then_some((min, span as usize))
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

/// A chunk's aggregation: its groups (see [`groups`]) and one partial per aggregate, after the
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

impl<'a> Agg<'a> {
    /// `func` of `column`, a float sum starting from 0.0.
    pub fn new(func: Func, column: Option<&'a ArrayRef>) -> Self {
        Agg { func, column, start: 0.0 }
    }
}

/// Aggregates one chunk. `keys` are the group columns (none: one group), `selection` the rows to
/// keep (or all), `aggs` the functions and their columns. The first partial holds the selected
/// rows per group, then one per aggregate. `None` when [`groups`] declines the keys or an
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
        if let Some((counts, n)) = key_counts(keys[0], len, ctx)? {
            let partials = (0..=aggs.len()).map(|_| Partial::counts(counts.clone())).collect();
            return Ok(Some(Aggregated { groups: n + 1, codes: vec![], keys: vec![], partials }));
        }
    }
    let rows = selected_rows(len, selection);
    let mut decodings = Decodings::new(&rows, len);
    let Some(g) = groups(keys, len, &rows, &mut decodings, ctx)? else {
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
            (f, Some(c)) if c.dtype().is_float() => fold_floats(f, &*decodings.get(c, ctx)?, agg.start, &rows, &g)?,
            (f, Some(c)) => fold_ints(f, &*decodings.get(c, ctx)?, &rows, &g)?,
            (f, None) => vortex_bail!("{f:?} needs a column"),
        });
    }
    Ok(Some(Aggregated { groups: g.count, codes: g.codes, keys: g.keys, partials: out }))
}

/// SUM / MIN / MAX of an integer column per group (sums exact in i128, checked into i64).
fn fold_ints(func: Func, column: &Decoded, rows: &[u32], g: &Groups) -> VortexResult<Partial> {
    let mut count = vec![0i64; g.count];
    let mut acc: Vec<i128> = vec![
        match func {
            Func::Min => i128::MAX,
            Func::Max => i128::MIN,
            _ => 0,
        };
        g.count
    ];
    fn fold<P: Copy + Into<i128>>(
        v: &[P],
        column: &Decoded,
        rows: &[u32],
        g: &Groups,
        count: &mut [i64],
        acc: &mut [i128],
        step: impl Fn(i128, i128) -> i128,
    ) {
        for (i, (&r, &gid)) in rows.iter().zip(&g.gids).enumerate() {
            let (at, gid) = (column.at(i, r), gid as usize);
            if !column.is_valid(at) {
                continue;
            }
            count[gid] += 1;
            acc[gid] = step(acc[gid], v[at].into());
        }
    }
    let values = &column.values;
    match_each_integer_ptype!(values.ptype(), |P| {
        let v = values.as_slice::<P>();
        match func {
            Func::Min => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a.min(x)),
            Func::Max => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a.max(x)),
            _ => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a + x),
        }
    });
    let value = acc
        .into_iter()
        .zip(&count)
        .map(|(a, &n)| if n == 0 { Ok(0) } else { i64::try_from(a).map_err(|_| ()) })
        .collect::<Result<Vec<i64>, ()>>();
    match value {
        Ok(value) => Ok(Partial { count, value: Values::Int(value) }),
        Err(()) => vortex_bail!("SUM of column of {} overflows a 64-bit integer", values.dtype()),
    }
}

/// SUM / MIN / MAX of a float column (f32 widened exactly) per group. SUM (one group, see
/// [`supported`]) adds each selected non-null value to `start` in row order, as Java's `+=` does;
/// MIN/MAX keep the first of equal values in Java's `Double.compare` order.
fn fold_floats(func: Func, column: &Decoded, start: f64, rows: &[u32], g: &Groups) -> VortexResult<Partial> {
    let mut count = vec![0i64; g.count];
    let mut acc = vec![if func == Func::Sum { start } else { 0.0 }; g.count];
    fn fold<P: Copy + Into<f64>>(v: &[P], column: &Decoded, rows: &[u32], g: &Groups, count: &mut [i64], acc: &mut [f64], step: impl Fn(f64, f64, bool) -> f64) {
        for (i, (&r, &gid)) in rows.iter().zip(&g.gids).enumerate() {
            let (at, gid) = (column.at(i, r), gid as usize);
            if !column.is_valid(at) {
                continue;
            }
            acc[gid] = step(acc[gid], v[at].into(), count[gid] == 0);
            count[gid] += 1;
        }
    }
    macro_rules! fold_as {
        ($p:ty) => {{
            let v = column.values.as_slice::<$p>();
            match func {
                Func::Sum => fold(v, column, rows, g, &mut count, &mut acc, |a, x, _| a + x),
                Func::Min => fold(v, column, rows, g, &mut count, &mut acc, |a, x, first| if first || java_order(x, a).is_lt() { x } else { a }),
                _ => fold(v, column, rows, g, &mut count, &mut acc, |a, x, first| if first || java_order(x, a).is_gt() { x } else { a }),
            }
        }};
    }
    match column.values.ptype() {
        PType::F32 => fold_as!(f32),
        PType::F64 => fold_as!(f64),
        p => vortex_bail!("a float aggregate over a column of {p}"),
    }
    Ok(Partial { count, value: Values::Float(acc) })
}

/// Java's `Double.compare`: every NaN equal and above +inf, -0.0 below 0.0.
fn java_order(a: f64, b: f64) -> std::cmp::Ordering {
    let canonical = |x: f64| if x.is_nan() { f64::NAN } else { x };
    canonical(a).total_cmp(&canonical(b))
}

#[cfg(test)]
mod tests {
    use vortex_array::IntoArray;
    use vortex_array::arrays::DictArray;
    use vortex_array::arrays::VarBinViewArray;
    use vortex_array::validity::Validity;
    use vortex_buffer::Buffer;

    use super::*;
    use crate::runtime::session::execution_ctx;

    fn specs<'a>(aggs: &[(Func, Option<&'a ArrayRef>)]) -> Vec<Agg<'a>> {
        aggs.iter().map(|&(f, c)| Agg::new(f, c)).collect()
    }

    fn ints(p: &Partial) -> Vec<i64> {
        match &p.value {
            Values::Int(v) => v.clone(),
            Values::Float(v) => panic!("float values {v:?}"),
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

    /// A deterministic pseudo-random sequence.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
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

    #[test]
    fn sum_overflow_is_an_error() {
        let big = PrimitiveArray::new([i64::MAX, 1].into_iter().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
        assert!(aggregate(&[], 2, None, &specs(&[(Func::Sum, Some(&big))]), &mut execution_ctx()).is_err());
        // Extremes that cancel: the sum is exact.
        let wide = PrimitiveArray::new([i64::MAX, 5, i64::MIN].into_iter().collect::<Buffer<i64>>(), Validity::NonNullable).into_array();
        let p = aggregate(&[], 3, None, &specs(&[(Func::Sum, Some(&wide))]), &mut execution_ctx()).unwrap().unwrap().partials;
        assert_eq!(ints(&p[1]), vec![4]);
    }
}
