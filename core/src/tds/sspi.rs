use super::error::Result;

/// An SSPI token's body: an opaque security blob (an NTLM challenge, a
/// Kerberos token) for the client's security package [MS-TDS 2.2.7.22].
/// leanwire hands the bytes over; it does not parse NTLM.
///
/// ```
/// use leanwire_core::tds::Sspi;
///
/// let sspi = Sspi::parse(b"NTLMSSP\0")?;
/// assert_eq!(sspi.data, b"NTLMSSP\0");
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sspi<'a> {
    /// The security blob.
    pub data: &'a [u8],
}

impl<'a> Sspi<'a> {
    /// Reads a body (after the length field). Any bytes are valid.
    pub fn parse(body: &'a [u8]) -> Result<Sspi<'a>> {
        Ok(Sspi { data: body })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_bytes() {
        assert_eq!(Sspi::parse(&[]).unwrap().data, [0u8; 0]);
        assert_eq!(Sspi::parse(&[0xff, 0]).unwrap().data, [0xff, 0]);
    }
}
