//! The arena behind a TDS result set's column metadata, drawn as it fills
//! while the response is fed in chunks.

use bumpalo::Bump;
use leanwire_core::tds::{
    self, Deframer, Event, Metadata, Reader, Status, TdsVersion, Token, TypeNames, Ucs2Str,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::arena::{Labelled, Picture, picture};
use crate::js_error;

/// The arena after one fed chunk.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Frame {
    /// Input bytes read so far.
    pub(super) fed: usize,
    /// `allocated_bytes() - chunk_capacity()`: the arena's bytes less the
    /// current chunk's free room. Free room left in an older chunk counts
    /// as used.
    pub(super) used: usize,
    /// `allocated_bytes()`: every chunk's capacity.
    pub(super) capacity: usize,
}

/// A column of the result set.
#[derive(Serialize, Debug)]
pub(super) struct ColumnText {
    /// The column name.
    pub(super) name: String,
    /// The SQL Server type, such as `nvarchar(50)`.
    #[serde(rename = "type")]
    pub(super) type_name: String,
}

/// What [`tds_arena`] returns.
#[derive(Serialize, Debug)]
pub(super) struct TdsArena {
    /// The arena's chunks and blocks at the end.
    #[serde(flatten)]
    pub(super) picture: Picture,
    /// The arena after each fed chunk.
    pub(super) frames: Vec<Frame>,
    /// The first result set's columns.
    pub(super) columns: Vec<ColumnText>,
    /// Whether the first COLMETADATA was read to its end; `false` when the
    /// input ran out first.
    pub(super) complete: bool,
}

/// Feeds the TDS response `bytes` to a reader `chunk` bytes at a time,
/// with the column metadata going into a fresh arena, up to the end of the
/// first COLMETADATA (or of the input), and draws the arena.
///
/// `bytes` are packets with their 8-byte headers, or bare tokens when
/// `tokensOnly`. Returns JSON: the `pathArena` shape (`chunks`, `blocks`,
/// `arenaBytes`, `arenaCapacity`) plus `"frames": [{"fed",
/// "used", "capacity"}]` (one per fed chunk), `"columns": [{"name",
/// "type"}]` and `"complete"`. A defect in the stream is an error whose
/// message gives its byte offset.
#[wasm_bindgen(js_name = tdsArena)]
pub fn tds_arena(
    bytes: &[u8],
    #[wasm_bindgen(js_name = tokensOnly)] tokens_only: bool,
    chunk: u32,
) -> Result<String, JsError> {
    let chunk = usize::try_from(chunk).unwrap_or(usize::MAX).max(1);
    let arena = tds_picture(bytes, tokens_only, chunk).map_err(js_error)?;
    serde_json::to_string(&arena).map_err(js_error)
}

