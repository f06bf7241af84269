//! The native side of a pushed filtered count without Java: `SELECT count(*) WHERE sym = 'NVDA'`
//! as the reader runs it (splits of about 2^20 rows cut at natural boundaries, or one split per
//! file of a folder; per split a scan, the filter prepared on its first chunk, a count per chunk),
//! at the given thread counts, best of N, with where the time went (summed over threads). Splits
//! the per-query cost into Java's and the native side's, and the native side's into scan opening,
//! chunk reading and counting.
//!
//! `cargo run --release --example scan_probe -- FILE_OR_FOLDER [ITERATIONS] [THREADS,...]`
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use vortex4j::predicate::{CmpOp, Literal, Predicate};
use vortex4j::predicate::prepared::{LeafSpec, PreparedFilter};
use vortex4j::scan::chunk::Chunk;
use vortex4j::scan::{Scan, natural_splits};

#[derive(Default, Clone, Copy)]
struct T { open: Duration, next: Duration, prep: Duration, count: Duration, drop: Duration, chunks: usize }

fn run_split(file: &vortex4j::io::file::OpenFile, pred: &Predicate, enc: &[u8], r: std::ops::Range<u64>, t: &mut T) -> u64 {
    let cols = vec!["sym".to_string()];
    let a = Instant::now();
    let mut scan = Scan::open_rows(file, &cols, Some(pred), r).unwrap();
    t.open += a.elapsed();
    let mut prepared: Option<PreparedFilter> = None;
    let mut n = 0;
    loop {
        let a = Instant::now();
        let c = scan.next_chunk().unwrap();
        t.next += a.elapsed();
        let Some(c) = c else { break };
        let chunk = Chunk::new(c);
        t.chunks += 1;
        if prepared.is_none() {
            let a = Instant::now();
            let dtypes: Vec<_> = chunk.data.columns.iter().map(|c| c.dtype().clone()).collect();
            prepared = Some(PreparedFilter::new(&chunk.data.names, &dtypes, &[2, 0], vec![LeafSpec { encoded: Some(enc.to_vec()), column: 0 }]).unwrap());
            t.prep += a.elapsed();
        }
        let a = Instant::now();
        n += prepared.as_ref().unwrap().count(&chunk, &[None]).unwrap().unwrap();
        t.count += a.elapsed();
        let a = Instant::now();
        drop(chunk);
        t.drop += a.elapsed();
    }
    let a = Instant::now();
    drop(scan);
    t.drop += a.elapsed();
    n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = &args[0];
    let iters: usize = args.get(1).map_or(200, |s| s.parse().unwrap());
    let threads: Vec<usize> = args.get(2).map_or(vec![1, 2, 1, 2], |s| s.split(',').map(|x| x.parse().unwrap()).collect());
    let pred = Predicate::Compare { column: "sym".into(), op: CmpOp::Eq, value: Literal::Utf8("NVDA".into()) };
    let enc = pred.encode();
    let files: Vec<vortex4j::io::file::OpenFile>;
    let mut splits: Vec<(usize, std::ops::Range<u64>)> = Vec::new();
    if std::path::Path::new(path).is_dir() {
        // Every file of the folder one whole-file split, as a dataset of small files plans them.
        let mut paths: Vec<_> = std::fs::read_dir(path).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        files = paths.iter().map(|p| vortex4j::io::file::open(p.to_str().unwrap()).unwrap()).collect();
        splits.extend(files.iter().enumerate().map(|(i, f)| (i, 0..f.row_count())));
    } else {
        // The reader's plan: splits of at least 2^20 rows, cut at the natural splits pruning keeps.
        files = vec![vortex4j::io::file::open(path).unwrap()];
        let kept = natural_splits(&files[0], Some(&pred)).unwrap();
        let mut start = kept[0].start;
        for (i, r) in kept.iter().enumerate() {
            let last = i + 1 == kept.len();
            if last || r.end - start >= 1 << 20 {
                splits.push((0, start..r.end));
                if !last {
                    start = kept[i + 1].start;
                }
            }
        }
    }
    eprintln!("{} files, {} splits", files.len(), splits.len());
    for threads in threads {
        let mut best = Duration::MAX;
        let mut sum = T::default();
        let mut answer = 0;
        for _ in 0..iters {
            let a = Instant::now();
            let next = AtomicUsize::new(0);
            let total = std::sync::atomic::AtomicU64::new(0);
            let times = std::sync::Mutex::new(T::default());
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(|| {
                        let mut t = T::default();
                        while let Some((f, rows)) = splits.get(next.fetch_add(1, Ordering::Relaxed)) {
                            total.fetch_add(run_split(&files[*f], &pred, &enc, rows.clone(), &mut t), Ordering::Relaxed);
                        }
                        times.lock().unwrap().add(&t);
                    });
                }
            });
            best = best.min(a.elapsed());
            sum.add(&times.into_inner().unwrap());
            answer = total.into_inner();
        }
        let per = |d: Duration| d.as_secs_f64() * 1e3 / iters as f64;
        println!(
            "threads={threads} best {:.2} ms  answer {answer}  per query (summed over threads): open {:.3} next {:.3} prep {:.3} count {:.3} drop {:.3} ms, chunks {}",
            best.as_secs_f64() * 1e3, per(sum.open), per(sum.next), per(sum.prep), per(sum.count), per(sum.drop), sum.chunks / iters
        );
    }
}

impl T {
    fn add(&mut self, t: &T) {
        self.open += t.open;
        self.next += t.next;
        self.prep += t.prep;
        self.count += t.count;
        self.drop += t.drop;
        self.chunks += t.chunks;
    }
}
