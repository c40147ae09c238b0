//! The registries of TDS code points, each an enum that keeps unknown values.

/// Defines a registry enum with an `Unknown(n)` variant, `From` both ways,
/// a name for every known value, and `Display` (the name, or `0xNN`).
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A value with no name here; kept so it survives a round trip.
            Unknown($repr),
        }

        impl From<$repr> for $name {
            fn from(value: $repr) -> Self {
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
            /// The name of a known value, or `None` for an unknown one.
            pub const fn name(self) -> Option<&'static str> {
                match self {
                    $($name::$variant => Some($text),)*
                    $name::Unknown(_) => None,
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(text) => f.write_str(text),
                    None => write!(f, "0x{:02X}", <$repr>::from(*self)),
                }
            }
        }
    };
}

pub(crate) use registry;
