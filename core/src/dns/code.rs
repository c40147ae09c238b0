//! The registries of DNS code points, each an enum that keeps unknown values.

/// Defines a registry enum (see [`crate::registry`], which says what
/// `table = N` does) with its `mnemonic`s, lookup by mnemonic, and `Display`
/// (the mnemonic, or the generic form).
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty, unknown = $unknown:literal $(, table = $table:literal)? {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal,)*
        }
    ) => {
        crate::registry::registry_enum! {
            mnemonic $(, table = $table)?;
            $(#[$meta])*
            $vis enum $name: $repr {
                $($(#[$vmeta])* $variant = $value => $text,)*
            }
        }

        impl $name {
            /// Looks a value up by its mnemonic (ASCII case ignored) or by the
            #[doc = concat!("generic `", $unknown, "N` form.")]
            pub fn from_mnemonic(text: &str) -> Option<Self> {
                // A loop over one table, not a comparison per mnemonic, keeps
                // the code small: the npm package carries it.
                const MNEMONICS: &[(&str, $name)] = &[$(($text, $name::$variant),)*];
                if let Some((_, value)) = MNEMONICS.iter().find(|(t, _)| text.eq_ignore_ascii_case(t)) {
                    return Some(*value);
                }
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
