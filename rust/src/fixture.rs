//! Files written by Rust alone (vortex's arrays and writer, no Java involved), for the tests that
//! cross-check Java against the reference and for the benches.
//!
//! The dictionary fixture has columns `id` (i64, the row number), `s` (utf8, dictionary-encoded,
//! with nulls) and `v` (i64 with nulls). Its chunks cycle through four shapes, so one file
//! covers every case the dictionary kernel distinguishes:
//!
//! | chunk % 4 | codes                       | dictionary                       |
//! |-----------|-----------------------------|----------------------------------|
//! | 0         | u8, nullable, some null     | all entries valid                |
//! | 1         | u16, non-nullable           | one null entry (invalid slot)    |
//! | 2         | u32, nullable, some null    | one null entry                   |
//! | 3         | u8/u16/u32 (as entries need) | more entries than rows (declines)|
//!
//! Written with a flat layout so these arrays reach the file exactly as built. With
//! `reference_strategy` the same rows are written as plain strings through vortex's default
//! strategy instead, which dictionary-encodes them its own way (shared dictionary, bit-packed
//! codes).

use std::fs::File;
use std::sync::Arc;

use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::StructArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::dtype::FieldNames;
use vortex_array::validity::Validity;
use vortex_file::WriteOptionsSessionExt;
use vortex_layout::LayoutStrategy;
use vortex_layout::layouts::chunked::writer::ChunkedLayoutStrategy;
use vortex_layout::layouts::flat::writer::FlatLayoutStrategy;
use vortex_layout::layouts::struct_::StructStrategy;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::session::RUNTIME;
use crate::session::session;

/// Entries the fixture dictionaries draw from: ASCII, shared prefixes, the empty string,
/// non-ASCII and 4-byte UTF-8, so byte order and code point order both get exercised; then
/// values full of LIKE wildcards, escape characters and regex metacharacters.
pub const WORDS: &[&str] = &[
    "AAPL", "AMZN", "GOOG", "MSFT", "NVDA", "TSLA", "META", "IBM", "", "A", "AA", "AAP", "Zürich",
    "zurich", "東京", "🎉party", "\u{e000}private", "éclair", "Ω", "z", "a.b", "a*b", "a+b?", "[x]",
    "(y)", "{z}", "p|q", "^s$", "100%", "snake_case", "back\\slash", "%", "_",
];

/// A small deterministic generator (the fixture must be the same on every machine).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 33)).wrapping_mul(0xff51afd7ed558ccd) ^ (x >> 29)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One chunk's `s` column as a dictionary array of the given shape, and the value of each row.
fn dict_chunk(kind: usize, rows: usize, rng: &mut Rng) -> Result<(ArrayRef, Vec<Option<String>>)> {
    let (entries, null_entry, code_nulls) = match kind {
        0 => (WORDS.len(), None, true),
        1 => (WORDS.len(), Some(3), false),
        2 => (WORDS.len(), Some(0), true),
        _ => (rows * 2 + 1, None, false),
    };
    let values: Vec<Option<String>> = (0..entries)
        .map(|i| {
            (Some(i) != null_entry).then(|| {
                if i < WORDS.len() { WORDS[i].to_string() } else { format!("w{i:05}") }
            })
        })
        .collect();
    let codes: Vec<usize> = (0..rows).map(|_| rng.below(entries)).collect();
    let valid: Vec<bool> = (0..rows).map(|_| !code_nulls || rng.below(10) != 0).collect();
    let expected = codes
        .iter()
        .zip(&valid)
        .map(|(&c, &ok)| if ok { values[c].clone() } else { None })
        .collect();
    let values = VarBinViewArray::from_iter_nullable_str(values).into_array();
    let validity = if code_nulls { Validity::from_iter(valid) } else { Validity::NonNullable };
    // u16 codes only while every code fits: a larger dictionary (shape 3 with more than 32767
    // rows) takes u32 codes rather than truncated ones.
    let codes = match kind {
        0 | 3 if entries <= 256 => {
            PrimitiveArray::new(codes.iter().map(|&c| c as u8).collect::<vortex_buffer::Buffer<u8>>(), validity)
        }
        1 | 3 if entries <= 1 << 16 => {
            PrimitiveArray::new(codes.iter().map(|&c| c as u16).collect::<vortex_buffer::Buffer<u16>>(), validity)
        }
        _ => PrimitiveArray::new(codes.iter().map(|&c| c as u32).collect::<vortex_buffer::Buffer<u32>>(), validity),
    };
    let dict = DictArray::try_new(codes.into_array(), values)
        .context(|| "fixture: cannot build a dictionary chunk".to_string())?;
    Ok((dict.into_array(), expected))
}

