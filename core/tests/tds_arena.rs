//! The metadata arena against a server that sends result set after result
//! set of 4096 columns: a limit stops it at the COLMETADATA that does not
//! fit, and a reset at each [`Event::ColMetadataStart`] keeps the arena at
//! one result set's size however many follow.
#![cfg(feature = "alloc")]

mod support {
    #[allow(dead_code)]
    pub mod tds_cases;
}

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    DEFAULT_ARENA_LIMIT, ErrorKind, Event, Metadata, OwnedMetadata, Reader, Site, Status,
    TdsVersion, Token, TokenType,
};
use support::tds_cases::build::Tokens;

/// One narrow result set (an int column `a`, a ROW with 7, a DONE), then
/// `wide` result sets of `columns` unnamed int columns without rows; and
/// the offset of the first wide COLMETADATA.
fn wide_result_sets(wide: usize, columns: usize) -> (Vec<u8>, usize) {
    let head = Tokens::new()
        .colmetadata(&[("a", vec![0x38])])
        .row(&[7i32.to_le_bytes().to_vec()])
        .done(1);
    let first = head.0.len();
    let unnamed = vec![("", vec![0x38]); columns];
    let mut tokens = head;
    for _ in 0..wide {
        tokens = tokens.colmetadata(&unnamed).done(0);
    }
    (tokens.0, first)
}

/// What reading `bytes` in `chunk`-byte pieces came to: the column count
/// of each COLMETADATA, the row values, the error, and the most the arena
/// held while reading.
#[derive(Debug, PartialEq)]
struct Read {
    columns: Vec<usize>,
    values: Vec<String>,
    error: Option<(ErrorKind, usize)>,
    peak: usize,
}

