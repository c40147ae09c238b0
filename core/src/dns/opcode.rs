use super::code::registry;

registry! {
    /// The kind of query in a header [RFC 6895 §2.2].
    pub enum Opcode: u8, unknown = "OPCODE" {
        /// A standard query.
        Query = 0 => "QUERY",
        /// An inverse query, obsolete [RFC 3425].
        Iquery = 1 => "IQUERY",
        /// A server status request.
        Status = 2 => "STATUS",
        /// A zone change notification [RFC 1996].
        Notify = 4 => "NOTIFY",
        /// A dynamic update [RFC 2136].
        Update = 5 => "UPDATE",
        /// DNS stateful operations [RFC 8490].
        Dso = 6 => "DSO",
    }
}
