//! How a whole row reads one column's values: the column's framing, the
//! lengths that fit its type and the check its values need, decided once
//! per result set from its TYPE_INFO rather than matched on its data type
//! for every value.

use crate::tds::colmetadata::Column;
use crate::tds::type_info::{Layout, Lengths, TypeInfo};
use crate::tds::ucs2::Ucs2Str;
use crate::tds::value::{check_value, is_checked};

/// One column's reading plan for [`whole_row`](super::whole_row).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// How a value is framed.
    pub(super) layout: Layout,
    /// The lengths a non-NULL value may have.
    lengths: Lengths,
    /// What a value's bytes are checked for.
    check: Check,
}

/// What a value's bytes are checked for once framed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Check {
    /// Nothing: every byte string of a length that fits is a value.
    None,
    /// UCS-2 text.
    Ucs2,
    /// What [`check_value`] checks: decimals, dates, times and SQL_VARIANT.
    Value,
}

/// How many columns of a result set the reader keeps plans for; whole
/// rows make the plans of the columns after these as they read them.
const PLANNED: usize = 32;

/// The plans of the first [`PLANNED`] columns of a result set, kept by the
/// reader and made on the result set's first whole row.
#[derive(Clone, Debug)]
pub(super) struct Plans {
    /// The reader generation whose columns the plans are for (0: none).
    generation: u32,
    plans: [Plan; PLANNED],
}

impl Plans {
    /// No plans yet.
    pub(super) const fn new() -> Plans {
        Plans {
            generation: 0,
            plans: [Plan::UNMADE; PLANNED],
        }
    }

    /// The plans of `columns`, the columns of reader generation
    /// `generation`, as far as they are kept.
    pub(super) fn of(&mut self, generation: u32, columns: &[Column<'_>]) -> &[Plan] {
        if self.generation != generation {
            for (plan, column) in self.plans.iter_mut().zip(columns) {
                *plan = Plan::new(&column.type_info);
            }
            self.generation = generation;
        }
        &self.plans[..columns.len().min(PLANNED)]
    }
}

impl Plan {
    /// A plan not made yet: it reads no value.
    pub(super) const UNMADE: Plan = Plan {
        layout: Layout::Text,
        lengths: Lengths::NONE,
        check: Check::None,
    };

    /// The plan for values of `type_info`.
    pub(super) fn new(type_info: &TypeInfo<'_>) -> Plan {
        let check = if type_info.data_type.is_ucs2() {
            Check::Ucs2
        } else if is_checked(type_info.data_type) {
            Check::Value
        } else {
            Check::None
        };
        Plan {
            layout: type_info.layout(),
            lengths: type_info.lengths(),
            check,
        }
    }

    /// Whether a non-NULL value of `len` bytes fits the type.
    pub(super) const fn len_ok(&self, len: u64) -> bool {
        self.lengths.fits(len)
    }

    /// Whether values are UCS-2 text, checked as such.
    pub(super) const fn checks_ucs2(&self) -> bool {
        matches!(self.check, Check::Ucs2)
    }

    /// Whether values pass the type's own check ([`check_value`]) once
    /// whole.
    pub(super) const fn checks_value(&self) -> bool {
        matches!(self.check, Check::Value)
    }

    /// Whether `data`, a value of the right length, passes the checks the
    /// reader's steps make: UCS-2 for text, and [`check_value`].
    pub(super) fn data_ok(&self, type_info: &TypeInfo<'_>, data: &[u8]) -> bool {
        match self.check {
            Check::None => true,
            Check::Ucs2 => Ucs2Str::new(data).is_ok(),
            Check::Value => check_value(type_info, data).is_ok(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::type_info::every_type_info;

    #[test]
    fn data_ok_is_the_steps_checks() {
        let samples: [&[u8]; 8] = [
            &[],
            &[0],
            &[1, 2, 3, 4],
            &[2, 0, 0, 0, 0],
            &[0x00, 0xd8, 0x41, 0x00],
            &[0xff; 8],
            &[0x3d, 0xd8, 0x00, 0xde],
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ];
        for ti in every_type_info() {
            let plan = Plan::new(&ti);
            for data in samples {
                let ucs2 = !ti.data_type.is_ucs2() || Ucs2Str::new(data).is_ok();
                let steps = ucs2 && check_value(&ti, data).is_ok();
                assert_eq!(plan.data_ok(&ti, data), steps, "{ti:?}, {data:?}");
            }
        }
    }
}
