//! Protocol registries: enums of code points that keep unknown values.

/// Defines a registry enum with an `Unknown(n)` variant, `From` both ways,
/// and a `const fn` named by the first argument that gives each known value
/// its registered text (`None` for an unknown one).
macro_rules! registry_enum {
    (
        $lookup:ident;
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
