//! The safe Rust layer end to end: write with [`FileWriter`], open, scan, export, and the
//! errors bad files give (each names the file).

use std::path::PathBuf;

use vortex4j::scan::chunk::Chunk;
use vortex4j::io::file::open;
use vortex4j::scan::Scan;
use vortex4j::types::ColumnType;
use vortex4j::write::ColumnData;
use vortex4j::write::ColumnSpec;
use vortex4j::write::FileWriter;
use vortex_array::dtype::PType;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("vortex4j-rw-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spec(name: &str, ty: ColumnType, nullable: bool) -> ColumnSpec {
    ColumnSpec { name: name.into(), ty, nullable }
}

/// Writes `batches` batches of `rows` rows: id i64, s utf8 (low cardinality, nulls), f f64.
fn write_sample(path: &str, batches: usize, rows: usize) -> (Vec<i64>, Vec<Option<String>>, Vec<f64>) {
    let mut w = FileWriter::create(
        path,
        vec![
            spec("id", ColumnType::Int(PType::I64), false),
            spec("s", ColumnType::Utf8, true),
            spec("f", ColumnType::Int(PType::F64), false),
        ],
    )
    .unwrap();
    let (mut ids, mut ss, mut fs) = (vec![], vec![], vec![]);
    for b in 0..batches {
        let id: Vec<i64> = (0..rows as i64).map(|i| (b * rows) as i64 + i).collect();
        let s: Vec<Option<String>> =
            id.iter().map(|i| (i % 9 != 0).then(|| ["x", "yy", "Zürich", ""][(*i % 4) as usize].to_string())).collect();
        let f: Vec<f64> = id.iter().map(|i| *i as f64 / 4.0).collect();
        let mut data = Vec::new();
        let mut offsets = vec![0i32];
        for v in &s {
            data.extend_from_slice(v.as_deref().unwrap_or("").as_bytes());
            offsets.push(data.len() as i32);
        }
        let valid: Vec<bool> = s.iter().map(Option::is_some).collect();
        w.push(
            rows,
            vec![ColumnData::I64(id.clone()), ColumnData::Bytes { data, offsets }, ColumnData::F64(f.clone())],
            vec![None, Some(valid), None],
        )
        .unwrap();
        ids.extend(id);
        ss.extend(s);
        fs.extend(f);
    }
    w.finish().unwrap();
    (ids, ss, fs)
}

#[test]
fn written_values_come_back_through_scan_and_export() {
    let path = dir().join("sample.vortex");
    let path = path.to_str().unwrap();
    let (ids, ss, fs) = write_sample(path, 3, 40_000);
    let file = open(path).unwrap();
    assert_eq!(file.row_count(), 120_000);
    let names: Vec<String> = file.columns().unwrap().iter().map(|c| c.name.clone()).collect();
    assert_eq!(names, ["id", "s", "f"]);
    let mut scan = Scan::open(&file, &["s".into(), "id".into(), "f".into()], None).unwrap();
    let mut row = 0usize;
    let mut dictionary_chunks = 0;
    while let Some(c) = scan.next_chunk().unwrap() {
        assert_eq!(c.first_row as usize, row);
        let chunk = Chunk::new(c);
        let s = chunk.export(0).unwrap();
        let id = chunk.export(1).unwrap();
        let f = chunk.export(2).unwrap();
        let ids_here = id.values.as_ref().unwrap().typed_data::<i64>();
        let fs_here = f.values.as_ref().unwrap().typed_data::<f64>();
        assert_eq!(ids_here, &ids[row..row + chunk.len()]);
        assert_eq!(fs_here, &fs[row..row + chunk.len()]);
        // Low-cardinality strings stay dictionary-encoded: check every row through the codes.
        assert!(s.is_dictionary, "the default writer dictionary-encodes 4 distinct strings");
        dictionary_chunks += 1;
        let dict = s.dictionary.as_ref().unwrap();
        let offsets = dict.offsets.as_ref().unwrap().typed_data::<i32>();
        let data = dict.data.as_ref().map(|d| d.as_slice()).unwrap_or(&[]);
        let code_valid = |i: usize| s.validity.as_ref().is_none_or(|v| v[i / 8] >> (i % 8) & 1 == 1);
        let entry_valid = |c: usize| dict.validity.as_ref().is_none_or(|v| v[c / 8] >> (c % 8) & 1 == 1);
        let codes = s.values.as_ref().unwrap();
        for i in 0..chunk.len() {
            let code = match s.code_width {
                1 => codes[i] as usize,
                2 => codes.typed_data::<u16>()[i] as usize,
                _ => codes.typed_data::<u32>()[i] as usize,
            };
            let got = (code_valid(i) && entry_valid(code)).then(|| {
                std::str::from_utf8(&data[offsets[code] as usize..offsets[code + 1] as usize]).unwrap()
            });
            assert_eq!(got, ss[row + i].as_deref(), "row {}", row + i);
        }
        // The same export comes back on a second call (its buffers are what Java wraps).
        assert!(std::sync::Arc::ptr_eq(&s, &chunk.export(0).unwrap()));
        row += chunk.len();
    }
    assert_eq!(row, 120_000);
    assert!(dictionary_chunks > 1, "several chunks");
}

#[test]
fn bad_files_are_errors_that_name_the_file() {
    let d = dir();
    let check = |path: &std::path::Path, want: &str| {
        let p = path.to_str().unwrap();
        let err = match open(p) {
            Err(e) => e.to_string(),
            Ok(f) => {
                // Some damage only shows when reading: the scan must fail, not panic.
                let columns: Vec<String> = f.columns().unwrap().iter().map(|c| c.name.clone()).collect();
                let mut scan = match Scan::open(&f, &columns, None) {
                    Ok(s) => s,
                    Err(e) => return assert!(e.to_string().contains(p), "{e}"),
                };
                loop {
                    match scan.next_chunk() {
                        Ok(Some(c)) => {
                            let chunk = Chunk::new(c);
                            for i in 0..columns.len() {
                                if let Err(e) = chunk.export(i) {
                                    return assert!(!e.to_string().is_empty());
                                }
                            }
                        }
                        Ok(None) => panic!("{p}: damaged file read without error"),
                        Err(e) => return assert!(e.to_string().contains(p), "{e}"),
                    }
                }
            }
        };
        assert!(err.contains(p), "{err} should name {p}");
        assert!(err.contains(want), "{err} should say {want}");
    };
    check(&d.join("missing.vortex"), "no such file");
    check(&d, "directory");
    let empty = d.join("empty.vortex");
    std::fs::write(&empty, b"").unwrap();
    check(&empty, "empty");
    let text = d.join("text.vortex");
    std::fs::write(&text, "id,sym\n1,AAPL\n2,MSFT\n".repeat(10)).unwrap();
    check(&text, "not a Vortex file");

    let good = d.join("good.vortex");
    write_sample(good.to_str().unwrap(), 1, 1000);
    let bytes = std::fs::read(&good).unwrap();
    for cut in [4, 8, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
        let t = d.join(format!("cut{cut}.vortex"));
        std::fs::write(&t, &bytes[..cut]).unwrap();
        check(&t, "");
    }
}
