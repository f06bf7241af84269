//! Opening files: validation with clear messages, the footer, schema and row count.

use std::path::Path;
use std::sync::Arc;

use vortex_array::dtype::DType;
use vortex_array::expr::Expression;
use vortex_array::expr::col;
use vortex_array::expr::get_item;
use vortex_array::memory::MemorySessionExt;
use vortex_arrow::ArrowSessionExt;
use vortex_file::OpenOptionsSessionExt;
use vortex_file::VortexFile;

use super::Identity;
use crate::cache::memo::Memo;
use crate::cache::open_files;
use crate::error::Error;
use crate::error::Result;
use crate::io::local_file;
use crate::io::local_file::Descriptor;
use crate::io::remote_file;
use crate::io::remote_file::RemoteFile;
use crate::io::store;
use crate::runtime::session::block_on;
use crate::runtime::session::session;

/// An open Vortex file and the path it came from (for messages). Clones, and every open of the
/// same file while one is open ([`open`]), share its state, and the descriptor closes when the
/// last of them is dropped.
#[derive(Clone)]
pub struct OpenFile {
    pub path: String,
    pub file: VortexFile,
    shared: Arc<Shared>,
}

/// Where an open file's bytes come from.
enum Backing {
    Local(Descriptor),
    Remote(RemoteFile),
}

impl Backing {
    fn identity(&self) -> Identity {
        match self {
            Backing::Local(d) => d.identity(),
            Backing::Remote(r) => r.identity(),
        }
    }
}

/// What the opens of one file share.
pub(crate) struct Shared {
    file: VortexFile,
    descriptor: Backing,
    /// Zone-map pruning results (see [`crate::scan::PruneCache`]).
    pruned: crate::scan::PruneCache,
    /// What scans of the same columns share (types, bound projection, split boundaries).
    projections: crate::scan::Projections,
    /// The file's key in the layout-reader cache ([`crate::cache::readers`]).
    reader_key: crate::cache::readers::CacheKey,
}

/// One top-level column: its name, Java-facing type, nullability and vortex dtype as text.
pub type Column = crate::types::ChildType;

/// Opens `path` (a local path, `file://` or an object store location, see [`store`]), rejecting
/// what is not a Vortex file with a message that names it. While the same file (same contents:
/// device, inode, size, modification time; for an object its ETag) is open at that path, the
/// open shares its state ([`open_files`]).
pub fn open(path: &str) -> Result<OpenFile> {
    if store::is_remote(path) {
        return open_remote(path, remote_file::open(path, session().allocator())?);
    }
    let path = path.strip_prefix("file://").unwrap_or(path);
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::file(path, "no such file"),
        _ => Error::file(path, format!("cannot read: {e}")),
    })?;
    if meta.is_dir() {
        return Err(Error::file(path, "is a directory, not a Vortex file"));
    }
    if let Some(shared) = open_files::shared(path, Identity::of(&meta)) {
        return Ok(OpenFile { path: path.to_string(), file: shared.file.clone(), shared });
    }
    if meta.len() == 0 {
        return Err(Error::file(path, "is empty, not a Vortex file"));
    }
    check_magic(path, meta.len())?;
    let not_readable = |e: vortex_error::VortexError| {
        Error::file(path, format!("not a readable Vortex file: {}", crate::error::concise(&e)))
    };
    let (source, descriptor) = local_file::open(p, session().allocator())
        .map_err(|e| Error::file(path, format!("cannot open: {e}")))?;
    // Not vortex's layout-reader cache, which would keep every open file's reader tree and
    // decoded dictionaries for the file's life (a SQL dataset keeps all its files open: 1,000
    // files held 33 MB after their scans ended): `crate::cache::readers` keeps a bounded number.
    let options = session().open_options().with_file_size(meta.len());
    let file = block_on(options.open(Arc::new(source.clone()))).map_err(not_readable)?;
    // Segments are read on the scanning threads, not through vortex's read driver (see
    // `local_file`).
    let segments = source.segments(Arc::clone(file.footer().segment_map()));
    let file = file.with_segment_source(Arc::new(segments));
    if !matches!(file.dtype(), DType::Struct(..)) {
        return Err(Error::file(
            path,
            format!("holds a single {} array, not a table of columns", file.dtype()),
        ));
    }
    Ok(opened(path, file, Backing::Local(descriptor)))
}

