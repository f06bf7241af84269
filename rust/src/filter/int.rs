//! The integer kernel: a comparison, a range (BETWEEN) or a short `IN` / `NOT IN` list on a
//! bit-packed integer column, evaluated on the packed values straight into selection words.
//!
//! The leaf becomes at most [`MAX_RUNS`] runs of values (`lo ..= lo + span`). A value decodes as
//! `reference + packed` modulo 2^bits (frame of reference, wrapping as vortex decodes it; no
//! reference: 0) read as the column type, so "the value lies in a run" is, for the packed lanes,
//! `(packed - (lo - reference)) mod 2^bits <= span`: one wrapping compare per run, exact for
//! every type, sign and reference, tested as FastLanes unpacks each 1024-value block
//! ([`crate::filter::unpack`]). A block whose packed range `[0, 2^width)` lies wholly inside
//! (or outside) the runs is decided without unpacking. Patched positions hold placeholders:
//! their real values are tested afterwards; null rows are never selected.
//!
//! Taken: a global bit width, under any slices, under a frame of reference (one reference, or
//! one per block aligned with the packed blocks), with patches and validity. Anything else is
//! declined (`None`) and evaluated by vortex's compute on the decoded column.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::Slice;
use vortex_array::arrays::slice::SliceArraySlotsExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_array::scalar::Scalar;
use vortex_error::VortexResult;
use vortex_fastlanes::BitPacked;
use vortex_fastlanes::BitPackedArrayExt;
use vortex_fastlanes::BitWidthsView;
use vortex_fastlanes::FoR;
use vortex_fastlanes::FoRArrayExt;
use vortex_fastlanes::FoRArraySlotsExt;
use vortex_fastlanes::FoRReferences;
use vortex_mask::Mask;

use crate::filter::bits::bit_words;
use crate::filter::bits::clear_tail;
use crate::filter::unpack::Lane;
use crate::filter::unpack::MAX_RUNS;
use crate::filter::unpack::shift_down;
use crate::filter::unpack::unpack_ranges;
use crate::predicate::CmpOp;
use crate::predicate::resolve::Resolved;

/// The selection of `leaf` on the integer `column` computed on its packed values, or `None` when
/// the kernel does not take the leaf or the column's encoding (see the module docs).
pub fn selection(column: &ArrayRef, leaf: &Resolved, ctx: &mut ExecutionCtx) -> VortexResult<Option<Vec<u64>>> {
    let DType::Primitive(ptype, _) = column.dtype() else {
        return Ok(None);
    };
    let Some(runs) = Runs::of(leaf, *ptype) else {
        return Ok(None);
    };
    let Some(source) = Source::peel(column, *ptype, ctx)? else {
        return Ok(None);
    };
    let len = column.len();
    let words = match ptype.byte_width() {
        1 => source.select::<u8>(&runs, len, ctx)?,
        2 => source.select::<u16>(&runs, len, ctx)?,
        4 => source.select::<u32>(&runs, len, ctx)?,
        _ => source.select::<u64>(&runs, len, ctx)?,
    };
    let Some(mut words) = words else {
        return Ok(None);
    };
    // A null row compares to null, which selects nothing (`<>` and `NOT IN` included).
    match column.validity()?.execute_mask(len, ctx)? {
        Mask::AllTrue(_) => {}
        Mask::AllFalse(_) => words.fill(0),
        Mask::Values(v) => words.iter_mut().zip(bit_words(v.bit_buffer(), len)).for_each(|(w, v)| *w &= v),
    }
    clear_tail(&mut words, len);
    Ok(Some(words))
}

/// A leaf as runs of values: a non-null row is selected when its value lies in one of `runs`
/// (with `inverted`, in none of them).
#[derive(Debug, Clone, PartialEq)]
struct Runs {
    /// `(lo, span)`: the values `lo ..= lo + span`, `lo` as the column type's bits (two's
    /// complement, `bits` wide); disjoint.
    runs: Vec<(u64, u64)>,
    inverted: bool,
    /// The column type's width.
    bits: usize,
}

