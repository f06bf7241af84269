//! Arrow IPC files, in the file format (`ARROW1` magic, random access) or the stream format,
//! as record batches with the `arrow-ipc` readers.

use std::fs::File;
use std::io::BufReader;
use std::io::Read;

use arrow::array::RecordBatch;
use arrow::datatypes::SchemaRef;
use arrow::ipc::reader::FileReader;
use arrow::ipc::reader::StreamReader;

use super::source::Source;
use crate::error::Error;
use crate::error::Result;

enum Reader {
    File(FileReader<BufReader<File>>),
    Stream(StreamReader<BufReader<File>>),
}

/// An Arrow IPC file being read, batch by batch.
pub struct IpcSource {
    path: String,
    reader: Reader,
    size: u64,
    batches: usize,
    batches_done: usize,
}

impl IpcSource {
    /// Opens `path`, telling the two formats apart by the file format's magic.
    pub fn open(path: &str) -> Result<Self> {
        let open = || File::open(path).map_err(|e| Error::file(path, format!("cannot open: {e}")));
        let mut magic = [0u8; 6];
        let mut f = open()?;
        let size = f.metadata().map(|m| m.len()).unwrap_or(0);
        let is_file = f.read_exact(&mut magic).is_ok() && &magic == b"ARROW1";
        let bad = |e: arrow::error::ArrowError| Error::file(path, format!("not a readable Arrow IPC file: {e}"));
        let reader = if is_file {
            Reader::File(FileReader::try_new_buffered(open()?, None).map_err(bad)?)
        } else {
            Reader::Stream(StreamReader::try_new_buffered(open()?, None).map_err(bad)?)
        };
        let batches = match &reader {
            Reader::File(r) => r.num_batches(),
            Reader::Stream(_) => 0,
        };
        Ok(IpcSource {
            path: path.to_string(),
            reader,
            size,
            batches,
            batches_done: 0,
        })
    }
}

impl Source for IpcSource {
    fn schema(&self) -> SchemaRef {
        match &self.reader {
            Reader::File(r) => r.schema(),
            Reader::Stream(r) => r.schema(),
        }
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let next = match &mut self.reader {
            Reader::File(r) => r.next(),
            Reader::Stream(r) => r.next(),
        };
        match next {
            None => Ok(None),
            Some(Ok(b)) => {
                self.batches_done += 1;
                Ok(Some(b))
            }
            Some(Err(e)) => Err(Error::file(&self.path, format!("cannot read batch {}: {e}", self.batches_done))),
        }
    }

    fn bytes_done(&self) -> u64 {
        match self.batches {
            0 if self.batches_done == 0 => 0,
            0 => self.size / 2, // a stream's length in batches is unknown
            n => (self.size as u128 * self.batches_done as u128 / n as u128) as u64,
        }
    }
}
