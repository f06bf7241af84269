//! A Vortex file written from struct arrays with the reference writer's default strategy, its
//! writer driven by the pushing thread or by a thread of its own.

use std::fs::File;
use std::thread::JoinHandle;

use vortex_array::ArrayRef;
use vortex_array::dtype::DType;
use vortex_array::stream::ArrayStreamAdapter;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::BlockingWriter;
use vortex_file::WriteOptionsSessionExt;
use vortex_file::WriteSummary;
use vortex_io::kanal_ext::KanalExt;
use vortex_io::runtime::BlockingRuntime;
use vortex_io::runtime::current::CurrentThreadRuntime;

use super::output::SharedFile;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::runtime::session::RUNTIME;
use crate::runtime::session::session;

/// Who drives a [`VortexFileSink`]'s writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drive {
    /// The thread that pushes: each push runs the writer until the chunk is taken (no thread of
    /// our own; Java's `VortexWriter`).
    Caller,
    /// A thread of the sink's own, which runs the writer from the first chunk to the footer and
    /// writes each segment as soon as it is ready, whatever the pushing thread is doing; pushes
    /// only hand chunks over (a conversion: its thread decodes the next batch meanwhile).
    Thread,
}

enum Driver {
    Caller(BlockingWriter<'static, 'static, CurrentThreadRuntime>),
    Thread {
        /// One chunk in flight, as vortex's own push-based writer has.
        chunks: kanal::Sender<VortexResult<ArrayRef>>,
        writer: JoinHandle<VortexResult<WriteSummary>>,
    },
}

/// A Vortex file being written from struct arrays of one dtype, with the reference writer's
/// default strategy. Dropped unfinished, it deletes the partial file.
pub struct VortexFileSink {
    path: String,
    file: SharedFile,
    writer: Option<Driver>,
    rows: u64,
    finished: bool,
}

impl VortexFileSink {
    /// Creates (or truncates) `path` for rows of the struct `dtype`, its writer driven by `drive`.
    pub fn create(path: &str, dtype: DType, drive: Drive) -> Result<Self> {
        let file = File::create(path).map_err(|e| Error::file(path, format!("cannot create: {e}")))?;
        let file = SharedFile::new(file);
        let writer = match drive {
            Drive::Caller => Driver::Caller(session().write_options().blocking(&*RUNTIME).writer(file.clone(), dtype)),
            Drive::Thread => {
                let (chunks, received) = kanal::bounded_async(1);
                let stream = ArrayStreamAdapter::new(dtype, received.into_stream());
                let out = file.clone();
                let writer = std::thread::Builder::new()
                    .name("vortex4j-write".into())
                    .spawn(move || RUNTIME.block_on(session().write_options().write(out, stream)))
                    .map_err(|e| Error::file(path, format!("cannot start a writer thread: {e}")))?;
                Driver::Thread { chunks: chunks.to_sync(), writer }
            }
        };
        Ok(VortexFileSink {
            path: path.to_string(),
            file,
            writer: Some(writer),
            rows: 0,
            finished: false,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Rows pushed so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends a struct array of the sink's dtype.
    pub fn push(&mut self, chunk: ArrayRef) -> Result<()> {
        let rows = chunk.len() as u64;
        match self.writer.as_mut() {
            None => return Err(Error::file(&self.path, "the writer is finished")),
            Some(Driver::Caller(writer)) => writer.push(chunk).context(|| format!("{}: write failed", self.path))?,
            Some(Driver::Thread { chunks, .. }) => {
                if chunks.send(Ok(chunk)).is_err() {
                    // The writer stopped taking chunks: it failed; its error says why.
                    let Some(Driver::Thread { writer, .. }) = self.writer.take() else {
                        unreachable!("matched above");
                    };
                    joined(writer).context(|| format!("{}: write failed", self.path))?;
                    return Err(Error::file(&self.path, "the writer stopped before the end of the input"));
                }
            }
        }
        self.rows += rows;
        Ok(())
    }

    /// Writes the footer and flushes the file to disk; returns the file size.
    pub fn finish(&mut self) -> Result<u64> {
        let writer = self.writer.take().ok_or_else(|| Error::file(&self.path, "the writer is finished"))?;
        let summary = match writer {
            Driver::Caller(writer) => writer.finish(),
            Driver::Thread { chunks, writer } => {
                // The closed channel ends the stream: the writer writes the footer and returns.
                drop(chunks);
                joined(writer)
            }
        }
        .context(|| format!("{}: cannot finish the file", self.path))?;
        self.file.sync().map_err(|e| Error::file(&self.path, format!("cannot flush: {e}")))?;
        self.finished = true;
        Ok(summary.size())
    }
}

/// The writer thread's result (a panic in it as an error, never across JNI).
fn joined(writer: JoinHandle<VortexResult<WriteSummary>>) -> VortexResult<WriteSummary> {
    writer.join().unwrap_or_else(|_| Err(vortex_err!("the writer thread panicked")))
}

impl Drop for VortexFileSink {
    fn drop(&mut self) {
        if !self.finished {
            if let Some(Driver::Thread { chunks, writer }) = self.writer.take() {
                // An error ends the writer's stream without a footer.
                let _ = chunks.try_send(Err(vortex_err!("the conversion was abandoned")));
                drop(chunks);
                let _ = writer.join();
            }
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
