//! Decoding an input ahead of the writer: a [`Source`] read on a thread of its own, a few batches
//! ahead, so decoding (Parquet pages, CSV parsing) overlaps the calling thread's work on the
//! previous batches (conversion to Vortex, driving the writer and writing its segments).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::sync::mpsc::sync_channel;
use std::thread::JoinHandle;

use arrow::array::RecordBatch;
use arrow::datatypes::SchemaRef;

use super::source::Source;
use crate::error::Error;
use crate::error::Result;

/// Batches decoded ahead (bounded, so memory stays a few batches whatever the input's size).
const AHEAD: usize = 2;

/// A source read by a background thread.
pub struct ReadAhead {
    schema: SchemaRef,
    /// `Ok(None)` ends the input; `None` once the end or an error was received.
    batches: Option<Receiver<Result<Option<RecordBatch>>>>,
    /// `bytes_done` and `bad_rows` of the inner source after the last batch it decoded.
    bytes_done: Arc<AtomicU64>,
    bad_rows: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl ReadAhead {
    /// Starts reading `source` on a new thread.
    pub fn start(mut source: Box<dyn Source>, name: &str) -> Result<Self> {
        let schema = source.schema();
        let (send, batches) = sync_channel(AHEAD);
        let bytes_done = Arc::new(AtomicU64::new(0));
        let bad_rows = Arc::new(AtomicU64::new(0));
        let (bytes, bad) = (Arc::clone(&bytes_done), Arc::clone(&bad_rows));
        let thread = std::thread::Builder::new()
            .name("vortex4j-convert-read".into())
            .spawn(move || {
                loop {
                    let next = source.next_batch();
                    bytes.store(source.bytes_done(), Ordering::Release);
                    bad.store(source.bad_rows(), Ordering::Release);
                    let last = !matches!(next, Ok(Some(_)));
                    // A closed channel: the conversion was abandoned; stop reading.
                    if send.send(next).is_err() || last {
                        return;
                    }
                }
            })
            .map_err(|e| Error::file(name, format!("cannot start a reader thread: {e}")))?;
        Ok(ReadAhead {
            schema,
            batches: Some(batches),
            bytes_done,
            bad_rows,
            thread: Some(thread),
        })
    }
}

impl Source for ReadAhead {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let Some(batches) = &self.batches else {
            return Ok(None);
        };
        match batches.recv() {
            Ok(Ok(Some(batch))) => Ok(Some(batch)),
            Ok(end_or_error) => {
                self.batches = None;
                end_or_error
            }
            Err(_) => {
                self.batches = None;
                Err(Error::Invalid("the reader thread stopped unexpectedly".into()))
            }
        }
    }

    fn bytes_done(&self) -> u64 {
        self.bytes_done.load(Ordering::Acquire)
    }

    fn bad_rows(&self) -> u64 {
        self.bad_rows.load(Ordering::Acquire)
    }
}

impl Drop for ReadAhead {
    /// Stops the reader: the closed channel ends its loop after the batch it is decoding.
    fn drop(&mut self) {
        drop(self.batches.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