impl Runs {
    /// The runs of a comparison, a range, `IN` (an OR of `=`) or `NOT IN` (an AND of `<>`) on an
    /// integer column of `ptype`; `None` for any other leaf or more than [`MAX_RUNS`] runs.
    fn of(leaf: &Resolved, ptype: PType) -> Option<Runs> {
        if !ptype.is_int() {
            return None;
        }
        let (min, max) = match_each_integer_ptype!(ptype, |T| { (T::MIN as i128, T::MAX as i128) });
        let value = |s: &Scalar| -> Option<i128> {
            let p = s.as_primitive_opt()?;
            if p.ptype() != ptype {
                return None;
            }
            match_each_integer_ptype!(ptype, |T| { p.typed_value::<T>().map(|v| v as i128) })
        };
        // Inclusive intervals of values, possibly empty (lo > hi).
        let interval = |op: CmpOp, v: i128| match op {
            CmpOp::Eq | CmpOp::Ne => (v, v),
            CmpOp::Lt => (min, v - 1),
            CmpOp::Le => (min, v),
            CmpOp::Gt => (v + 1, max),
            CmpOp::Ge => (v, max),
        };
        let (intervals, inverted) = match leaf {
            Resolved::Cmp(op, s) => (vec![interval(*op, value(s)?)], *op == CmpOp::Ne),
            Resolved::And(c) => match c.as_slice() {
                [Resolved::Cmp(lo_op @ (CmpOp::Ge | CmpOp::Gt), lo), Resolved::Cmp(hi_op @ (CmpOp::Le | CmpOp::Lt), hi)] => {
                    let (a, _) = interval(*lo_op, value(lo)?);
                    let (_, b) = interval(*hi_op, value(hi)?);
                    (vec![(a, b)], false)
                }
                points => (Self::points(points, CmpOp::Ne, &value)?, true),
            },
            Resolved::Or(c) => (Self::points(c, CmpOp::Eq, &value)?, false),
            _ => return None,
        };
        let mut intervals: Vec<(i128, i128)> = intervals.into_iter().filter(|(a, b)| a <= b).collect();
        intervals.sort_unstable();
        // Adjacent or overlapping intervals are one run.
        let mut merged: Vec<(i128, i128)> = Vec::with_capacity(intervals.len());
        for (a, b) in intervals {
            match merged.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        if merged.len() > MAX_RUNS {
            return None;
        }
        let bits = ptype.byte_width() * 8;
        let mask = mask(bits);
        let runs = merged.into_iter().map(|(a, b)| ((a as u64) & mask, (b - a) as u64)).collect();
        Some(Runs { runs, inverted, bits })
    }

    /// The values of `children`, each a comparison `op` (`=` of an `IN`, `<>` of a `NOT IN`).
    fn points(children: &[Resolved], op: CmpOp, value: &impl Fn(&Scalar) -> Option<i128>) -> Option<Vec<(i128, i128)>> {
        children
            .iter()
            .map(|c| match c {
                Resolved::Cmp(o, s) if *o == op => value(s).map(|v| (v, v)),
                _ => None,
            })
            .collect()
    }

    /// Whether the value whose bits are `u` is selected (not counting nulls).
    fn test(&self, u: u64) -> bool {
        let mask = mask(self.bits);
        self.runs.iter().any(|&(lo, span)| u.wrapping_sub(lo) & mask <= span) ^ self.inverted
    }

    /// What a block packed at `width` bits under `reference` needs: every packed value decides
    /// alike, or these runs (as `(lo, n)` in the packed domain) must be tested.
    fn block(&self, reference: u64, width: usize) -> Block {
        let mask = mask(self.bits);
        let packed_max = (1u128 << width) - 1;
        let mut test = [(0u64, 0u64); MAX_RUNS];
        let mut n = 0;
        for &(lo, span) in &self.runs {
            let lo = lo.wrapping_sub(reference) & mask;
            // The packed values 0..=packed_max sit at offsets d..=d + packed_max (mod 2^bits)
            // from `lo`; the run holds offsets 0..=span.
            let d = u128::from(lo.wrapping_neg() & mask);
            if span == mask || d + packed_max <= u128::from(span) {
                return Block::All(!self.inverted);
            }
            if d + packed_max <= u128::from(mask) && d > u128::from(span) {
                continue;
            }
            test[n] = (lo, span + 1);
            n += 1;
        }
        if n == 0 { Block::All(self.inverted) } else { Block::Test(test, n) }
    }
}

enum Block {
    All(bool),
    Test([(u64, u64); MAX_RUNS], usize),
}

fn mask(bits: usize) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// A column's packed values: the bit-packed array under its slices and frame of reference.
struct Source {
    packed: ArrayRef,
    /// The packed array's element holding row 0.
    start: usize,
    references: References,
}

/// The frame of reference: the bits added to each block's packed values.
enum References {
    None,
    Global(u64),
    /// Per packed block `b`, the reference `refs[b + shift]`.
    Blocked { refs: Vec<u64>, shift: isize },
}

impl Source {
    /// Slices, then possibly a frame of reference and more slices, then a bit-packed array of the
    /// same width as `ptype`; `None` for anything else.
    fn peel(column: &ArrayRef, ptype: PType, ctx: &mut ExecutionCtx) -> VortexResult<Option<Source>> {
        let mask = mask(ptype.byte_width() * 8);
        let mut array = column.clone();
        let mut start = 0usize;
        // The frame of reference and the start of row 0 in it.
        let mut frame: Option<(ArrayRef, usize)> = None;
        loop {
            let next = if let Some(s) = array.as_opt::<Slice>() {
                start += s.slice_range().start;
                s.child().clone()
            } else if let (Some(f), None) = (array.as_opt::<FoR>(), &frame) {
                let encoded = f.encoded().clone();
                frame = Some((array.clone(), start));
                encoded
            } else {
                break;
            };
            array = next;
        }
        let Some(bp) = array.as_opt::<BitPacked>() else {
            return Ok(None);
        };
        if !matches!(bp.dtype(), DType::Primitive(p, _) if p.byte_width() == ptype.byte_width()) {
            return Ok(None);
        }
        let references = match &frame {
            None => References::None,
            Some((f, for_start)) => {
                let f = f.as_::<FoR>();
                match f.references() {
                    FoRReferences::Global(r) => {
                        let Some(p) = r.as_primitive_opt() else { return Ok(None) };
                        let Some(r) = match_each_integer_ptype!(p.ptype(), |T| { p.typed_value::<T>().map(|v| v as u64) }) else {
                            return Ok(None);
                        };
                        References::Global(r & mask)
                    }
                    FoRReferences::Blocked(refs) => {
                        // Row r is FoR element `for_start + r`, whose reference is block
                        // `(offset + for_start + r) / 1024`, and packed position
                        // `bp offset + start + r`: one reference per packed block only when
                        // both count from the same place within a block.
                        let (a, b) = (f.offset() as usize + for_start, bp.offset() as usize + start);
                        if a % 1024 != b % 1024 {
                            return Ok(None);
                        }
                        let refs = refs.clone().execute::<PrimitiveArray>(ctx)?;
                        let refs: Vec<u64> = match_each_integer_ptype!(refs.ptype(), |T| {
                            refs.as_slice::<T>().iter().map(|&v| v as u64 & mask).collect()
                        });
                        References::Blocked { refs, shift: (a / 1024) as isize - (b / 1024) as isize }
                    }
                }
            }
        };
        Ok(Some(Source { packed: array, start, references }))
    }

