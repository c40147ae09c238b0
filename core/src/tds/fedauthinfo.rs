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
    }
}