/// The picture of the arena that the first COLMETADATA of `bytes` fills.
pub(super) fn tds_picture(bytes: &[u8], tokens_only: bool, chunk: usize) -> tds::Result<TdsArena> {
    let mut bump = Bump::new();
    let mut row_buf = vec![0u8; 64 * 1024];
    let mut frames = Vec::new();
    let mut sizes_seen = Vec::new();
    let (labelled, columns, complete) = {
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut deframer = Deframer::new();
        let mut complete = false;
        let mut fed = 0;
        for piece in bytes.chunks(chunk) {
            let mut input = piece;
            let rest = if tokens_only {
                read_tokens(&mut reader, &mut input, &mut meta, &mut row_buf)?
            } else {
                let mut rest = None;
                while let Status::Complete(payload) = deframer.next(&mut input)? {
                    let mut tokens = payload.bytes;
                    rest = read_tokens(&mut reader, &mut tokens, &mut meta, &mut row_buf)?;
                    if rest.is_some() {
                        break;
                    }
                    if payload.message_end {
                        reader.finish()?;
                    }
                }
                rest
            };
            fed += piece.len();
            if let Some(rest) = rest {
                complete = true;
                fed = offset_in(bytes, rest).unwrap_or(fed);
            }
            let capacity = bump.allocated_bytes();
            let seen: usize = sizes_seen.iter().sum();
            if capacity > seen {
                sizes_seen.push(capacity - seen);
            }
            frames.push(Frame {
                fed,
                used: capacity - bump.chunk_capacity(),
                capacity,
            });
            if complete {
                break;
            }
        }
        let columns = meta.columns();
        let text = columns
            .iter()
            .map(|c| ColumnText {
                name: c.name.to_string(),
                type_name: c.type_info.to_string(),
            })
            .collect();
        let mut labelled = vec![Labelled::of(
            columns,
            format!("columns: {} × Column", columns.len()),
        )];
        for (i, column) in columns.iter().enumerate() {
            labelled.push(text_block(column.name, format!("name of column {i}")));
            if !column.table_name.is_empty() {
                let label = format!(
                    "table name of column {i}: {} parts",
                    column.table_name.len()
                );
                labelled.push(Labelled::of(column.table_name, label));
            }
            for (j, part) in column.table_name.iter().enumerate() {
                labelled.push(text_block(
                    *part,
                    format!("table name part {j} of column {i}"),
                ));
            }
            if let Some(names) = column.type_info.names {
                labelled.extend(type_name_blocks(names, i));
            }
        }
        (labelled, text, complete)
    };
    Ok(TdsArena {
        picture: picture(&mut bump, labelled, &sizes_seen),
        frames,
        columns,
        complete,
    })
}

/// Reads events from `tokens` until it runs out or the first COLMETADATA
/// is complete; then returns the bytes after it.
fn read_tokens<'c>(
    reader: &mut Reader,
    tokens: &mut &'c [u8],
    meta: &mut Metadata<'_>,
    row_buf: &mut [u8],
) -> tds::Result<Option<&'c [u8]>> {
    while let Status::Complete(event) = reader.next(tokens, meta, row_buf)? {
        if let Event::Token(Token::ColMetadata(_)) = event {
            return Ok(Some(*tokens));
        }
    }
    Ok(None)
}

/// Where `part`, a sub-slice of `whole`, starts in it.
fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    let offset = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (offset <= whole.len()).then_some(offset)
}

/// The bytes of a UCS-2 string, labelled `what: "text"`.
fn text_block(text: Ucs2Str<'_>, what: String) -> Labelled {
    Labelled::of(text.as_bytes(), format!("{what}: {:?}", text.to_string()))
}

