//! The registries of TDS code points, each an enum that keeps unknown values.

/// Defines a registry enum (see [`crate::registry`]) with a `name` for
/// every known value, and `Display` (the name, or `0xNN`).
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal,)*
        }
    ) => {
        crate::registry::registry_enum! {
            name;
            $(#[$meta])*
            $vis enum $name: $repr {
                $($(#[$vmeta])* $variant = $value => $text,)*
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
