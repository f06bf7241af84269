//! The per-code kernel: rows selected by looking their dictionary code up in a [`CodeTable`],
//! bit-packed codes unpacked and looked up in one fused FastLanes pass.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::Dict;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::dict::DictArraySlotsExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_error::VortexResult;
use vortex_fastlanes::BitPacked;
use vortex_fastlanes::BitPackedArrayExt;
use vortex_fastlanes::BitWidthsView;
use vortex_mask::Mask;

use crate::filter::bits::bit_words;
use crate::filter::bits::clear_tail;
use crate::filter::bits::ones;
use super::table::CodeTable;
use crate::filter::unpack::Lane;
use crate::filter::unpack::MAX_RUNS;
use crate::filter::unpack::shift_down;
use crate::filter::unpack::unpack_lookup;
use crate::filter::unpack::unpack_runs;

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

/// The runs `[lo, lo + n)` of codes equal to `want`, if there are at most [`MAX_RUNS`].
fn runs(matches: &[bool], want: bool) -> Option<Vec<(u64, u64)>> {
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
        out.push((start as u64, (i - start) as u64));
    }
    Some(out)
}

/// Unpacks and looks up one 1024-row FastLanes block at a time, writing bitmap words in row
/// order. `None` if the packed buffer does not have the expected shape (caller decodes instead).
fn fused<T: Lane>(packed: &[T], width: u8, offset: usize, len: usize, table: &CodeTable) -> Option<Vec<u64>> {
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
    let fits = |r: &Vec<(u64, u64)>| r.iter().all(|&(lo, n)| u128::from(lo + n) < 1u128 << T::BITS);
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
            *t.get_unchecked(c.to_usize())
        });
    } else {
        let t = table.matches.as_slice();
        unpack_lookup(packed, per_block, width, &mut padded, |c: T, _| {
            t.get(c.to_usize()).copied().unwrap_or(false)
        });
    }
    Some(shift_down(padded, offset, len))
}