/// Writes the dictionary fixture to `path` (see the module docs). Returns the value of column
/// `s` in every row, as generated, for tests to compare with what they read back.
pub fn write_dict_fixture(
    path: &str,
    chunks: usize,
    rows_per_chunk: usize,
    seed: u64,
    reference_strategy: bool,
) -> Result<Vec<Option<String>>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(chunks);
    let mut first = 0i64;
    let mut ctx = crate::session::execution_ctx();
    let mut all_expected = Vec::new();
    for c in 0..chunks {
        let rows = rows_per_chunk.max(1);
        let (mut s, expected) = dict_chunk(c % 4, rows, &mut rng)?;
        all_expected.extend(expected);
        if reference_strategy {
            // Plain strings: let the default strategy choose the encoding.
            s = s
                .execute::<VarBinViewArray>(&mut ctx)
                .context(|| "fixture: cannot decode strings".to_string())?
                .into_array();
        }
        let id = PrimitiveArray::from_iter(first..first + rows as i64).into_array();
        let v = PrimitiveArray::from_option_iter(
            (0..rows).map(|_| (rng.below(7) != 0).then(|| rng.below(1000) as i64 - 500)),
        )
        .into_array();
        let names: FieldNames = ["id", "s", "v"].into_iter().collect();
        out.push(
            StructArray::try_new(names, [id, s, v], rows, Validity::NonNullable)
                .context(|| "fixture: cannot build a chunk".to_string())?
                .into_array(),
        );
        first += rows as i64;
    }
    let dtype = out[0].dtype().clone();
    let file = File::create(path).map_err(|e| Error::file(path, format!("cannot create: {e}")))?;
    let mut options = session().write_options();
    if !reference_strategy {
        let leaf: Arc<dyn LayoutStrategy> = Arc::new(ChunkedLayoutStrategy::new(FlatLayoutStrategy::default()));
        options = options.with_strategy(Arc::new(StructStrategy::new(Arc::new(FlatLayoutStrategy::default()), leaf)));
    }
    let mut writer = options.blocking(&*RUNTIME).writer(file, dtype);
    for chunk in out {
        writer.push(chunk).context(|| format!("{path}: fixture write failed"))?;
    }
    writer.finish().context(|| format!("{path}: cannot finish the fixture"))?;
    Ok(all_expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vortex_array::arrays::VarBinViewArray;

    /// Reads `column` of the file at `path` back through vortex alone, as strings.
    fn read_strings(path: &str) -> Vec<Option<String>> {
        let file = crate::file::open(path).unwrap();
        let mut scan = crate::scan::Scan::open(&file, &["s".to_string()], None).unwrap();
        let mut ctx = crate::session::execution_ctx();
        let mut out = Vec::new();
        while let Some(chunk) = scan.next_chunk().unwrap() {
            let strings = chunk.columns[0].clone().execute::<VarBinViewArray>(&mut ctx).unwrap();
            let valid = strings.validity().unwrap().execute_mask(chunk.len, &mut ctx).unwrap();
            for i in 0..chunk.len {
                out.push(valid.value(i).then(|| String::from_utf8(strings.bytes_at(i).to_vec()).unwrap()));
            }
        }
        out
    }

    /// Shape 3 draws codes from 2 * rows + 1 entries: with 40000 rows a chunk, codes reach
    /// 80000, which u16 codes cannot hold (they used to be truncated, so the file did not hold
    /// the values the fixture reported).
    #[test]
    fn fixtures_read_back_as_generated_even_with_large_dictionaries() {
        for reference in [false, true] {
            let path = std::env::temp_dir().join(format!(
                "vortex4j-fixture-{}-{reference}.vortex",
                std::process::id()
            ));
            let path = path.to_str().unwrap();
            let expected = write_dict_fixture(path, 4, 40_000, 3, reference).unwrap();
            let got = read_strings(path);
            let _ = std::fs::remove_file(path);
            assert_eq!(got.len(), expected.len());
            let bad = got.iter().zip(&expected).filter(|(g, e)| g != e).count();
            assert_eq!(bad, 0, "reference strategy {reference}: {bad} rows differ");
        }
    }
}