    /// The reference of packed block `b`; `None` if there is none (corrupt data).
    fn reference(&self, b: usize) -> Option<u64> {
        match &self.references {
            References::None => Some(0),
            References::Global(r) => Some(*r),
            References::Blocked { refs, shift } => refs.get(usize::try_from(b as isize + shift).ok()?).copied(),
        }
    }

    /// The selection of `runs` on the `len` rows (nulls not yet cleared), unpacking lanes of `U`
    /// (the column type's width); `None` where the packed data is not as expected.
    fn select<U: Lane>(&self, runs: &Runs, len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Option<Vec<u64>>> {
        let bp = self.packed.as_::<BitPacked>();
        let BitWidthsView::Global(width) = bp.bit_widths() else {
            return Ok(None);
        };
        let width = width as usize;
        let per_block = 1024 * width / U::BITS;
        let packed = bp.packed_slice::<U>();
        let offset = bp.offset() as usize;
        if width > U::BITS || self.start + len > bp.len() || packed.len() != (offset + bp.len()).div_ceil(1024) * per_block {
            return Ok(None);
        }
        // Padded coordinates: bit `first + r` of block `b0`'s words is row `r`.
        let first = offset + self.start;
        let (b0, b1) = (first / 1024, (first + len).div_ceil(1024));
        let mut padded = vec![0u64; (b1 - b0) * 16];
        for (b, out) in (b0..b1).zip(padded.chunks_exact_mut(16)) {
            let Some(reference) = self.reference(b) else {
                return Ok(None);
            };
            match runs.block(reference, width) {
                Block::All(v) => out.fill(if v { u64::MAX } else { 0 }),
                Block::Test(test, n) => {
                    unpack_ranges(&packed[b * per_block..(b + 1) * per_block], per_block, width, out, &test[..n]);
                    if runs.inverted {
                        out.iter_mut().for_each(|w| *w = !*w);
                    }
                }
            }
        }
        let mut words = shift_down(padded, first % 1024, len);
        // Patched positions: their real values (under the block's reference).
        if let Some(patches) = bp.patches() {
            if let Some(patches) = patches.slice(self.start..self.start + len, ctx)? {
                let base = patches.offset();
                let indices = patches.indices().clone().execute::<PrimitiveArray>(ctx)?;
                let values = patches.values().clone().execute::<PrimitiveArray>(ctx)?;
                let rows: Vec<usize> = match_each_integer_ptype!(indices.ptype(), |I| {
                    indices.as_slice::<I>().iter().map(|&i| (i as usize).wrapping_sub(base)).collect()
                });
                let values: Vec<u64> = match_each_integer_ptype!(values.ptype(), |V| {
                    values.as_slice::<V>().iter().map(|&v| v as u64).collect()
                });
                for (r, v) in rows.into_iter().zip(values) {
                    if r >= len {
                        return Ok(None);
                    }
                    let Some(reference) = self.reference((first + r) / 1024) else {
                        return Ok(None);
                    };
                    let hit = runs.test(v.wrapping_add(reference));
                    let (w, bit) = (r / 64, r % 64);
                    words[w] = (words[w] & !(1u64 << bit)) | (u64::from(hit) << bit);
                }
            }
        }
        Ok(Some(words))
    }
}

#[cfg(test)]
mod tests {
    use vortex_array::IntoArray;
    use vortex_array::arrays::SliceArray;
    use vortex_array::dtype::NativePType;
    use vortex_array::dtype::Nullability::NonNullable;
    use vortex_array::scalar::PValue;
    use vortex_array::validity::Validity;
    use vortex_buffer::Buffer;

