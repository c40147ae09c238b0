use super::code::registry;

registry! {
    /// A resource record type [IANA DNS Parameters, "Resource Record (RR) TYPEs"].
    ///
    /// Printed as dig prints it; a type with no mnemonic here prints as
    /// `TYPE65534` [RFC 3597 §5].
    pub enum Rtype: u16, unknown = "TYPE", table = 64 {
        /// IPv4 address [RFC 1035].
        A = 1 => "A",
        /// Authoritative name server [RFC 1035].
        Ns = 2 => "NS",
        /// Canonical name [RFC 1035].
        Cname = 5 => "CNAME",
        /// Start of authority [RFC 1035].
        Soa = 6 => "SOA",
        /// Null RR [RFC 1035].
        Null = 10 => "NULL",
        /// Well-known services [RFC 1035].
        Wks = 11 => "WKS",
        /// Domain name pointer [RFC 1035].
        Ptr = 12 => "PTR",
        /// Host information [RFC 1035].
        Hinfo = 13 => "HINFO",
        /// Mailbox information [RFC 1035].
        Minfo = 14 => "MINFO",
        /// Mail exchange [RFC 1035].
        Mx = 15 => "MX",
        /// Text strings [RFC 1035].
        Txt = 16 => "TXT",
        /// Responsible person [RFC 1183].
        Rp = 17 => "RP",
        /// AFS database [RFC 1183].
        Afsdb = 18 => "AFSDB",
        /// Signature, obsolete [RFC 2535].
        Sig = 24 => "SIG",
        /// Key, obsolete [RFC 2535].
        Key = 25 => "KEY",
        /// IPv6 address [RFC 3596].
        Aaaa = 28 => "AAAA",
        /// Location [RFC 1876].
        Loc = 29 => "LOC",
        /// Service locator [RFC 2782].
        Srv = 33 => "SRV",
        /// Naming authority pointer [RFC 3403].
        Naptr = 35 => "NAPTR",
        /// Key exchanger [RFC 2230].
        Kx = 36 => "KX",
        /// Certificate [RFC 4398].
        Cert = 37 => "CERT",
        /// Delegation name [RFC 6672].
        Dname = 39 => "DNAME",
        /// EDNS(0) pseudo-record [RFC 6891].
        Opt = 41 => "OPT",
        /// Address prefix list [RFC 3123].
        Apl = 42 => "APL",
        /// Delegation signer [RFC 4034].
        Ds = 43 => "DS",
        /// SSH key fingerprint [RFC 4255].
        Sshfp = 44 => "SSHFP",
        /// IPsec key [RFC 4025].
        Ipseckey = 45 => "IPSECKEY",
        /// DNSSEC signature [RFC 4034].
        Rrsig = 46 => "RRSIG",
        /// Next secure record [RFC 4034].
        Nsec = 47 => "NSEC",
        /// DNS public key [RFC 4034].
        Dnskey = 48 => "DNSKEY",
        /// DHCP identifier [RFC 4701].
        Dhcid = 49 => "DHCID",
        /// Hashed next secure record [RFC 5155].
        Nsec3 = 50 => "NSEC3",
        /// NSEC3 parameters [RFC 5155].
        Nsec3param = 51 => "NSEC3PARAM",
        /// TLS association [RFC 6698].
        Tlsa = 52 => "TLSA",
        /// S/MIME association [RFC 8162].
        Smimea = 53 => "SMIMEA",
        /// Host identity protocol [RFC 8005].
        Hip = 55 => "HIP",
        /// Child DS [RFC 7344].
        Cds = 59 => "CDS",
        /// Child DNSKEY [RFC 7344].
        Cdnskey = 60 => "CDNSKEY",
        /// OpenPGP key [RFC 7929].
        Openpgpkey = 61 => "OPENPGPKEY",
        /// Child-to-parent synchronization [RFC 7477].
        Csync = 62 => "CSYNC",
        /// Message digest for a zone [RFC 8976].
        Zonemd = 63 => "ZONEMD",
        /// Service binding [RFC 9460].
        Svcb = 64 => "SVCB",
        /// HTTPS service binding [RFC 9460].
        Https = 65 => "HTTPS",
        /// Sender policy framework, obsolete [RFC 7208].
        Spf = 99 => "SPF",
        /// EUI-48 address [RFC 7043].
        Eui48 = 108 => "EUI48",
        /// EUI-64 address [RFC 7043].
        Eui64 = 109 => "EUI64",
        /// Transaction key [RFC 2930].
        Tkey = 249 => "TKEY",
        /// Transaction signature [RFC 8945].
        Tsig = 250 => "TSIG",
        /// Incremental zone transfer [RFC 1995].
        Ixfr = 251 => "IXFR",
        /// Zone transfer [RFC 1035].
        Axfr = 252 => "AXFR",
        /// Any type, in a question [RFC 1035, RFC 8482].
        Any = 255 => "ANY",
        /// Uniform resource identifier [RFC 7553].
        Uri = 256 => "URI",
        /// Certification authority authorization [RFC 8659].
        Caa = 257 => "CAA",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_gives_what_the_match_does() {
        for value in 0..=u16::MAX {
            let rtype = Rtype::from(value);
            assert_eq!(rtype, Rtype::from_code(value), "{value}");
            assert_eq!(u16::from(rtype), value);
        }
        assert_eq!(Rtype::from(28), Rtype::Aaaa);
        assert_eq!(Rtype::from(63), Rtype::Zonemd);
        assert_eq!(Rtype::from(64), Rtype::Svcb);
        assert_eq!(Rtype::from(58), Rtype::Unknown(58));
    }
}
