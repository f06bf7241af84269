//! The dictionary fixture (rust/fixtures) reads back through vortex alone as it was generated.

#[allow(dead_code)]
#[path = "../rust/fixtures/dict_fixture.rs"]
mod fixture;

use fixture::write_dict_fixture;
use vortex_array::arrays::VarBinViewArray;

/// Reads `column` of the file at `path` back through vortex alone, as strings.
fn read_strings(path: &str) -> Vec<Option<String>> {
    let file = vortex4j::io::file::open(path).unwrap();
    let mut scan = vortex4j::scan::Scan::open(&file, &["s".to_string()], None).unwrap();
    let mut ctx = vortex4j::runtime::session::execution_ctx();
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