    use super::*;
    use crate::runtime::session::execution_ctx;

    /// A deterministic pseudo-random sequence.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The integer types, as the test builds and reads them.
    trait Int: NativePType + Into<PValue> {
        const LO: i128;
        const HI: i128;
        fn wrap(v: i128) -> Self;
        fn widen(self) -> i128;
    }

    macro_rules! int {
        ($($t:ty),*) => {$(
            impl Int for $t {
                const LO: i128 = <$t>::MIN as i128;
                const HI: i128 = <$t>::MAX as i128;
                fn wrap(v: i128) -> Self {
                    v as $t
                }
                fn widen(self) -> i128 {
                    self as i128
                }
            }
        )*};
    }
    int!(i8, u8, i16, u16, i32, u32, i64, u64);

    /// Whether `v` satisfies `leaf`, evaluated directly (the leaf shapes the kernel takes).
    fn holds(leaf: &Resolved, v: i128) -> bool {
        let value = |s: &Scalar| -> i128 {
            let p = s.as_primitive();
            match_each_integer_ptype!(p.ptype(), |T| { p.typed_value::<T>().unwrap() as i128 })
        };
        match leaf {
            Resolved::Cmp(op, s) => {
                let x = value(s);
                match op {
                    CmpOp::Eq => v == x,
                    CmpOp::Ne => v != x,
                    CmpOp::Lt => v < x,
                    CmpOp::Le => v <= x,
                    CmpOp::Gt => v > x,
                    CmpOp::Ge => v >= x,
                }
            }
            Resolved::And(c) => c.iter().all(|c| holds(c, v)),
            Resolved::Or(c) => c.iter().any(|c| holds(c, v)),
            other => panic!("not a leaf of the kernel: {other:?}"),
        }
    }