/// A table of columns read from `backing`, remembered for later opens of the same contents.
fn opened(path: &str, file: VortexFile, backing: Backing) -> OpenFile {
    let opened = OpenFile {
        path: path.to_string(),
        file: file.clone(),
        shared: Arc::new(Shared {
            file,
            descriptor: backing,
            pruned: Memo::new(crate::scan::FILE_MEMO_KEYS),
            projections: Memo::new(crate::scan::FILE_MEMO_KEYS),
            reader_key: crate::cache::readers::CacheKey::new(),
        }),
    };
    open_files::remember(path, opened.shared.descriptor.identity(), &opened.shared);
    opened
}

/// Opens the file at `path` that a listing found with `size` bytes and modification time
/// `modified_millis`, as [`open`] does; an object the listing gave an ETag needs no HEAD. Whether
/// the file is still the one listed is the caller's check ([`OpenFile::check_unchanged`]).
pub fn open_listed(path: &str, size: u64, modified_millis: i64) -> Result<OpenFile> {
    if !store::is_remote(path) {
        return open(path);
    }
    open_remote(path, remote_file::open_listed(path, size, modified_millis, session().allocator())?)
}

/// Opens the object at `location`, found by `remote` (a HEAD or a listing): the footer read from
/// the tail.
fn open_remote(location: &str, remote: RemoteFile) -> Result<OpenFile> {
    if let Some(shared) = open_files::shared(location, remote.identity()) {
        return Ok(OpenFile { path: location.to_string(), file: shared.file.clone(), shared });
    }
    if remote.size() < 4 + vortex_file::EOF_SIZE as u64 {
        return Err(Error::file(location, format!("is only {} bytes, too short for a Vortex file", remote.size())));
    }
    let options = session().open_options().with_file_size(remote.size());
    let file = block_on(options.open(Arc::new(remote.clone())))
        .map_err(|e| Error::file(location, format!("not a readable Vortex file: {}", crate::error::concise(&e))))?;
    let segments = remote.segments(Arc::clone(file.footer().segment_map()));
    let file = file.with_segment_source(Arc::new(segments));
    if !matches!(file.dtype(), DType::Struct(..)) {
        return Err(Error::file(location, format!("holds a single {} array, not a table of columns", file.dtype())));
    }
    Ok(opened(location, file, Backing::Remote(remote)))
}

/// A Vortex file starts and ends with the magic `VTXF`; checking it first turns "some text file"
/// into a clear message rather than a footer decoding error.
fn check_magic(path: &str, len: u64) -> Result<()> {
    use std::io::Read;
    use std::io::Seek;
    use std::io::SeekFrom;
    let magic = vortex_file::MAGIC_BYTES;
    if len < 4 + vortex_file::EOF_SIZE as u64 {
        return Err(Error::file(path, format!("is only {len} bytes, too short for a Vortex file")));
    }
    let mut f = std::fs::File::open(path).map_err(|e| Error::file(path, format!("cannot open: {e}")))?;
    let mut head = [0u8; 4];
    let mut tail = [0u8; 4];
    let read = (|| -> std::io::Result<()> {
        f.read_exact(&mut head)?;
        f.seek(SeekFrom::End(-4))?;
        f.read_exact(&mut tail)
    })();
    read.map_err(|e| Error::file(path, format!("cannot read: {e}")))?;
    if head != magic {
        return Err(Error::file(path, "is not a Vortex file (no VTXF magic at the start)"));
    }
    if tail != magic {
        return Err(Error::file(
            path,
            "is truncated or not a complete Vortex file (no VTXF magic at the end)",
        ));
    }
    Ok(())
}