/// Reads with one `Metadata` over `bump`, dropped and made again over the
/// reset arena at each `ColMetadataStart` when `reset`.
fn read(bytes: &[u8], chunk: usize, bump: &mut Bump, reset: bool) -> Read {
    let mut out = Read {
        columns: Vec::new(),
        values: Vec::new(),
        error: None,
        peak: 0,
    };
    let mut meta = Metadata::new(bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    for mut piece in bytes.chunks(chunk) {
        loop {
            match reader.next(&mut piece, &mut meta, &mut []) {
                Ok(Status::Complete(Event::ColMetadataStart { .. })) if reset => {
                    bump.reset();
                    meta = Metadata::new(bump);
                }
                Ok(Status::Complete(Event::Token(Token::ColMetadata(columns)))) => {
                    out.columns.push(columns.columns.len());
                }
                Ok(Status::Complete(Event::Value { value, .. })) => {
                    out.values.push(value.to_string());
                }
                Ok(Status::Complete(_)) => {}
                Ok(Status::Partial) => break,
                Err(e) => {
                    out.error = Some((e.kind(), e.offset()));
                    return out;
                }
            }
            out.peak = out.peak.max(bump.allocated_bytes());
        }
    }
    out
}

/// The same with an [`OwnedMetadata`].
fn read_owned(bytes: &[u8], chunk: usize, limit: usize) -> Read {
    let mut out = Read {
        columns: Vec::new(),
        values: Vec::new(),
        error: None,
        peak: 0,
    };
    let mut meta = OwnedMetadata::new(limit);
    let mut reader = Reader::new(TdsVersion::V7_4);
    for mut piece in bytes.chunks(chunk) {
        loop {
            let step = meta.with_mut(|meta| match reader.next(&mut piece, meta, &mut []) {
                Ok(Status::Complete(Event::ColMetadataStart { .. })) => Some(true),
                Ok(Status::Complete(Event::Token(Token::ColMetadata(columns)))) => {
                    out.columns.push(columns.columns.len());
                    Some(false)
                }
                Ok(Status::Complete(Event::Value { value, .. })) => {
                    out.values.push(value.to_string());
                    Some(false)
                }
                Ok(Status::Complete(_)) => Some(false),
                Ok(Status::Partial) => None,
                Err(e) => {
                    out.error = Some((e.kind(), e.offset()));
                    None
                }
            });
            out.peak = out.peak.max(meta.allocated_bytes());
            match step {
                Some(true) => meta.reset(),
                Some(false) => {}
                None if out.error.is_some() => return out,
                None => break,
            }
        }
    }
    out
}

const FULL: ErrorKind = ErrorKind::ArenaFull(Site::token(TokenType::ColMetadata));

#[test]
fn a_colmetadata_past_the_limit_is_arena_full_at_its_count() {
    let (bytes, first) = wide_result_sets(3, 4096);
    for chunk in [bytes.len(), 4096, 7, 1] {
        for reset in [false, true] {
            let mut bump = Bump::new();
            bump.set_allocation_limit(Some(64 * 1024));
            let read = read(&bytes, chunk, &mut bump, reset);
            assert_eq!(read.error, Some((FULL, first + 1)), "{chunk}-byte chunks");
            assert_eq!(read.columns, [1]);
            assert_eq!(read.values, ["7"]);
            assert!(read.peak <= 64 * 1024);
        }
        let read = read_owned(&bytes, chunk, 64 * 1024);
        assert_eq!(read.error, Some((FULL, first + 1)), "{chunk}-byte chunks");
        assert_eq!(read.columns, [1]);
    }
}

#[test]
fn a_reset_at_each_colmetadata_keeps_the_arena_at_one_result_set() {
    let (bytes, _) = wide_result_sets(100, 4096);
    for chunk in [bytes.len(), 1000] {
        let mut bump = Bump::new();
        bump.set_allocation_limit(Some(DEFAULT_ARENA_LIMIT));
        let read = read(&bytes, chunk, &mut bump, true);
        assert_eq!(read.error, None);
        assert_eq!(read.columns.len(), 101);
        assert!(read.columns[1..].iter().all(|&n| n == 4096));
        // One result set's columns, in chunks that double: under 2 MiB.
        assert!(read.peak < 2 << 20, "{} bytes", read.peak);

        let owned = read_owned(&bytes, chunk, DEFAULT_ARENA_LIMIT);
        assert_eq!(owned.columns, read.columns);
        assert!(owned.peak < 2 << 20, "{} bytes", owned.peak);
    }
}

#[test]
fn without_resets_the_limit_stops_the_growth() {
    let (bytes, first) = wide_result_sets(100, 4096);
    let mut bump = Bump::new();
    bump.set_allocation_limit(Some(DEFAULT_ARENA_LIMIT));
    let read = read(&bytes, bytes.len(), &mut bump, false);
    let Some((kind, offset)) = read.error else {
        panic!("100 result sets of 4096 columns fit in 16 MiB");
    };
    assert_eq!(kind, FULL);
    // At the count of a later wide COLMETADATA.
    let per_set = (bytes.len() - first) / 100;
    assert_eq!((offset - first - 1) % per_set, 0);
    assert!(read.peak <= DEFAULT_ARENA_LIMIT);
}

#[test]
fn no_metadata_colmetadata_survives_resets() {
    // "No metadata" has no start: the reset arena still holds the columns.
    let bytes = Tokens::new()
        .colmetadata(&[("i", vec![0x38])])
        .row(&[5i32.to_le_bytes().to_vec()])
        .done(1)
        .raw(&[0x81, 0xff, 0xff])
        .row(&[6i32.to_le_bytes().to_vec()])
        .done(1)
        .0;
    for chunk in [bytes.len(), 1] {
        let mut bump = Bump::new();
        let read = read(&bytes, chunk, &mut bump, true);
        assert_eq!(read.error, None);
        assert_eq!(read.columns, [1, 1]);
        assert_eq!(read.values, ["5", "6"]);
        let owned = read_owned(&bytes, chunk, DEFAULT_ARENA_LIMIT);
        assert_eq!(owned.values, ["5", "6"]);
    }
}
