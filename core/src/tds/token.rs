//! Token type bytes [MS-TDS 2.2.7].

use super::code::registry;

registry! {
    /// The byte that starts every token in a server's token stream [MS-TDS 2.2.4, 2.2.7].
    ///
    /// Printed with the spec's upper-case names (`COLMETADATA`, `DONEINPROC`);
    /// an unknown byte prints as `0xNN`.
    pub enum TokenType: u8 {
        /// Result set column metadata [MS-TDS 2.2.7.4].
        ColMetadata = 0x81 => "COLMETADATA",
        /// A row [MS-TDS 2.2.7.19].
        Row = 0xD1 => "ROW",
        /// A row with a null bitmap, 7.3+ [MS-TDS 2.2.7.15].
        NbcRow = 0xD2 => "NBCROW",
        /// End of a SQL statement [MS-TDS 2.2.7.6].
        Done = 0xFD => "DONE",
        /// End of a stored procedure [MS-TDS 2.2.7.8].
        DoneProc = 0xFE => "DONEPROC",
        /// End of a statement inside a stored procedure [MS-TDS 2.2.7.7].
        DoneInProc = 0xFF => "DONEINPROC",
        /// An error message [MS-TDS 2.2.7.10].
        Error = 0xAA => "ERROR",
        /// An informational message [MS-TDS 2.2.7.13].
        Info = 0xAB => "INFO",
        /// An environment change [MS-TDS 2.2.7.9].
        EnvChange = 0xE3 => "ENVCHANGE",
        /// Login acknowledgement [MS-TDS 2.2.7.14].
        LoginAck = 0xAD => "LOGINACK",
        /// A stored procedure's return status [MS-TDS 2.2.7.18].
        ReturnStatus = 0x79 => "RETURNSTATUS",
        /// An output parameter or UDF return value [MS-TDS 2.2.7.18].
        ReturnValue = 0xAC => "RETURNVALUE",
        /// The ORDER BY columns of a result set [MS-TDS 2.2.7.16].
        Order = 0xA9 => "ORDER",
        /// Feature extension acknowledgement, 7.4 [MS-TDS 2.2.7.11].
        FeatureExtAck = 0xAE => "FEATUREEXTACK",
        /// SSPI (integrated authentication) data [MS-TDS 2.2.7.22].
        Sspi = 0xED => "SSPI",
        /// Federated authentication information [MS-TDS 2.2.7.12].
        FedAuthInfo = 0xEE => "FEDAUTHINFO",
        /// Session state, 7.4 [MS-TDS 2.2.7.21].
        SessionState = 0xE4 => "SESSIONSTATE",
        /// Browse-mode table names [MS-TDS 2.2.7.23].
        TabName = 0xA4 => "TABNAME",
        /// Browse-mode column information [MS-TDS 2.2.7.3].
        ColInfo = 0xA5 => "COLINFO",
        /// Data classification, 7.4 with the feature acked [MS-TDS 2.2.7.5].
        DataClassification = 0xA3 => "DATACLASSIFICATION",
        /// COMPUTE BY metadata, gone since SQL Server 2012 [MS-TDS 2.2.7.1].
        AltMetadata = 0x88 => "ALTMETADATA",
        /// COMPUTE BY row, gone since SQL Server 2012 [MS-TDS 2.2.7.2].
        AltRow = 0xD3 => "ALTROW",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn unknown_token_bytes_round_trip() {
        for byte in 0..=255u8 {
            assert_eq!(u8::from(TokenType::from(byte)), byte);
        }
        assert_eq!(TokenType::from(0x12), TokenType::Unknown(0x12));
        assert_eq!(TokenType::from(0x12).to_string(), "0x12");
        assert_eq!(TokenType::DoneInProc.to_string(), "DONEINPROC");
    }
}