impl OpenFile {
    /// The file's layout reader: kept across scans of recently scanned files
    /// ([`crate::cache::readers`]), else built anew.
    pub fn layout_reader(&self) -> Result<Arc<dyn vortex_layout::LayoutReader>> {
        crate::cache::readers::reader(&self.shared.reader_key, || self.file.layout_reader())
            .map_err(|e| Error::file(&self.path, format!("cannot read the layout: {}", crate::error::concise(&e))))
    }

    /// Marks a scan of the file open until the guard goes: segments read meanwhile are kept for
    /// the chunks that span them and for later scans ([`crate::cache::segments`]).
    /// Whether the file is an object in a store (each first read a round trip).
    pub fn is_remote(&self) -> bool {
        matches!(self.shared.descriptor, Backing::Remote(_))
    }

    pub(crate) fn reading(&self) -> Option<local_file::Reading> {
        match &self.shared.descriptor {
            Backing::Local(d) => Some(d.reading()),
            // An object's segments are always kept: fetching them again costs a request.
            Backing::Remote(_) => None,
        }
    }

    /// For an object in a store, a scan of it begins ([`super::remote_file::Scanning`]: one
    /// stopped early stops the object's reads ahead). Nothing for a local file.
    pub(crate) fn scanning(&self) -> Option<super::remote_file::Scanning> {
        match &self.shared.descriptor {
            Backing::Local(_) => None,
            Backing::Remote(r) => Some(r.scanning()),
        }
    }

    /// The open file's id, unique in the process: its key in the layout-reader cache and the
    /// dictionary cache ([`crate::cache::dictionaries`]).
    pub fn id(&self) -> u64 {
        self.shared.reader_key.id()
    }

    /// The file's key in the segment memo ([`crate::cache::segments`]), shared by every open of the
    /// same contents.
    pub fn segment_key(&self) -> u64 {
        match &self.shared.descriptor {
            Backing::Local(d) => d.segment_key(),
            Backing::Remote(r) => r.segment_key(),
        }
    }

    /// Starts fetching ahead what scans of `columns` will read from row `first` to the file's end
    /// in the row ranges zone maps keep (`kept`), for an object in a store
    /// ([`RemoteFile::prefetch`]): the dataset's next splits of the file follow the scan's. Nothing
    /// for a local file.
    pub(crate) fn prefetch(&self, columns: &[String], kept: &[std::ops::Range<u64>], first: u64) {
        if let Backing::Remote(remote) = &self.shared.descriptor {
            let ahead: Vec<_> = kept.iter().filter(|k| k.end > first).map(|k| k.start.max(first)..k.end).collect();
            remote.prefetch(self.file.footer().layout(), columns, &ahead);
        }
    }

    /// A scan of the file over its (possibly kept) layout reader.
    pub fn scan(&self) -> Result<vortex_layout::scan::scan_builder::ScanBuilder<vortex_array::ArrayRef>> {
        Ok(vortex_layout::scan::scan_builder::ScanBuilder::new(session().clone(), self.layout_reader()?))
    }

    /// Rows in the file.
    pub fn row_count(&self) -> u64 {
        self.file.row_count()
    }

    /// Fails unless the open file is still linked (not deleted, nor replaced by a file moved to
    /// its path) and still has `size` bytes and was last modified at `modified_millis` (ms since
    /// the epoch), as when the split was planned.
    pub fn check_unchanged(&self, size: u64, modified_millis: i64) -> Result<()> {
        use std::os::unix::fs::MetadataExt;
        let descriptor = match &self.shared.descriptor {
            Backing::Local(d) => d,
            Backing::Remote(r) => return r.check_unchanged(size, modified_millis),
        };
        let meta = descriptor.metadata().map_err(|e| Error::file(&self.path, format!("cannot stat: {e}")))?;
        if meta.nlink() == 0 {
            return Err(Error::file(&self.path, "no such file (it was deleted or replaced after the split was planned)"));
        }
        let millis = meta.mtime() * 1000 + meta.mtime_nsec() / 1_000_000;
        if meta.len() == size && millis == modified_millis {
            return Ok(());
        }
        Err(Error::file(
            &self.path,
            format!(
                "the file changed after the split was planned (size {size} -> {}, modified {modified_millis} -> {millis} ms)",
                meta.len()
            ),
        ))
    }

