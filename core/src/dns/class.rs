use super::code::registry;

registry! {
    /// A record class [RFC 1035 §3.2.4, RFC 6895]. Unknown classes print as
    /// `CLASS42` [RFC 3597 §5].
    pub enum Class: u16, unknown = "CLASS" {
        /// The Internet.
        In = 1 => "IN",
        /// Chaos.
        Ch = 3 => "CH",
        /// Hesiod.
        Hs = 4 => "HS",
        /// No class, in dynamic updates [RFC 2136].
        None = 254 => "NONE",
        /// Any class, in a question.
        Any = 255 => "ANY",
    }
}