/// An XML or UDT type's names, and the value that holds them.
fn type_name_blocks(names: &TypeNames<'_>, column: usize) -> Vec<Labelled> {
    let (kind, parts): (&str, Vec<(&str, Ucs2Str<'_>)>) = match *names {
        TypeNames::Xml {
            database,
            owning_schema,
            collection,
        } => (
            "XML",
            vec![
                ("database", database),
                ("owning schema", owning_schema),
                ("collection", collection),
            ],
        ),
        TypeNames::Udt {
            database,
            schema,
            type_name,
            assembly,
        } => (
            "UDT",
            vec![
                ("database", database),
                ("schema", schema),
                ("type name", type_name),
                ("assembly", assembly),
            ],
        ),
    };
    let mut blocks = vec![Labelled::of(
        names,
        format!("{kind} type names of column {column}"),
    )];
    for (what, text) in parts {
        blocks.push(text_block(
            text,
            format!("{kind} {what} of column {column}"),
        ));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case of `native/tests/golden/tds_decode.json`: its bytes, whether
    /// they are bare tokens, and the first line `leanwire tds decode` printed.
    fn check(bytes: &[u8], tokens_only: bool, first: &serde_json::Value, chunk: usize) {
        let arena = tds_picture(bytes, tokens_only, chunk).unwrap();
        assert!(arena.complete);
        let expected: Vec<&str> = first["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        let names: Vec<&str> = arena.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, expected);
        assert!(
            arena
                .frames
                .windows(2)
                .all(|w| w[0].used <= w[1].used && w[0].fed < w[1].fed)
        );
        let blocks = &arena.picture.blocks;
        let named = blocks
            .iter()
            .filter(|b| b.label.starts_with("name of column"))
            .count();
        assert_eq!(named, names.iter().filter(|n| !n.is_empty()).count());
        assert!(
            blocks
                .iter()
                .any(|b| b.label == format!("columns: {} × Column", names.len()))
        );
        assert_eq!(
            blocks.iter().map(|b| b.size).sum::<usize>(),
            arena.picture.arena_bytes
        );
        let last = arena.frames.last().unwrap();
        assert!(last.fed <= bytes.len());
        assert_eq!(last.capacity, arena.picture.arena_capacity);
        if arena.picture.chunks.len() == 1 {
            assert_eq!(last.used, arena.picture.arena_bytes);
        }
        assert!(arena.picture.chunks.iter().all(|c| c.size.is_some()));
    }

    #[test]
    fn token_stream_columns_fill_the_arena() {
        let (bytes, tokens_only, first) = crate::vectors::tds_case(0);
        assert!(tokens_only);
        for chunk in [1, 7, 64, bytes.len()] {
            check(&bytes, tokens_only, &first, chunk);
        }
    }

    #[test]
    fn packets_are_deframed() {
        let (bytes, tokens_only, first) = crate::vectors::tds_case(1);
        assert!(!tokens_only);
        for chunk in [1, 13, 512, bytes.len()] {
            check(&bytes, tokens_only, &first, chunk);
        }
    }

    #[test]
    fn reading_stops_after_the_first_colmetadata() {
        let (bytes, _, _) = crate::vectors::tds_case(0);
        let arena = tds_picture(&bytes, true, bytes.len()).unwrap();
        assert_eq!(arena.frames.len(), 1);
        assert!(arena.frames[0].fed < bytes.len());
    }

    #[test]
    fn input_cut_inside_colmetadata_is_incomplete() {
        let (bytes, _, _) = crate::vectors::tds_case(0);
        let arena = tds_picture(&bytes[..40], true, 16).unwrap();
        assert!(!arena.complete && arena.columns.is_empty());
        assert_eq!(arena.frames.last().unwrap().fed, 40);
    }

    #[test]
    fn long_names_spill_into_new_chunks() {
        // COLMETADATA of 40 int columns with 100-character names, then DONE.
        let mut tokens = vec![0x81, 40, 0];
        for i in 0..40u8 {
            tokens.extend([0, 0, 0, 0, 0, 0, 0x38, 100]);
            tokens.extend((0..100).flat_map(|_| [b'a' + i % 26, 0]));
        }
        tokens.extend([0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let arena = tds_picture(&tokens, true, 1).unwrap();
        let picture = &arena.picture;
        assert!(arena.complete && arena.columns.len() == 40);
        assert!(picture.chunks.len() > 1, "{:?}", picture.chunks);
        assert!(picture.chunks.iter().all(|c| c.size >= Some(c.used)));
        assert_eq!(
            picture
                .chunks
                .iter()
                .map(|c| c.size.unwrap())
                .sum::<usize>(),
            picture.arena_capacity
        );
        assert_eq!(picture.blocks[0].label, "columns: 40 × Column");
        let named: Vec<&str> = picture
            .blocks
            .iter()
            .filter(|b| b.label.starts_with("name of column"))
            .map(|b| b.label.as_str())
            .collect();
        assert_eq!(named.len(), 40);
        assert!(named[39].starts_with("name of column 39: "));
        let chunks: Vec<usize> = picture.blocks.iter().map(|b| b.chunk).collect();
        assert!(chunks.is_sorted() && chunks.last() == Some(&(picture.chunks.len() - 1)));
        assert_eq!(
            picture.blocks.iter().map(|b| b.size).sum::<usize>(),
            picture.arena_bytes
        );
    }

    #[test]
    fn unknown_token_is_an_error() {
        let (bytes, tokens_only, _) = crate::vectors::tds_case(3);
        let error = tds_picture(&bytes, tokens_only, 64).unwrap_err();
        assert_eq!(error.offset(), 0);
    }
}