    /// The top-level columns.
    pub fn columns(&self) -> Result<Vec<Column>> {
        let DType::Struct(fields, _) = self.file.dtype() else {
            unreachable!("checked at open");
        };
        let arrow = session().arrow();
        fields
            .names()
            .iter()
            .zip(fields.fields())
            .map(|(name, dtype)| Ok(Column::of(name.as_ref(), &dtype, &|d| arrow.to_arrow_datatype(d).ok())))
            .collect()
    }

    /// The dtype of a column, or an error naming the column and the file. See [`OpenFile::column`].
    pub fn column_dtype(&self, name: &str) -> Result<DType> {
        self.column(name).map(|(_, dtype)| dtype)
    }

    /// The expression reading a column, and its dtype: a top-level column, or a field of a struct
    /// column named by its dotted path (`st.x`, `st.inner.z`). A field read through a nullable
    /// struct is nullable (a null struct's fields are null, as vortex's `get_item` gives them). A
    /// top-level column wins over a path that spells its name. Errors name the column and the file.
    pub fn column(&self, name: &str) -> Result<(Expression, DType)> {
        let DType::Struct(fields, _) = self.file.dtype() else {
            unreachable!("checked at open");
        };
        if let Some(dtype) = fields.field(name) {
            return Ok((col(name), dtype));
        }
        let unknown = || {
            let names: Vec<String> = fields.names().iter().map(|n| n.to_string()).collect();
            Error::file(&self.path, format!("unknown column '{name}'; columns are {}", names.join(", ")))
        };
        let mut parts = name.split('.');
        let first = parts.next().unwrap_or(name);
        let mut dtype = fields.field(first).ok_or_else(unknown)?;
        let mut expr = col(first);
        let mut path = first.to_string();
        for part in parts {
            let DType::Struct(children, _) = &dtype else {
                return Err(Error::file(
                    &self.path,
                    format!("unknown column '{name}': '{path}' is {dtype}, not a struct"),
                ));
            };
            let child = children.field(part).ok_or_else(|| {
                let names: Vec<String> = children.names().iter().map(|n| n.to_string()).collect();
                Error::file(
                    &self.path,
                    format!("unknown column '{name}': struct '{path}' has no field '{part}'; its fields are {}", names.join(", ")),
                )
            })?;
            let nullable = dtype.is_nullable() || child.is_nullable();
            dtype = child.with_nullability(nullable.into());
            expr = get_item(part, expr);
            path = format!("{path}.{part}");
        }
        Ok((expr, dtype))
    }

    /// Whether `name` is a top-level column (not a path into a struct).
    pub fn is_top_level(&self, name: &str) -> bool {
        matches!(self.file.dtype(), DType::Struct(fields, _) if fields.field(name).is_some())
    }

