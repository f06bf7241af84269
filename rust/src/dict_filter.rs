//! THE kernel: a predicate on a dictionary-encoded column, evaluated once per dictionary entry.
//!
//! 1. The leaf is resolved against the column type ([`crate::resolve`]) and evaluated on the
//!    dictionary values with vortex's compute (compare on FSST/VarBinView values directly), giving
//!    one boolean per code: the [`CodeTable`]. It is cached per dictionary ([`crate::dict_cache`]):
//!    files from the reference writer share one dictionary across a column's chunks.
//! 2. Rows are selected by code lookup into a bitmap, 64 rows per word. Bit-packed codes are
//!    unpacked and looked up in one pass (FastLanes' fused unpack-compare with the table as the
//!    comparison), one 1024-row block at a time, without materializing the codes.
//!
//! A null code, or a code pointing at a null dictionary entry, is a null row: it is selected
//! only by leaves true for null (`IS NULL`, `NOT IN ()`).

use std::sync::Arc;

use fastlanes::BitPackingCompare;
use fastlanes::transpose_bits;
use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::IntoArray;
use vortex_array::arrays::BoolArray;
use vortex_array::arrays::ConstantArray;
use vortex_array::arrays::Dict;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::bool::BoolArrayExt;
use vortex_array::arrays::dict::DictArraySlotsExt;
use vortex_array::builtins::ArrayBuiltins;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_array::optimizer::ArrayOptimizer;
use vortex_array::scalar_fn::fns::between::BetweenOptions;
use vortex_array::scalar_fn::fns::between::StrictComparison;
use vortex_array::dtype::Nullability;
use vortex_array::scalar::Scalar;
use vortex_array::scalar_fn::fns::like::Like;
use vortex_array::scalar_fn::fns::like::LikeOptions;
use vortex_array::scalar_fn::fns::list_contains::ListContains;
use vortex_array::scalar_fn::fns::list_contains::ListContainsOptions;
use vortex_array::scalar_fn::fns::list_contains::PreparedSet;
use vortex_array::scalar_fn::fns::operators::Operator;
use vortex_error::VortexResult;
use vortex_fastlanes::BitPacked;
use vortex_fastlanes::BitPackedArrayExt;
use vortex_fastlanes::BitWidthsView;
use vortex_mask::Mask;

use crate::predicate::CmpOp;
use crate::resolve::Resolved;

/// One boolean per dictionary code: whether the leaf is true for that entry.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeTable {
    /// `matches[c]` for each code `c` of the dictionary.
    pub matches: Vec<bool>,
    /// Whether a row with a null code is selected (the leaf's value on null).
    pub null_rows: bool,
    /// How many entries match.
    pub true_count: usize,
}

impl CodeTable {
    fn new(matches: Vec<bool>, null_rows: bool) -> Self {
        let true_count = matches.iter().filter(|&&m| m).count();
        CodeTable {
            matches,
            null_rows,
            true_count,
        }
    }

    /// The table from LSB-first words laid out as [`CodeTable::to_words`] writes them, for a
    /// dictionary of `entries` entries; `None` if `words` has not exactly that many bits' words.
    pub fn from_words(words: &[u64], entries: usize) -> Option<Self> {
        if words.len() != (entries + 1).div_ceil(64) {
            return None;
        }
        let bit = |i: usize| words[i / 64] >> (i % 64) & 1 == 1;
        Some(CodeTable::new((0..entries).map(bit).collect(), bit(entries)))
    }

    /// The table as LSB-first bitmap words (for Java's per-code aggregates): bit `c` for
    /// entry `c`, then one more bit (index `matches.len()`) for rows with a null code.
    pub fn to_words(&self) -> Vec<u64> {
        let mut bits = self.matches.clone();
        bits.push(self.null_rows);
        bools_to_words(&bits)
    }
}

/// Builds the per-code table of `leaf` (already resolved) over the dictionary `values`: the same
/// evaluation as for a whole column, on the entries.
pub fn code_table(values: &ArrayRef, leaf: &Resolved, ctx: &mut ExecutionCtx) -> VortexResult<CodeTable> {
    let words = column_selection(values, leaf, ctx)?;
    let matches = (0..values.len()).map(|c| words[c / 64] >> (c % 64) & 1 == 1).collect();
    Ok(CodeTable::new(matches, true_on_null(leaf)))
}

/// The leaf's value on a null row: true only for IS NULL and forms that select everything.
fn true_on_null(leaf: &Resolved) -> bool {
    match leaf {
        Resolved::Every | Resolved::IsNull => true,
        Resolved::False | Resolved::NotNull | Resolved::Cmp(..) | Resolved::InSet { .. } | Resolved::Like { .. } => false,
        Resolved::And(c) => c.iter().all(true_on_null),
        Resolved::Or(c) => c.iter().any(true_on_null),
    }
}

