//! Protocol registries: enums of code points that keep unknown values.

/// Defines a registry enum with an `Unknown(n)` variant, `From` both ways,
/// and a `const fn` named by the first argument that gives each known value
/// its registered text (`None` for an unknown one).
///
/// `table = N` after the name makes `From` read the values below `N` from a
/// table rather than through a `match`: a load where the match would jump
/// through a table of code addresses, whose target a branch predictor
/// guesses badly when the values vary, as the types of a DNS message's
/// records do.
macro_rules! registry_enum {
    (
        $lookup:ident $(, table = $table:literal)?;
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A value with no name here; kept so it survives a round trip.
            Unknown($repr),
        }

        impl From<$repr> for $name {
            // Natively the table's load is inlined into the caller; in
            // WebAssembly one copy of each conversion keeps the package small.
            #[cfg_attr(not(target_family = "wasm"), inline)]
            fn from(value: $repr) -> Self {
                $(
                    const TABLE: [$name; $table] = {
                        let mut table = [$name::Unknown(0); $table];
                        let mut i = 0;
                        while i < $table {
                            table[i] = $name::from_code(i as $repr);
                            i += 1;
                        }
                        table
                    };
                    if let Some(&known) = TABLE.get(usize::from(value)) {
                        return known;
                    }
                )?
                Self::from_code(value)
            }
        }

        impl $name {
            /// The value for `value`: [`From`] in a `const` context.
            const fn from_code(value: $repr) -> Self {
                match value {
                    $($value => $name::$variant,)*
                    other => $name::Unknown(other),
                }
            }
        }

        impl From<$name> for $repr {
            fn from(value: $name) -> $repr {
                match value {
                    $($name::$variant => $value,)*
                    $name::Unknown(other) => other,
                }
            }
        }

        impl $name {
            /// The registered text of a known value, or `None` for an
            /// unknown one.
            pub const fn $lookup(self) -> Option<&'static str> {
                match self {
                    $($name::$variant => Some($text),)*
                    $name::Unknown(_) => None,
                }
            }
        }
    };
}

pub(crate) use registry_enum;