    /// The Java-facing description of a column as [`OpenFile::column`] resolves it.
    pub fn column_info(&self, name: &str) -> Result<Column> {
        let dtype = self.column_dtype(name)?;
        let arrow = session().arrow();
        Ok(Column::of(name, &dtype, &|d| arrow.to_arrow_datatype(d).ok()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ColumnType;
    use crate::write::ColumnData;
    use crate::write::ColumnSpec;
    use crate::write::FileWriter;

    fn descriptors_of(path: &str) -> usize {
        std::fs::read_dir("/proc/self/fd")
            .unwrap()
            .filter_map(|e| std::fs::read_link(e.unwrap().path()).ok())
            .filter(|target| target.to_str() == Some(path))
            .count()
    }

    /// The descriptor closes when the last handle (the file or a scan of it) is dropped, without
    /// any later call polling vortex's runtime.
    #[test]
    fn the_descriptor_closes_with_the_last_handle() {
        let path = std::env::temp_dir().join(format!("vortex4j-fd-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let specs = vec![ColumnSpec { name: "a".into(), ty: ColumnType::Int(vortex_array::dtype::PType::I64), nullable: false }];
        let mut w = FileWriter::create(&path, specs).unwrap();
        w.push(3, vec![ColumnData::I64(vec![1, 2, 3])], vec![None]).unwrap();
        w.finish().unwrap();
        drop(w);
        let before = descriptors_of(&path);
        let file = open(&path).unwrap();
        let mut scan = crate::scan::Scan::open(&file, &["a".to_string()], None).unwrap();
        assert_eq!(descriptors_of(&path), before + 1);
        drop(file);
        // The scan keeps the file open and readable.
        assert_eq!(scan.next_chunk().unwrap().unwrap().len, 3);
        assert_eq!(descriptors_of(&path), before + 1);
        drop(scan);
        assert_eq!(descriptors_of(&path), before);
        let _ = std::fs::remove_file(&path);
    }

    /// Opens of the same file share one state (descriptor, layout-reader key) while one of them
    /// is open; an open after the last one closed, or of the file rewritten since, has its own.
    #[test]
    fn opens_of_the_same_file_share_its_state() {
        let path = std::env::temp_dir().join(format!("vortex4j-shared-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let write = |rows: i64| {
            let specs = vec![ColumnSpec { name: "a".into(), ty: ColumnType::Int(vortex_array::dtype::PType::I64), nullable: false }];
            let mut w = FileWriter::create(&path, specs).unwrap();
            w.push(rows as usize, vec![ColumnData::I64((0..rows).collect())], vec![None]).unwrap();
            w.finish().unwrap();
        };
        write(3);
        let before = descriptors_of(&path);
        let a = open(&path).unwrap();
        let b = open(&path).unwrap();
        assert_eq!(a.id(), b.id());
        assert_eq!(descriptors_of(&path), before + 1);
        let first = a.id();
        drop(a);
        let mut scan = crate::scan::Scan::open(&b, &["a".to_string()], None).unwrap();
        assert_eq!(scan.next_chunk().unwrap().unwrap().len, 3);
        drop(scan);
        drop(b);
        assert_eq!(descriptors_of(&path), before);
        let c = open(&path).unwrap();
        assert_ne!(c.id(), first);
        write(5);
        let d = open(&path).unwrap();
        assert_ne!(d.id(), c.id());
        assert_eq!((c.row_count(), d.row_count()), (3, 5));
        let _ = std::fs::remove_file(&path);
    }

    /// Segments are read with `pread`, never mapped: a file cut short after it was opened fails
    /// the scan with an error naming it (a mapping would raise SIGBUS).
    #[test]
    fn a_file_truncated_after_open_is_an_error() {
        let path = std::env::temp_dir().join(format!("vortex4j-cut-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let specs = vec![ColumnSpec { name: "a".into(), ty: ColumnType::Int(vortex_array::dtype::PType::I64), nullable: false }];
        let mut w = FileWriter::create(&path, specs).unwrap();
        let values: Vec<i64> = (0..100_000).map(|i| i * 7919 % 1_000_003).collect();
        w.push(values.len(), vec![ColumnData::I64(values)], vec![None]).unwrap();
        w.finish().unwrap();
        drop(w);
        let file = open(&path).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(64).unwrap();
        let mut scan = crate::scan::Scan::open(&file, &["a".to_string()], None).unwrap();
        let error = loop {
            match scan.next_chunk() {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("a scan of a truncated file ended without an error"),
                Err(e) => break e.to_string(),
            }
        };
        let _ = std::fs::remove_file(&path);
        assert!(error.contains(&path), "{error}");
    }

    /// Rows of the big file: more than the 16 MiB up to which files were read on the scanning
    /// threads before every file was.
    const BIG_ROWS: usize = 2_500_000;

    /// Row `i` of the big file: `a` random (incompressible: 8 bytes a row, so its chunks hold
    /// few rows), `k` in 0..8 (packed to 3 bits: its segments span several of `a`'s chunks).
    fn big_row(i: u64) -> (i64, i64) {
        let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z as i64, (z >> 61) as i64)
    }

    fn write_big(name: &str) -> String {
        let path = std::env::temp_dir().join(format!("vortex4j-{name}-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let ty = ColumnType::Int(vortex_array::dtype::PType::I64);
        let specs = ["a", "k"].map(|n| ColumnSpec { name: n.into(), ty: ty.clone(), nullable: false }).to_vec();
        let mut w = FileWriter::create(&path, specs).unwrap();
        let (a, k): (Vec<i64>, Vec<i64>) = (0..BIG_ROWS as u64).map(big_row).unzip();
        w.push(BIG_ROWS, vec![ColumnData::I64(a), ColumnData::I64(k)], vec![None, None]).unwrap();
        w.finish().unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 16 << 20);
        path
    }

    fn i64s(column: &vortex_array::ArrayRef) -> Vec<i64> {
        let mut ctx = crate::runtime::session::execution_ctx();
        column.clone().execute::<vortex_array::arrays::PrimitiveArray>(&mut ctx).unwrap().as_slice::<i64>().to_vec()
    }

    /// Scans `rows` of `file`, checking every value against [`big_row`]; returns the rows where
    /// `k` is 3 and the most segment bytes the memo held for the file meanwhile.
    fn scan_big(file: &OpenFile, rows: std::ops::Range<u64>) -> (u64, usize) {
        let names = ["a", "k"].map(String::from);
        let mut scan = crate::scan::Scan::open_rows(file, &names, None, rows.clone()).unwrap();
        let (mut next, mut threes, mut held) = (rows.start, 0, 0);
        while let Some(chunk) = scan.next_chunk().unwrap() {
            assert_eq!(chunk.first_row, next);
            let (a, k) = (i64s(&chunk.columns[0]), i64s(&chunk.columns[1]));
            for (r, (a, k)) in a.iter().zip(&k).enumerate() {
                assert_eq!((*a, *k), big_row(next + r as u64), "row {}", next + r as u64);
            }
            threes += k.iter().filter(|&&k| k == 3).count() as u64;
            next += chunk.len as u64;
            held = held.max(crate::cache::segments::held_by(file.segment_key()));
            assert!(held <= crate::cache::segments::capacity());
        }
        assert_eq!(next, rows.end);
        (threes, held)
    }

    /// A file whose `k` segments span several chunks reads the same values as were written, on
    /// one thread and on two threads scanning adjacent halves at once, and counts what vortex's
    /// own filtered scan selects. The segments read are kept for later scans, and go when the
    /// file closes.
    #[test]
    fn a_big_file_reads_what_was_written_and_its_kept_segments_go_with_the_file() {
        let path = write_big("big");
        let file = open(&path).unwrap();
        let three = crate::predicate::Predicate::Compare {
            column: "k".into(),
            op: crate::predicate::CmpOp::Eq,
            value: crate::predicate::Literal::I64(3),
        };
        let expected = crate::scan::filtered_rows(&file, &three).unwrap().len() as u64;
        let independent = (0..BIG_ROWS as u64).filter(|&i| big_row(i).1 == 3).count() as u64;
        assert_eq!(expected, independent);
        let splits = crate::scan::natural_splits(&file, None).unwrap();
        assert!(splits.len() > 8, "{} splits", splits.len());
        let (threes, held) = scan_big(&file, 0..BIG_ROWS as u64);
        assert_eq!(threes, expected);
        assert!(held > 0, "no segment kept during the scan");
        let key = file.segment_key();
        assert!(crate::cache::segments::held_by(key) > 0, "nothing kept for the next scan");
        // Two threads on adjacent halves (split at a natural boundary) share the kept segments.
        let middle = splits[splits.len() / 2].start;
        let halves = std::thread::scope(|s| {
            let first = s.spawn(|| scan_big(&file, 0..middle).0);
            let second = s.spawn(|| scan_big(&file, middle..BIG_ROWS as u64).0);
            first.join().unwrap() + second.join().unwrap()
        });
        assert_eq!(halves, expected);
        // Another open of the same file shares the kept segments: a scan through it reads the same
        // values and keeps nothing more (both scans fit the default bound); closing one open keeps
        // them for the other, closing both forgets them.
        let again = open(&path).unwrap();
        assert_eq!(again.segment_key(), key);
        let held = crate::cache::segments::held_by(key);
        assert_eq!(scan_big(&again, 0..BIG_ROWS as u64).0, expected);
        assert_eq!(crate::cache::segments::held_by(key), held);
        drop(file);
        assert_eq!(crate::cache::segments::held_by(key), held);
        // Rewritten under an open, the file is another file: what is kept for the open is not
        // handed out for it.
        assert_eq!(write_big("big"), path);
        let rewritten = open(&path).unwrap();
        assert_ne!(rewritten.segment_key(), key);
        assert_eq!(crate::cache::segments::held_by(rewritten.segment_key()), 0);
        drop(rewritten);
        drop(again);
        assert_eq!(crate::cache::segments::held_by(key), 0);
        let _ = std::fs::remove_file(&path);
    }

    /// A big file cut short under an open scan: the chunks that come back are right, then the
    /// scan fails with an error naming the file.
    #[test]
    fn a_big_file_truncated_under_an_open_scan_is_an_error() {
        let path = write_big("big-cut");
        let file = open(&path).unwrap();
        let names = ["a", "k"].map(String::from);
        let mut scan = crate::scan::Scan::open(&file, &names, None).unwrap();
        let first = scan.next_chunk().unwrap().unwrap();
        let len = std::fs::metadata(&path).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len / 2).unwrap();
        let mut next = first.len as u64;
        let error = loop {
            match scan.next_chunk() {
                Ok(Some(chunk)) => {
                    let k = i64s(&chunk.columns[1]);
                    for (r, k) in k.iter().enumerate() {
                        assert_eq!(*k, big_row(next + r as u64).1);
                    }
                    next += chunk.len as u64;
                }
                Ok(None) => panic!("a scan of a truncated file ended without an error"),
                Err(e) => break e.to_string(),
            }
        };
        let _ = std::fs::remove_file(&path);
        assert!(next < BIG_ROWS as u64);
        assert!(error.contains(&path), "{error}");
    }

    #[test]
    fn a_null_typed_column_is_listed_not_a_panic() {
        let path = std::env::temp_dir().join(format!("vortex4j-null-col-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let specs = vec![
            ColumnSpec { name: "a".into(), ty: ColumnType::Int(vortex_array::dtype::PType::I32), nullable: false },
            ColumnSpec { name: "n".into(), ty: ColumnType::Null, nullable: true },
        ];
        let mut w = FileWriter::create(&path, specs).unwrap();
        w.push(2, vec![ColumnData::I32(vec![1, 2]), ColumnData::Null], vec![None, None]).unwrap();
        w.finish().unwrap();
        let columns = open(&path).unwrap().columns().unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(columns[1].ty, ColumnType::Null);
        assert!(columns[1].nullable);
        assert_eq!(columns[1].dtype, "null");
    }
}

impl OpenFile {
    /// The zone-map results shared by the opens of this file.
    pub(crate) fn pruned(&self) -> &crate::scan::PruneCache {
        &self.shared.pruned
    }

    /// The scan projections shared by the opens of this file.
    pub(crate) fn projections(&self) -> &crate::scan::Projections {
        &self.shared.projections
    }
}