/// Evaluates a resolved leaf on a whole column (or a dictionary's entries) with vortex's compute
/// (compare kernels work on the encoded data: FoR, bit-packing, ALP, FSST, run-end...): the
/// selection as LSB-first words.
pub fn column_selection(column: &ArrayRef, leaf: &Resolved, ctx: &mut ExecutionCtx) -> VortexResult<Vec<u64>> {
    let len = column.len();
    Ok(match leaf {
        Resolved::False => vec![0; len.div_ceil(64)],
        Resolved::Every => ones(len),
        Resolved::NotNull | Resolved::IsNull => {
            let valid = match column.validity()?.execute_mask(len, ctx)? {
                Mask::AllTrue(_) => ones(len),
                Mask::AllFalse(_) => vec![0; len.div_ceil(64)],
                Mask::Values(v) => bit_words(v.bit_buffer(), len),
            };
            if matches!(leaf, Resolved::NotNull) {
                valid
            } else {
                let mut w: Vec<u64> = valid.into_iter().map(|v| !v).collect();
                clear_tail(&mut w, len);
                w
            }
        }
        Resolved::Cmp(op, scalar) => {
            let rhs = ConstantArray::new(scalar.clone(), len).into_array();
            let result = column.binary(rhs, operator(*op))?.execute::<BoolArray>(ctx)?;
            // Null rows compare to null, which selects nothing.
            mask_words(result.to_mask_fill_null_false(ctx), len)
        }
        Resolved::InSet { values, negated } => {
            // vortex's prepared set: integers and floats (by bit pattern, as its compare) and
            // decimals in an integer set, strings in a hash table; null rows stay null.
            let element = Arc::new(column.dtype().as_nonnullable());
            let list = Scalar::list(element, values.clone(), Nullability::NonNullable);
            let set = PreparedSet::try_new_array(list, len)?;
            let contains = ListContains::try_new_opts(set, column.clone(), ListContainsOptions::default())?.into_array();
            let result = if *negated { contains.not()? } else { contains };
            mask_words(result.execute::<BoolArray>(ctx)?.to_mask_fill_null_false(ctx), len)
        }
        Resolved::Like { pattern, case_insensitive, negated } => {
            // vortex's like: on FSST values its DFA runs on the compressed codes (prefix and
            // contains patterns), otherwise a compiled matcher per value.
            let pattern = ConstantArray::new(Scalar::utf8(pattern.as_str(), Nullability::NonNullable), len).into_array();
            let options = LikeOptions { negated: *negated, case_insensitive: *case_insensitive };
            // Reduce rules first (as vortex's scan applies them: e.g. a sparse or dictionary
            // column's like on its values), then the execute kernels (FSST's DFA).
            let like = Like::try_new(column.clone(), pattern, options)?.into_array().optimize()?;
            let result = like.execute::<BoolArray>(ctx)?;
            mask_words(result.to_mask_fill_null_false(ctx), len)
        }
        Resolved::And(children) => {
            if let [Resolved::Cmp(lo_op @ (CmpOp::Ge | CmpOp::Gt), lo), Resolved::Cmp(hi_op @ (CmpOp::Le | CmpOp::Lt), hi)] =
                children.as_slice()
            {
                // A range: vortex's between kernel in one pass instead of two compares.
                let strict = |op: &CmpOp| {
                    if matches!(op, CmpOp::Gt | CmpOp::Lt) { StrictComparison::Strict } else { StrictComparison::NonStrict }
                };
                let options = BetweenOptions { lower_strict: strict(lo_op), upper_strict: strict(hi_op) };
                let lower = ConstantArray::new(lo.clone(), len).into_array();
                let upper = ConstantArray::new(hi.clone(), len).into_array();
                let result = column.clone().between(lower, upper, options)?.execute::<BoolArray>(ctx)?;
                return Ok(mask_words(result.to_mask_fill_null_false(ctx), len));
            }
            let mut acc = ones(len);
            for c in children {
                let w = column_selection(column, c, ctx)?;
                acc.iter_mut().zip(w).for_each(|(a, b)| *a &= b);
            }
            acc
        }
        Resolved::Or(children) => {
            let mut acc = vec![0; len.div_ceil(64)];
            for c in children {
                let w = column_selection(column, c, ctx)?;
                acc.iter_mut().zip(w).for_each(|(a, b)| *a |= b);
            }
            acc
        }
    })
}

