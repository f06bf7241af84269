//! A chunk's columns read for its selected rows: the rows a selection keeps, validity as words,
//! and each column decoded once (whole, or only the selected rows of a sparse selection).

use std::rc::Rc;

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::IntoArray;
use vortex_array::arrays::Primitive;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;
use vortex_error::VortexResult;
use vortex_mask::Mask;

use crate::filter::bits::bit;
use crate::filter::bits::bit_words;

/// A selection of at most one row in this many is sparse: its columns are taken at the selected
/// rows (vortex's bit-packed `take` unpacks just those values) rather than decoded whole. The
/// ratio above which vortex's own `take` decodes the whole array instead.
const SPARSE: usize = 8;

pub(super) fn selected_rows(len: usize, selection: Option<&[u64]>) -> Vec<u32> {
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
pub(super) fn valid_bits(array: &ArrayRef, ctx: &mut ExecutionCtx) -> VortexResult<Option<Vec<u64>>> {
    let len = array.len();
    Ok(match array.validity()?.execute_mask(len, ctx)? {
        Mask::AllTrue(_) => None,
        Mask::AllFalse(_) => Some(vec![0; len.div_ceil(64)]),
        Mask::Values(v) => Some(bit_words(v.bit_buffer(), len)),
    })
}

/// A primitive column's values for the selected rows of a chunk: either the whole chunk decoded
/// (read at each selected row) or, for a sparse selection of an encoded column, only the selected
/// rows in order; with their validity.
pub(super) struct Decoded {
    pub(super) values: PrimitiveArray,
    valid: Option<Vec<u64>>,
    /// `values` holds the selected rows only.
    taken: bool,
}

impl Decoded {
    /// `column` for the selected `rows` of a chunk of `len` rows. A column already decoded (the
    /// chunk's shared decoding, see `Chunk::decoded`) is read as it is.
    pub(super) fn new(column: &ArrayRef, rows: &[u32], len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Self> {
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
    pub(super) fn at(&self, i: usize, row: u32) -> usize {
        if self.taken { i } else { row as usize }
    }

    #[inline(always)]
    pub(super) fn is_valid(&self, at: usize) -> bool {
        self.valid.as_ref().is_none_or(|w| bit(w, at))
    }
}

/// The decodings of one chunk's columns for its selected rows, each made once however many keys
/// and aggregates read the column (`GROUP BY volume` with `SUM(volume)`).
pub(super) struct Decodings<'r> {
    rows: &'r [u32],
    len: usize,
    done: Vec<(ArrayRef, Rc<Decoded>)>,
}

impl<'r> Decodings<'r> {
    pub(super) fn new(rows: &'r [u32], len: usize) -> Self {
        Decodings { rows, len, done: Vec::new() }
    }

    pub(super) fn get(&mut self, column: &ArrayRef, ctx: &mut ExecutionCtx) -> VortexResult<Rc<Decoded>> {
        if let Some((_, d)) = self.done.iter().find(|(c, _)| ArrayRef::ptr_eq(c, column)) {
            return Ok(Rc::clone(d));
        }
        let d = Rc::new(Decoded::new(column, self.rows, self.len, ctx)?);
        self.done.push((column.clone(), Rc::clone(&d)));
        Ok(d)
    }
}
