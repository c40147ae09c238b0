/// Which Akka implementation's grammar and printing rules to follow.
///
/// The two differ in what a path may look like and in a few printing rules.
/// See the module documentation for the list.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Akka.NET (`ActorPath.TryParse`, `Address.TryParse`). The default.
    #[default]
    DotNet,
    /// Akka JVM and Apache Pekko (`ActorPath.fromString`, built on `java.net.URI`).
    Jvm,
}

impl Dialect {
    /// The dialect's short name: `"dotnet"` or `"jvm"`.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::DotNet => "dotnet",
            Dialect::Jvm => "jvm",
        }
    }

    /// Looks a dialect up by its [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "dotnet" => Some(Dialect::DotNet),
            "jvm" => Some(Dialect::Jvm),
            _ => None,
        }
    }
}

impl core::fmt::Display for Dialect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