fn mask_words(mask: Mask, len: usize) -> Vec<u64> {
    match mask {
        Mask::AllTrue(_) => ones(len),
        Mask::AllFalse(_) => vec![0; len.div_ceil(64)],
        Mask::Values(v) => bit_words(v.bit_buffer(), len),
    }
}

fn operator(op: CmpOp) -> Operator {
    match op {
        CmpOp::Eq => Operator::Eq,
        CmpOp::Ne => Operator::NotEq,
        CmpOp::Lt => Operator::Lt,
        CmpOp::Le => Operator::Lte,
        CmpOp::Gt => Operator::Gt,
        CmpOp::Ge => Operator::Gte,
    }
}

/// The dictionary of a column, if it is dictionary-encoded with string or binary values.
pub fn string_dictionary(column: &ArrayRef) -> Option<(ArrayRef, ArrayRef)> {
    let dict = column.as_opt::<Dict>()?;
    matches!(dict.values().dtype(), DType::Utf8(_) | DType::Binary(_))
        .then(|| (dict.codes().clone(), dict.values().clone()))
}

/// Selects the rows whose code the table marks: LSB-first words, `codes.len()` bits.
pub fn select_rows(codes: &ArrayRef, table: &CodeTable, ctx: &mut ExecutionCtx) -> VortexResult<Vec<u64>> {
    let len = codes.len();
    let validity = codes.validity()?.execute_mask(len, ctx)?;
    let mut words = if table.true_count == 0 {
        vec![0u64; len.div_ceil(64)]
    } else if table.true_count == table.matches.len() {
        ones(len)
    } else {
        lookup_codes(codes, table, ctx)?
    };
    // Null codes: their looked-up bit is meaningless; they take the leaf's value on null.
    match &validity {
        Mask::AllTrue(_) => {}
        Mask::AllFalse(_) => words = if table.null_rows { ones(len) } else { vec![0; len.div_ceil(64)] },
        Mask::Values(v) => {
            let valid = bit_words(v.bit_buffer(), len);
            for (w, v) in words.iter_mut().zip(valid) {
                *w = if table.null_rows { (*w & v) | !v } else { *w & v };
            }
        }
    }
    clear_tail(&mut words, len);
    Ok(words)
}

fn ones(len: usize) -> Vec<u64> {
    let mut w = vec![u64::MAX; len.div_ceil(64)];
    clear_tail(&mut w, len);
    w
}

fn clear_tail(words: &mut [u64], len: usize) {
    if len % 64 != 0 {
        if let Some(last) = words.last_mut() {
            *last &= (1u64 << (len % 64)) - 1;
        }
    }
}

/// The bits of a bit buffer as 64-bit words starting at bit 0.
pub fn bit_words(bits: &vortex_buffer::BitBuffer, len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len.div_ceil(64)];
    for (i, word) in bits.chunks().iter_padded().enumerate().take(out.len()) {
        out[i] = word;
    }
    out
}

fn bools_to_words(bools: &[bool]) -> Vec<u64> {
    let mut out = vec![0u64; bools.len().div_ceil(64)];
    for (w, chunk) in out.iter_mut().zip(bools.chunks(64)) {
        *w = chunk.iter().enumerate().fold(0u64, |acc, (j, &b)| acc | (b as u64) << j);
    }
    out
}

fn lookup_codes(codes: &ArrayRef, table: &CodeTable, ctx: &mut ExecutionCtx) -> VortexResult<Vec<u64>> {
    if let Some(bp) = codes.as_opt::<BitPacked>() {
        if let BitWidthsView::Global(width) = bp.bit_widths() {
            let (offset, len) = (bp.offset() as usize, bp.len());
            let words = match bp.dtype() {
                DType::Primitive(PType::U8, _) => fused::<u8>(bp.packed_slice::<u8>(), width, offset, len, table),
                DType::Primitive(PType::U16, _) => fused::<u16>(bp.packed_slice::<u16>(), width, offset, len, table),
                DType::Primitive(PType::U32, _) => fused::<u32>(bp.packed_slice::<u32>(), width, offset, len, table),
                _ => None,
            };
            if let Some(mut words) = words {
                if let Some(patches) = bp.patches() {
                    apply_patches(&mut words, &patches, table, ctx)?;
                }
                return Ok(words);
            }
        }
    }
    // Any other encoding of the codes: decode them, then look up 64 rows per word.
    let codes = codes.clone().execute::<PrimitiveArray>(ctx)?;
    Ok(match_each_integer_ptype!(codes.ptype(), |P| {
        lookup_plain(codes.as_slice::<P>(), &table.matches)
    }))
}

