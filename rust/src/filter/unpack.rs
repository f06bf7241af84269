//! The fused FastLanes loop shared by the native filter kernels: each 1024-value block is unpacked
//! lane by lane and every value tested as it is unpacked (`BitPackingCompare::unpack_cmp`),
//! straight into selection bits; nothing is materialized. The dictionary kernel tests codes, the
//! integer kernel ([`crate::filter::int`]) values in the packed domain.

use fastlanes::BitPackingCompare;
use fastlanes::transpose_bits;

/// The unsigned lane types FastLanes packs into.
pub(crate) trait Lane:
    BitPackingCompare + fastlanes::BitPacking + fastlanes::FastLanesComparable<Bitpacked = Self> + vortex_array::dtype::NativePType + Copy + PartialEq
{
    const BITS: usize;
    /// The low `BITS` bits of `v`.
    fn truncate(v: u64) -> Self;
    fn to_usize(self) -> usize;
    /// `lo <= self < lo + n` modulo 2^BITS, as one wrapping compare (vectorizes, unlike a table
    /// load or a branch).
    fn in_range(self, lo: Self, n: Self) -> bool;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const BITS: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn truncate(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_usize(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn in_range(self, lo: Self, n: Self) -> bool {
                self.wrapping_sub(lo) < n
            }
        }
    };
}

lane!(u8);
lane!(u16);
lane!(u32);
lane!(u64);

/// Most runs tested by compares in one pass.
pub(crate) const MAX_RUNS: usize = 4;

/// Unpacks `packed` (whole blocks of `per_block` lanes at `width` bits) into `padded` (16 words a
/// block), a value's bit set when it lies in one of the `runs` `(lo, n)` (`lo <= v < lo + n`
/// modulo 2^BITS, `n >= 1`; at most [`MAX_RUNS`]), or with `inverted` in none of them.
pub(crate) fn unpack_runs<T: Lane>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u64, u64)], inverted: bool) {
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
    debug_assert!((1..=MAX_RUNS).contains(&runs.len()));
    if runs.iter().all(|&(_, n)| n == 1) {
        dispatch!(points)
    } else {
        dispatch!(ranges)
    }
}

/// [`unpack_runs`] by ranges only and never inverted: one run tested as one, up to
/// [`MAX_RUNS`] as four (the last repeated). Two compiled loops per lane type, shared with the
/// dictionary kernel's, where every arm of [`unpack_runs`] adds sixteen (FastLanes unrolls each
/// for every width: megabytes of library for a new lane type).
pub(crate) fn unpack_ranges<T: Lane>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u64, u64)]) {
    debug_assert!((1..=MAX_RUNS).contains(&runs.len()));
    if runs.len() == 1 {
        ranges::<T, 1, false>(packed, per_block, width, padded, runs)
    } else {
        let four: [(u64, u64); MAX_RUNS] = std::array::from_fn(|k| runs[k.min(runs.len() - 1)]);
        ranges::<T, MAX_RUNS, false>(packed, per_block, width, padded, &four)
    }
}

// Everything the closures test is fixed at compile time (count, inversion) and combined with
// bitwise `|`: no branches, so the lanes vectorize.
fn points<T: Lane, const K: usize, const INV: bool>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u64, u64)]) {
    let p: [T; K] = std::array::from_fn(|k| T::truncate(runs[k].0));
    unpack_lookup(packed, per_block, width, padded, move |c: T, _| {
        let mut hit = false;
        for x in p {
            hit |= c == x;
        }
        hit ^ INV
    });
}

fn ranges<T: Lane, const K: usize, const INV: bool>(packed: &[T], per_block: usize, width: usize, padded: &mut [u64], runs: &[(u64, u64)]) {
    let r: [(T, T); K] = std::array::from_fn(|k| (T::truncate(runs[k].0), T::truncate(runs[k].1)));
    unpack_lookup(packed, per_block, width, padded, move |c: T, _| {
        let mut hit = false;
        for (lo, n) in r {
            hit |= c.in_range(lo, n);
        }
        hit ^ INV
    });
}

/// The fused loop: FastLanes unpacks each block lane by lane and calls `hit` on every value as
/// it is unpacked, accumulating lane-major bits; one bit transpose puts them in row order.
#[inline(always)]
pub(crate) fn unpack_lookup<T: Lane, F: Fn(T, T) -> bool + Copy>(
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
        unsafe { T::unchecked_unpack_cmp(width, block, &mut lane_major, hit, T::truncate(0)) };
        let out: &mut [u64; 16] = out.try_into().expect("16 words");
        transpose_bits::<T>(&lane_major, out);
    }
}

/// Drops the first `offset` bits (a sliced first block) so bit 0 is row 0.
pub(crate) fn shift_down(padded: Vec<u64>, offset: usize, len: usize) -> Vec<u64> {
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
