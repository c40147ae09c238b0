use super::code::registry;

registry! {
    /// A response code: the header's four bits, extended to twelve by EDNS
    /// [RFC 6895 §2.3, RFC 6891 §6.1.3].
    pub enum Rcode: u16, unknown = "RCODE" {
        /// No error.
        NoError = 0 => "NOERROR",
        /// The server could not read the query.
        FormErr = 1 => "FORMERR",
        /// The server failed.
        ServFail = 2 => "SERVFAIL",
        /// The name does not exist.
        NxDomain = 3 => "NXDOMAIN",
        /// The server does not implement this kind of query.
        NotImp = 4 => "NOTIMP",
        /// The server refuses to answer.
        Refused = 5 => "REFUSED",
        /// A name that should not exist does [RFC 2136].
        YxDomain = 6 => "YXDOMAIN",
        /// A record set that should not exist does [RFC 2136].
        YxRrset = 7 => "YXRRSET",
        /// A record set that should exist does not [RFC 2136].
        NxRrset = 8 => "NXRRSET",
        /// The server is not authoritative, or the request is not authorized [RFC 2136, RFC 8945].
        NotAuth = 9 => "NOTAUTH",
        /// A name is not in the zone [RFC 2136].
        NotZone = 10 => "NOTZONE",
        /// DSO type not implemented [RFC 8490].
        DsoTypeNi = 11 => "DSOTYPENI",
        /// The EDNS version is not supported [RFC 6891].
        BadVers = 16 => "BADVERS",
        /// The key is not recognized [RFC 8945].
        BadKey = 17 => "BADKEY",
        /// The signature is out of its time window [RFC 8945].
        BadTime = 18 => "BADTIME",
        /// Bad TKEY mode [RFC 2930].
        BadMode = 19 => "BADMODE",
        /// Duplicate key name [RFC 2930].
        BadName = 20 => "BADNAME",
        /// Algorithm not supported [RFC 2930].
        BadAlg = 21 => "BADALG",
        /// Bad truncation [RFC 8945].
        BadTrunc = 22 => "BADTRUNC",
        /// Bad or missing server cookie [RFC 7873].
        BadCookie = 23 => "BADCOOKIE",
    }
}
