//! A picture of a `bumpalo` arena: its chunks, and the blocks in each, as
//! the page draws them.
//!
//! bumpalo fills a chunk from its end downwards, so within a chunk a later
//! allocation sits at a lower address. A block's `offset` counts from the
//! lowest used byte of its chunk, and the blocks are listed in allocation
//! order, across chunks from the oldest.

use bumpalo::Bump;
use serde::Serialize;

/// The label of used arena bytes that no labelled block covers: alignment
/// padding, or something the caller did not name.
pub(super) const UNLABELLED: &str = "padding / unlabelled";

/// Something the caller knows of and suspects is in the arena: its address,
/// its size in bytes and what it is.
pub(super) struct Labelled {
    address: usize,
    size: usize,
    label: String,
}

impl Labelled {
    /// The bytes of `value`, named `label`.
    pub(super) fn of<T: ?Sized>(value: &T, label: String) -> Labelled {
        Labelled {
            address: core::ptr::from_ref(value).cast::<u8>() as usize,
            size: size_of_val(value),
            label,
        }
    }
}

/// One chunk of the arena, oldest first.
#[derive(Serialize, Debug)]
pub(super) struct Chunk {
    /// 0 for the first chunk the arena made.
    pub(super) index: usize,
    /// The chunk's capacity in bytes; `null` where bumpalo does not say
    /// (an older chunk, when the arena grew by more than one chunk at once).
    pub(super) size: Option<usize>,
    /// Bytes handed out from the chunk, padding included.
    pub(super) used: usize,
}

/// A run of used bytes in one chunk: a labelled block, or the
/// [`UNLABELLED`] bytes between them.
#[derive(Serialize, Debug)]
pub(super) struct Block {
    /// The chunk's index.
    pub(super) chunk: usize,
    /// Bytes from the chunk's lowest used address.
    pub(super) offset: usize,
    /// Bytes.
    pub(super) size: usize,
    /// What the bytes hold.
    pub(super) label: String,
}

/// The arena's chunks and the blocks in them, by allocation order.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) struct Picture {
    /// The chunks, oldest first.
    pub(super) chunks: Vec<Chunk>,
    /// The blocks, in allocation order; their sizes add up to
    /// [`arena_bytes`](Self::arena_bytes).
    pub(super) blocks: Vec<Block>,
    /// Bytes used in all chunks.
    pub(super) arena_bytes: usize,
    /// `Bump::allocated_bytes`: the capacity of all chunks together.
    pub(super) arena_capacity: usize,
}

/// Draws `bump`. A labelled value that is not inside a chunk's used bytes
/// (it borrows the input, or is empty) is left out; used bytes that no
/// label covers become [`UNLABELLED`] blocks.
///
/// `sizes_seen` is each chunk's capacity as the arena grew, oldest first,
/// if the caller saw every chunk arrive (by `allocated_bytes`); it is used
/// only when it has one entry per chunk.
pub(super) fn picture(bump: &mut Bump, labelled: Vec<Labelled>, sizes_seen: &[usize]) -> Picture {
    let free = bump.chunk_capacity();
    let arena_capacity = bump.allocated_bytes();
    let mut ranges: Vec<(usize, usize)> = bump
        .iter_allocated_chunks()
        .map(|used| (used.as_ptr() as usize, used.len()))
        .collect();
    ranges.reverse();
    let sizes = chunk_sizes(&ranges, free, arena_capacity, sizes_seen);
    let chunks: Vec<Chunk> = ranges
        .iter()
        .zip(sizes)
        .enumerate()
        .map(|(index, (&(_, used), size))| Chunk { index, size, used })
        .collect();

    let mut inside: Vec<Vec<Labelled>> = ranges.iter().map(|_| Vec::new()).collect();
    for block in labelled.into_iter().filter(|b| b.size > 0) {
        let home = ranges.iter().position(|&(start, used)| {
            block.address >= start && block.address + block.size <= start + used
        });
        if let Some(chunk) = home
            && !inside[chunk]
                .iter()
                .any(|b| (b.address, b.size) == (block.address, block.size))
        {
            inside[chunk].push(block);
        }
    }

    // Oldest chunk first; within a chunk, from the highest address down.
    let mut blocks: Vec<Block> = Vec::new();
    for (chunk, (mut labelled, &(start, used))) in inside.into_iter().zip(&ranges).enumerate() {
        labelled.sort_by_key(|b| core::cmp::Reverse(b.address));
        let mut top = start + used;
        let mut push = |address: usize, size: usize, label: String| {
            blocks.push(Block {
                chunk,
                offset: address - start,
                size,
                label,
            });
        };
        for block in labelled {
            let end = block.address + block.size;
            if end < top {
                push(end, top - end, UNLABELLED.into());
            }
            push(block.address, block.size, block.label);
            top = top.min(block.address);
        }
        if top > start {
            push(start, top - start, UNLABELLED.into());
        }
    }
    Picture {
        arena_bytes: chunks.iter().map(|c| c.used).sum(),
        chunks,
        blocks,
        arena_capacity,
    }
}

/// Each chunk's capacity where it is known: the current (last) chunk's is
/// its used bytes plus the free room bumpalo reports, and with exactly one
/// chunk before it, that one's is the rest of the arena's capacity.
fn chunk_sizes(
    ranges: &[(usize, usize)],
    free: usize,
    capacity: usize,
    sizes_seen: &[usize],
) -> Vec<Option<usize>> {
    if sizes_seen.len() == ranges.len() {
        return sizes_seen.iter().copied().map(Some).collect();
    }
    let mut sizes = vec![None; ranges.len()];
    if let Some(&(_, used)) = ranges.last() {
        let current = used + free;
        sizes[ranges.len() - 1] = Some(current);
        if ranges.len() == 2 {
            sizes[0] = capacity.checked_sub(current);
        }
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_fill_the_used_bytes_in_allocation_order() {
        let mut bump = Bump::new();
        let labelled = {
            let first = bump.alloc(1u64);
            let _unnamed = bump.alloc(2u8);
            let third = bump.alloc([3u32; 3]);
            let outside = 4u64;
            vec![
                Labelled::of(third, "third".into()),
                Labelled::of(first, "first".into()),
                Labelled::of(&outside, "outside".into()),
            ]
        };
        let picture = picture(&mut bump, labelled, &[]);
        let labels: Vec<&str> = picture.blocks.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["first", UNLABELLED, "third"]);
        assert_eq!(
            picture.blocks.iter().map(|b| b.size).sum::<usize>(),
            picture.arena_bytes
        );
        assert_eq!(picture.blocks[0].offset + 8, picture.arena_bytes);
        assert_eq!(picture.blocks[2].offset, 0);
        assert_eq!(picture.chunks.len(), 1);
        assert!(picture.chunks[0].size.unwrap() >= picture.arena_bytes);
    }

    #[test]
    fn an_empty_arena_has_no_chunks() {
        let picture = picture(&mut Bump::new(), Vec::new(), &[]);
        assert!(picture.chunks.is_empty() && picture.blocks.is_empty());
        assert_eq!(picture.arena_bytes, 0);
    }
}