    /// Every leaf shape on `literals`: each comparison, ranges of every strictness, IN and NOT IN
    /// lists of one to four values.
    fn leaves<T: Int>(literals: &[i128]) -> Vec<Resolved> {
        let s = |v: i128| Resolved::Cmp(CmpOp::Eq, Scalar::primitive(T::wrap(v), NonNullable));
        let cmp = |op: CmpOp, v: i128| match s(v) {
            Resolved::Cmp(_, x) => Resolved::Cmp(op, x),
            _ => unreachable!(),
        };
        let mut out = Vec::new();
        for &v in literals {
            for op in [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
                out.push(cmp(op, v));
            }
        }
        for (k, pair) in literals.windows(2).enumerate() {
            let (lo, hi) = if k % 3 == 0 { (pair[1], pair[0]) } else { (pair[0], pair[1]) };
            let lo_op = if k % 2 == 0 { CmpOp::Ge } else { CmpOp::Gt };
            let hi_op = if k % 4 < 2 { CmpOp::Le } else { CmpOp::Lt };
            out.push(Resolved::And(vec![cmp(lo_op, lo), cmp(hi_op, hi)]));
        }
        for (k, list) in literals.chunks(4).enumerate() {
            let list = &list[..1 + k % list.len()];
            out.push(Resolved::Or(list.iter().map(|&v| cmp(CmpOp::Eq, v)).collect()));
            out.push(Resolved::And(list.iter().map(|&v| cmp(CmpOp::Ne, v)).collect()));
        }
        out
    }

    /// The frames of reference a case is built with.
    #[derive(Debug, Clone, Copy)]
    enum Frame {
        None,
        Global(i128),
        Blocked,
    }