/// Looks up decoded codes; codes outside the dictionary (corrupt data) select nothing.
fn lookup_plain<P: Copy + TryInto<usize>>(codes: &[P], table: &[bool]) -> Vec<u64> {
    let mut out = vec![0u64; codes.len().div_ceil(64)];
    for (w, chunk) in out.iter_mut().zip(codes.chunks(64)) {
        let mut word = 0u64;
        for (j, &c) in chunk.iter().enumerate() {
            let hit = c.try_into().ok().and_then(|c: usize| table.get(c).copied()).unwrap_or(false);
            word |= (hit as u64) << j;
        }
        *w = word;
    }
    out
}

/// Patched positions hold placeholder codes; look up their real codes.
fn apply_patches(
    words: &mut [u64],
    patches: &vortex_array::patches::Patches,
    table: &CodeTable,
    ctx: &mut ExecutionCtx,
) -> VortexResult<()> {
    let indices = patches.indices().clone().execute::<PrimitiveArray>(ctx)?;
    let values = patches.values().clone().execute::<PrimitiveArray>(ctx)?;
    let offset = patches.offset();
    let idx: Vec<usize> = match_each_integer_ptype!(indices.ptype(), |I| {
        indices.as_slice::<I>().iter().map(|&i| i as usize - offset).collect()
    });
    let codes: Vec<usize> = match_each_integer_ptype!(values.ptype(), |V| {
        values.as_slice::<V>().iter().map(|&v| v as usize).collect()
    });
    for (i, c) in idx.into_iter().zip(codes) {
        let hit = table.matches.get(c).copied().unwrap_or(false);
        let (w, b) = (i / 64, i % 64);
        if let Some(word) = words.get_mut(w) {
            *word = (*word & !(1u64 << b)) | ((hit as u64) << b);
        }
    }
    Ok(())
}

/// Code types the fused kernel handles.
trait Code: BitPackingCompare + fastlanes::FastLanesComparable<Bitpacked = Self> + Copy + Into<u32> + PartialEq {
    const BITS: usize;
    fn from_u32(v: u32) -> Self;
    /// `lo <= self < lo + n`, as one wrapping compare (vectorizes, unlike a table load).
    fn in_range(self, lo: Self, n: Self) -> bool;
}

macro_rules! code {
    ($t:ty) => {
        impl Code for $t {
            const BITS: usize = <$t>::BITS as usize;
            fn from_u32(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn in_range(self, lo: Self, n: Self) -> bool {
                self.wrapping_sub(lo) < n
            }
        }
    };
}

code!(u8);
code!(u16);
code!(u32);

/// Most runs of codes tested by compares instead of a table load.
const MAX_RUNS: usize = 4;

/// The runs `[lo, lo + n)` of codes equal to `want`, if there are at most [`MAX_RUNS`].
fn runs(matches: &[bool], want: bool) -> Option<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < matches.len() {
        if matches[i] != want {
            i += 1;
            continue;
        }
        let start = i;
        while i < matches.len() && matches[i] == want {
            i += 1;
        }
        if out.len() == MAX_RUNS {
            return None;
        }
        out.push((start as u32, (i - start) as u32));
    }
    Some(out)
}

/// Tests `hit` against every code with compares when the matching (or, `inverted`, the
/// non-matching) codes form at most [`MAX_RUNS`] runs: `=`, `<>`, small `IN` lists and ranges
/// over sorted dictionaries need no table. The compares vectorize; a table load does not.
fn unpack_runs<T: Code>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u32, u32)], inverted: bool) {
    // Everything the closures test is fixed at compile time (count, inversion) and combined with
    // bitwise `|`: no branches, so the lanes vectorize.
    fn points<T: Code, const K: usize, const INV: bool>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u32, u32)]) {
        let p: [T; K] = std::array::from_fn(|k| T::from_u32(runs[k].0));
        unpack_lookup(packed, per_block, width, padded, move |c: T, _| {
            let mut hit = false;
            for x in p {
                hit |= c == x;
            }
            hit ^ INV
        });
    }
    fn ranges<T: Code, const K: usize, const INV: bool>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u32, u32)]) {
        let r: [(T, T); K] = std::array::from_fn(|k| (T::from_u32(runs[k].0), T::from_u32(runs[k].1)));
        unpack_lookup(packed, per_block, width, padded, move |c: T, _| {
            let mut hit = false;
            for (lo, n) in r {
                hit |= c.in_range(lo, n);
            }
            hit ^ INV
        });
    }
    macro_rules! dispatch {
        ($f:ident) => {
            match (runs.len(), inverted) {
                (1, false) => $f::<T, 1, false>(packed, per_block, width, padded, runs),
                (2, false) => $f::<T, 2, false>(packed, per_block, width, padded, runs),
                (3, false) => $f::<T, 3, false>(packed, per_block, width, padded, runs),
                (_, false) => $f::<T, 4, false>(packed, per_block, width, padded, runs),
                (1, true) => $f::<T, 1, true>(packed, per_block, width, padded, runs),
                (2, true) => $f::<T, 2, true>(packed, per_block, width, padded, runs),
                (3, true) => $f::<T, 3, true>(packed, per_block, width, padded, runs),
                (_, true) => $f::<T, 4, true>(packed, per_block, width, padded, runs),
            }
        };
    }
    if runs.iter().all(|&(_, n)| n == 1) {
        dispatch!(points)
    } else {
        dispatch!(ranges)
    }
}

