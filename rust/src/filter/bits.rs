//! Selections as LSB-first `u64` words (bit `i % 64` of word `i / 64` is row `i`), the layout
//! Java's `Bitmap` reads: constructors, conversions from vortex's masks and bit buffers, and the
//! tail rule (bits past the length are zero).

use vortex_mask::Mask;

pub fn mask_words(mask: Mask, len: usize) -> Vec<u64> {
    match mask {
        Mask::AllTrue(_) => ones(len),
        Mask::AllFalse(_) => vec![0; len.div_ceil(64)],
        Mask::Values(v) => bit_words(v.bit_buffer(), len),
    }
}

pub(crate) fn ones(len: usize) -> Vec<u64> {
    let mut w = vec![u64::MAX; len.div_ceil(64)];
    clear_tail(&mut w, len);
    w
}

pub(crate) fn clear_tail(words: &mut [u64], len: usize) {
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

/// Bit `i` of LSB-first `words`.
#[inline(always)]
pub(crate) fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

pub(crate) fn bools_to_words(bools: &[bool]) -> Vec<u64> {
    let mut out = vec![0u64; bools.len().div_ceil(64)];
    for (w, chunk) in out.iter_mut().zip(bools.chunks(64)) {
        *w = chunk.iter().enumerate().fold(0u64, |acc, (j, &b)| acc | (b as u64) << j);
    }
    out
}
