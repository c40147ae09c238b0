//! Whole rows read straight onto the tape.
//!
//! When a ROW or NBCROW lies whole in the bytes at hand and every column
//! has a layout read here, [`row`] frames its values itself and checks each
//! with [`Value::new`], the reader's own checks, instead of taking the
//! reader's value events one by one. Anything else (a row split across
//! pieces, a TEXT, IMAGE or sql_variant column, a value that fails a check)
//! leaves the tape as it was, and the reader reads the row from its first
//! byte, with its own errors and offsets.

use leanwire_core::tds::{Column, DataType, TypeInfo, Ucs2Str, Value};

use super::tape::{ROW, ROW_END};
use super::values::{NULL, Tape, ValueOptions};

/// ROW.
const ROW_TOKEN: u8 = 0xD1;
/// NBCROW.
const NBCROW_TOKEN: u8 = 0xD2;
/// The PLP total of a NULL.
const PLP_NULL: u64 = u64::MAX;
/// The PLP total of a value whose length the server did not announce.
const PLP_UNKNOWN: u64 = u64::MAX - 1;

/// Writes the row at the start of `input` (ROW, or NBCROW when `nbc_ok`)
/// of `columns` onto `tape`, gathering large values in `large`. Returns the
/// bytes the row took, or `None` with the tape unchanged.
pub fn row(
    input: &[u8],
    columns: &[Column<'_>],
    nbc_ok: bool,
    tape: &mut Tape<'_>,
    large: &mut Vec<u8>,
    options: ValueOptions,
) -> Option<usize> {
    let (&token, mut rest) = input.split_first()?;
    let nbc = match token {
        ROW_TOKEN => false,
        NBCROW_TOKEN if nbc_ok => true,
        _ => return None,
    };
    if columns.is_empty() {
        return None;
    }
    let bitmap = if nbc {
        take(&mut rest, columns.len().div_ceil(8))?
    } else {
        &[]
    };
    let (words_at, text_at) = (tape.words.len(), tape.text.len());
    tape.put(&[ROW, u32::from(nbc), columns.len() as u32]);
    for (i, column) in columns.iter().enumerate() {
        if nbc && bitmap[i / 8] & (1 << (i % 8)) != 0 {
            tape.push(NULL);
        } else if value(&mut rest, &column.type_info, tape, large, options).is_none() {
            tape.words.truncate(words_at);
            tape.text.truncate(text_at);
            return None;
        }
    }
    tape.push(ROW_END);
    Some(input.len() - rest.len())
}

/// Takes the next `n` bytes.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, tail) = rest.split_at_checked(n)?;
    *rest = tail;
    Some(head)
}

fn take_array<const N: usize>(rest: &mut &[u8]) -> Option<[u8; N]> {
    take(rest, N)?.try_into().ok()
}

/// Frames, checks and writes one value.
fn value(
    rest: &mut &[u8],
    ti: &TypeInfo<'_>,
    tape: &mut Tape<'_>,
    large: &mut Vec<u8>,
    options: ValueOptions,
) -> Option<()> {
    if ti.is_plp() {
        return plp(rest, ti, tape, large, options);
    }
    let data = match ti.data_type {
        DataType::TinyInt | DataType::Bit => Some(take(rest, 1)?),
        DataType::SmallInt => Some(take(rest, 2)?),
        DataType::Int | DataType::Real | DataType::SmallMoney | DataType::SmallDateTime => {
            Some(take(rest, 4)?)
        }
        DataType::BigInt | DataType::Float | DataType::Money | DataType::DateTime => {
            Some(take(rest, 8)?)
        }
        DataType::IntN
        | DataType::BitN
        | DataType::FloatN
        | DataType::MoneyN
        | DataType::DateTimeN
        | DataType::Guid
        | DataType::DecimalN
        | DataType::NumericN
        | DataType::Date
        | DataType::Time
        | DataType::DateTime2
        | DataType::DateTimeOffset => match take_array::<1>(rest)?[0] {
            0 => None,
            len => Some(take(rest, usize::from(len))?),
        },
        DataType::BigChar
        | DataType::BigVarChar
        | DataType::NChar
        | DataType::NVarChar
        | DataType::BigBinary
        | DataType::BigVarBinary => match u16::from_le_bytes(take_array(rest)?) {
            0xFFFF => None,
            len => Some(take(rest, usize::from(len))?),
        },
        _ => return None,
    };
    let value = Value::new(*ti, data)?;
    tape.push_value(&value, options);
    Some(())
}

/// Frames, checks and writes a PLP value: a total, chunks, a zero chunk.
fn plp(
    rest: &mut &[u8],
    ti: &TypeInfo<'_>,
    tape: &mut Tape<'_>,
    large: &mut Vec<u8>,
    options: ValueOptions,
) -> Option<()> {
    let total = u64::from_le_bytes(take_array(rest)?);
    if total == PLP_NULL {
        tape.push(NULL);
        return Some(());
    }
    large.clear();
    loop {
        let len = u32::from_le_bytes(take_array(rest)?);
        if len == 0 {
            break;
        }
        large.extend_from_slice(take(rest, len as usize)?);
    }
    if total != PLP_UNKNOWN && total != large.len() as u64 {
        return None;
    }
    let ucs2 = matches!(ti.data_type, DataType::NVarChar | DataType::Xml);
    if ucs2 && Ucs2Str::new(large).is_err() {
        return None;
    }
    tape.push_large(Some(*ti), large, options);
    Some(())
}
