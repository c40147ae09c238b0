//! The registries of DNS code points, each an enum that keeps unknown values.

/// Defines a registry enum with an `Unknown(n)` variant, `From` both ways,
/// its mnemonics, and `Display`/`FromStr`-style lookup.
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty, unknown = $unknown:literal {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A value with no mnemonic here; kept so it survives a round trip.
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
            /// The registered mnemonic, or `None` for an unknown value.
            pub const fn mnemonic(self) -> Option<&'static str> {
                match self {
                    $($name::$variant => Some($text),)*
                    $name::Unknown(_) => None,
                }
            }

            /// Looks a value up by its mnemonic (ASCII case ignored) or by the
            #[doc = concat!("generic `", $unknown, "N` form.")]
            pub fn from_mnemonic(text: &str) -> Option<Self> {
                $(if text.eq_ignore_ascii_case($text) { return Some($name::$variant); })*
                let digits = text.get(..$unknown.len())
                    .filter(|p| p.eq_ignore_ascii_case($unknown))
                    .and_then(|_| text.get($unknown.len()..))?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits.parse::<$repr>().ok().map(Self::from)
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.mnemonic() {
                    Some(text) => f.write_str(text),
                    None => write!(f, concat!($unknown, "{}"), <$repr>::from(*self)),
                }
            }
        }
    };
}

pub(crate) use registry;
