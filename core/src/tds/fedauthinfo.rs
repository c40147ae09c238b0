use super::bytes::Cur;
use super::code::registry;
use super::error::{ErrorKind, Result, Site};
use super::token::TokenType;
use super::ucs2::Ucs2Str;

registry! {
    /// A FEDAUTHINFO option id [MS-TDS 2.2.7.12].
    pub enum FedAuthInfoId: u8 {
        /// The token endpoint URL for the access token (STSURL).
        StsUrl = 1 => "STSURL",
        /// The service principal name (SPN).
        Spn = 2 => "SPN",
    }
}

/// One FEDAUTHINFO option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FedAuthOption<'a> {
    /// What the data is.
    pub id: FedAuthInfoId,
    /// The data (UCS-2 text for the known ids).
    pub data: &'a [u8],
}

/// A FEDAUTHINFO token's body [MS-TDS 2.2.7.12]: a count of options, a
/// table of {id, length, offset}, and the data the offsets point into
/// (offsets count from the start of the body, after TokenLength).
///
/// No encoder: a client never sends this token.
///
/// ```
/// use leanwire_core::tds::FedAuthInfo;
///
/// let body = [1, 0, 0, 0, 2, 2, 0, 0, 0, 13, 0, 0, 0, b'x', 0];
/// let info = FedAuthInfo::parse(&body)?;
/// assert!(info.spn().unwrap() == "x" && info.sts_url().is_none());
/// # Ok::<(), leanwire_core::tds::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FedAuthInfo<'a> {
    body: &'a [u8],
    count: u32,
}

impl<'a> FedAuthInfo<'a> {
    /// Reads a body (after the u32 TokenLength), checking that every
    /// option's data lies inside it and that the known ids hold UCS-2 text.
    pub fn parse(body: &'a [u8]) -> Result<FedAuthInfo<'a>> {
        let mut cur = Cur::new(body, Site::token(TokenType::FedAuthInfo));
        let count = cur.u32()?;
        if u64::from(count) * 9 > (body.len() as u64).saturating_sub(4) {
            return Err(cur.error(ErrorKind::LengthOverflow, 0));
        }
        for _ in 0..count {
            let at = cur.at();
            let id = FedAuthInfoId::from(cur.u8()?);
            let len = cur.u32()? as usize;
            let offset = cur.u32()? as usize;
            let data = offset
                .checked_add(len)
                .and_then(|end| body.get(offset..end))
                .ok_or_else(|| cur.error(ErrorKind::LengthOverflow, at + 5))?;
            if !matches!(id, FedAuthInfoId::Unknown(_)) {
                Ucs2Str::new(data).map_err(|e| cur.error(ErrorKind::InvalidUcs2, offset + e))?;
            }
        }
        Ok(FedAuthInfo { body, count })
    }

    /// The options, in order.
    pub fn options(&self) -> impl Iterator<Item = FedAuthOption<'a>> + 'a {
        let body = self.body;
        (0..self.count as usize).filter_map(move |i| {
            let entry = body.get(4 + i * 9..4 + i * 9 + 9)?;
            let len = u32::from_le_bytes(entry[1..5].try_into().ok()?) as usize;
            let offset = u32::from_le_bytes(entry[5..9].try_into().ok()?) as usize;
            Some(FedAuthOption {
                id: FedAuthInfoId::from(entry[0]),
                data: body.get(offset..offset.checked_add(len)?)?,
            })
        })
    }

    fn text(&self, id: FedAuthInfoId) -> Option<Ucs2Str<'a>> {
        let option = self.options().find(|o| o.id == id)?;
        Ucs2Str::new(option.data).ok()
    }

    /// The service principal name.
    pub fn spn(&self) -> Option<Ucs2Str<'a>> {
        self.text(FedAuthInfoId::Spn)
    }

    /// The token endpoint URL.
    pub fn sts_url(&self) -> Option<Ucs2Str<'a>> {
        self.text(FedAuthInfoId::StsUrl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::Error;

    #[test]
    fn offsets_outside_the_token() {
        let site = Site::token(TokenType::FedAuthInfo);
        let body = [1, 0, 0, 0, 2, 2, 0, 0, 0, 14, 0, 0, 0, b'x', 0];
        assert_eq!(
            FedAuthInfo::parse(&body).unwrap_err(),
            Error::new(ErrorKind::LengthOverflow(site), 9)
        );
        // A count the body cannot hold.
        assert_eq!(
            FedAuthInfo::parse(&[0xff, 0xff, 0xff, 0xff]).unwrap_err(),
            Error::new(ErrorKind::LengthOverflow(site), 0)
        );
        // Two options need 18 bytes of entries; 17 follow the count.
        let mut short = [0; 21];
        short[0] = 2;
        assert_eq!(
            FedAuthInfo::parse(&short).unwrap_err(),
            Error::new(ErrorKind::LengthOverflow(site), 0)
        );
    }

    #[test]
    fn entries_that_fill_the_body_exactly() {
        // One SPN entry of no text, its data at the body's very end.
        let body = [1, 0, 0, 0, 2, 0, 0, 0, 0, 13, 0, 0, 0];
        let info = FedAuthInfo::parse(&body).unwrap();
        assert!(info.spn().unwrap().is_empty());
        assert!(info.sts_url().is_none());
    }

    #[test]
    fn two_options_in_order_each_with_its_own_data() {
        #[rustfmt::skip]
        let body = [
            2, 0, 0, 0,
            1, 4, 0, 0, 0, 22, 0, 0, 0,
            0x7f, 3, 0, 0, 0, 26, 0, 0, 0,
            b'u', 0, b'r', 0,
            0xaa, 0xbb, 0xcc,
        ];
        let info = FedAuthInfo::parse(&body).unwrap();
        let options = info.options().collect::<std::vec::Vec<_>>();
        assert_eq!(options.len(), 2);
        assert_eq!(options[0].id, FedAuthInfoId::StsUrl);
        assert_eq!(options[0].data, b"u\0r\0");
        assert_eq!(options[1].id, FedAuthInfoId::Unknown(0x7f));
        assert_eq!(options[1].data, [0xaa, 0xbb, 0xcc]);
        assert!(info.sts_url().unwrap() == "ur");
        assert!(info.spn().is_none());
    }

    #[test]
    fn only_known_ids_must_hold_text() {
        let site = Site::token(TokenType::FedAuthInfo);
        // An SPN whose second unit is a lone low surrogate, its data at 14.
        let mut body = [
            1, 0, 0, 0, 2, 4, 0, 0, 0, 14, 0, 0, 0, 0, b'a', 0, 0x00, 0xdc,
        ];
        assert_eq!(
            FedAuthInfo::parse(&body).unwrap_err(),
            Error::new(ErrorKind::InvalidUcs2(site), 16)
        );
        // The same bytes under an id leanwire does not know are kept as they are.
        body[4] = 0x7f;
        let info = FedAuthInfo::parse(&body).unwrap();
        assert_eq!(info.options().next().unwrap().data, [b'a', 0, 0x00, 0xdc]);
    }
}