/// Unpacks and looks up one 1024-row FastLanes block at a time, writing bitmap words in row
/// order. `None` if the packed buffer does not have the expected shape (caller decodes instead).
fn fused<T: Code>(packed: &[T], width: u8, offset: usize, len: usize, table: &CodeTable) -> Option<Vec<u64>> {
    let width = width as usize;
    if width == 0 || width > T::BITS || offset >= 1024 {
        return None;
    }
    let blocks = (offset + len).div_ceil(1024);
    let per_block = 1024 * width / T::BITS;
    if packed.len() != blocks * per_block {
        return None;
    }
    // Words in padded coordinates: bit `offset + i` is row `i`.
    let mut padded = vec![0u64; blocks * 16];
    // Runs must fit the code type (a u8 run of 256 would wrap; such tables are all-true).
    let fits = |r: &Vec<(u32, u32)>| r.iter().all(|&(lo, n)| (lo as u64 + n as u64) < (1u64 << T::BITS.min(32)));
    let by_runs = runs(&table.matches, true)
        .filter(|r| !r.is_empty() && fits(r))
        .map(|r| (r, false))
        .or_else(|| runs(&table.matches, false).filter(|r| !r.is_empty() && fits(r)).map(|r| (r, true)));
    if let Some((r, inverted)) = by_runs {
        unpack_runs(packed, per_block, width, &mut padded, &r, inverted);
    } else if width <= 16 {
        // Pad the table to every value `width` bits can hold: no bounds check per row.
        let mut t = table.matches.clone();
        t.resize(t.len().max(1 << width), false);
        let t = t.as_slice();
        // SAFETY: an unpacked value has at most `width` bits, so it is < 1 << width <= t.len().
        unpack_lookup(packed, per_block, width, &mut padded, |c: T, _| unsafe {
            *t.get_unchecked(Into::<u32>::into(c) as usize)
        });
    } else {
        let t = table.matches.as_slice();
        unpack_lookup(packed, per_block, width, &mut padded, |c: T, _| {
            t.get(Into::<u32>::into(c) as usize).copied().unwrap_or(false)
        });
    }
    Some(shift_down(padded, offset, len))
}

/// The fused loop: FastLanes unpacks each block lane by lane and calls `hit` on every code as
/// it is unpacked, accumulating lane-major bits; one bit transpose puts them in row order.
#[inline(always)]
fn unpack_lookup<T: Code, F: Fn(T, T) -> bool + Copy>(
    packed: &[T],
    per_block: usize,
    width: usize,
    padded: &mut [u64],
    hit: F,
) {
    let mut lane_major = [0u64; 16];
    for (block, out) in packed.chunks_exact(per_block).zip(padded.chunks_exact_mut(16)) {
        // SAFETY: `block` holds exactly 1024 * width / T::BITS elements and width <= T::BITS,
        // the contract of `unchecked_unpack_cmp`.
        unsafe { T::unchecked_unpack_cmp(width, block, &mut lane_major, hit, T::from_u32(0)) };
        let out: &mut [u64; 16] = out.try_into().expect("16 words");
        transpose_bits::<T>(&lane_major, out);
    }
}

/// Drops the first `offset` bits (a sliced first block) so bit 0 is row 0.
fn shift_down(padded: Vec<u64>, offset: usize, len: usize) -> Vec<u64> {
    let n = len.div_ceil(64);
    if offset == 0 {
        let mut w = padded;
        w.truncate(n);
        return w;
    }
    let (skip, shift) = (offset / 64, offset % 64);
    let mut out = vec![0u64; n];
    for (i, o) in out.iter_mut().enumerate() {
        let lo = padded.get(skip + i).copied().unwrap_or(0);
        let hi = padded.get(skip + i + 1).copied().unwrap_or(0);
        *o = if shift == 0 { lo } else { (lo >> shift) | (hi << (64 - shift)) };
    }
    out
}