    /// Bit-packed columns of `T` (widths from 0 to one below the type's, patched outliers, nulls,
    /// under a frame of reference: none, negative, one that wraps, one per block) sliced as the
    /// file reader hands them (a lazy slice, starting mid-block, ending mid-block) and as vortex
    /// reduces slices, against a row-by-row evaluation of vortex's own decoding.
    fn check<T: Int>(seed: u64) -> usize {
        let bits = T::PTYPE.byte_width() * 8;
        let signed = T::LO < 0;
        let mut next = xorshift(seed);
        let n = 2600usize;
        let mut checked = 0;
        // Vortex packs below the type's width only.
        let mut widths = vec![0usize, 1, 3, 7, bits - 1];
        widths.dedup();
        for width in widths {
            // The largest packed value bit-packing takes (non-negative in T).
            let top = if signed { T::HI } else { T::HI.min((1i128 << bits) - 1) };
            let packed_max = ((1i128 << width) - 1).min(top);
            let frames = [Frame::None, Frame::Global(if signed { T::LO / 3 - 7 } else { 5 }), Frame::Global(T::HI - 3), Frame::Blocked];
            for frame in frames {
                for nulls in [false, true] {
                    let encoded: Vec<i128> = (0..n)
                        .map(|_| {
                            if packed_max < top && next() % 31 == 0 {
                                packed_max + 1 + (next() as i128).rem_euclid(top - packed_max)
                            } else {
                                (next() as i128).rem_euclid(packed_max + 1)
                            }
                        })
                        .collect();
                    let valid: Vec<bool> = (0..n).map(|_| !nulls || next() % 7 != 0).collect();
                    let plain = PrimitiveArray::new(
                        encoded.iter().map(|&v| T::wrap(v)).collect::<Buffer<T>>(),
                        if nulls { Validity::from_iter(valid.iter().copied()) } else { Validity::NonNullable },
                    )
                    .into_array();
                    let bp = BitPacked::encode(&plain, width as u8, &mut execution_ctx()).unwrap().into_array();
                    let column = match frame {
                        Frame::None => bp,
                        Frame::Global(r) => FoR::try_new(bp, Scalar::primitive(T::wrap(r), NonNullable)).unwrap().into_array(),
                        Frame::Blocked => {
                            let refs: Buffer<T> = (0..n.div_ceil(1024)).map(|_| T::wrap(next() as i128)).collect();
                            FoR::try_new_chunked(bp, PrimitiveArray::new(refs, Validity::NonNullable).into_array(), 0).unwrap().into_array()
                        }
                    };
                    for (range, lazy) in [(0..n, false), (1..n - 1, true), (700..2049, true), (1023..1025, true), (1500..2600, false), (3..1021, false)] {
                        let sliced = if lazy {
                            SliceArray::new(column.clone(), range.clone()).into_array()
                        } else {
                            column.slice(range.clone()).unwrap()
                        };
                        let decoded = sliced.clone().execute::<PrimitiveArray>(&mut execution_ctx()).unwrap();
                        let values: Vec<i128> = decoded.as_slice::<T>().iter().map(|v| v.widen()).collect();
                        let ok = &valid[range.clone()];
                        // Literals below, at and above the packed range, the reference, the type's
                        // ends and values present in the column.
                        let reference = match frame {
                            Frame::Global(r) => r,
                            _ => 0,
                        };
                        let mut literals = vec![T::LO, T::LO + 1, -1, 0, 1, packed_max, packed_max + 1, reference - 1, reference, reference + packed_max, T::HI - 1, T::HI];
                        for _ in 0..4 {
                            let v = values[(next() % values.len() as u64) as usize];
                            literals.extend([v - 1, v, v + 1]);
                        }
                        literals.retain(|&v| (T::LO..=T::HI).contains(&v));
                        for leaf in leaves::<T>(&literals) {
                            let what = format!("{:?} width {width} {frame:?} nulls {nulls} rows {range:?} lazy {lazy}: {leaf:?}", T::PTYPE);
                            let got = selection(&sliced, &leaf, &mut execution_ctx()).unwrap().unwrap_or_else(|| panic!("declined {what}"));
                            assert_eq!(got.len(), range.len().div_ceil(64), "{what}");
                            for (r, &v) in values.iter().enumerate() {
                                let want = ok[r] && holds(&leaf, v);
                                assert_eq!(got[r / 64] >> (r % 64) & 1 == 1, want, "{what}: row {r} value {v}");
                            }
                            let tail = range.len() % 64;
                            assert!(tail == 0 || got.last().unwrap() >> tail == 0, "{what}: bits past the end");
                            checked += 1;
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn packed_selections_match_a_row_by_row_answer() {
        let checked = check::<i8>(1) + check::<u8>(2) + check::<i16>(3) + check::<u16>(4) + check::<i32>(5) + check::<u32>(6) + check::<i64>(7) + check::<u64>(8);
        assert!(checked > 10_000, "{checked} cases");
    }

    /// What the kernel does not take: more than four runs, other leaves, plain and float columns.
    #[test]
    fn declines_what_it_does_not_take() {
        let v: Buffer<i32> = (0..3000).map(|i| i % 100).collect();
        let plain = PrimitiveArray::new(v, Validity::NonNullable).into_array();
        let bp = BitPacked::encode(&plain, 7, &mut execution_ctx()).unwrap().into_array();
        let eq = |v: i32| Resolved::Cmp(CmpOp::Eq, Scalar::primitive(v, NonNullable));
        let ctx = &mut execution_ctx();
        assert!(selection(&bp, &Resolved::Or((0..5).map(|v| eq(v * 2)).collect()), ctx).unwrap().is_none());
        // Five adjacent values are one run.
        assert!(selection(&bp, &Resolved::Or((0..5).map(eq).collect()), ctx).unwrap().is_some());
        assert!(selection(&bp, &Resolved::IsNull, ctx).unwrap().is_none());
        assert!(selection(&plain, &eq(3), ctx).unwrap().is_none());
        let floats = PrimitiveArray::new((0..10).map(|i| i as f64).collect::<Buffer<f64>>(), Validity::NonNullable).into_array();
        assert!(selection(&floats, &Resolved::Cmp(CmpOp::Eq, Scalar::primitive(3.0f64, NonNullable)), ctx).unwrap().is_none());
    }
}
