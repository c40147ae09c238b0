//! The backend for an OS that is neither unix nor Windows: every call
//! returns `io::ErrorKind::Unsupported`, never a silent empty answer.

pub(crate) mod dns {
    use std::convert::Infallible;
    use std::io;
    use std::iter;
    use std::marker::PhantomData;
    use std::net::SocketAddr;

    /// Never built: [`AddrInfoList::lookup`] always fails.
    pub(crate) struct AddrInfoList(Infallible);

    impl AddrInfoList {
        pub(crate) fn lookup(_host: &str, _canonical_name: bool) -> io::Result<AddrInfoList> {
            Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "host-name resolution has no backend on this OS",
            ))
        }

        pub(crate) fn addrs(&self) -> iter::Empty<SocketAddr> {
            match self.0 {}
        }

        pub(crate) fn canonical_name(&self) -> Option<CanonicalName<'_>> {
            match self.0 {}
        }
    }

    /// Never built, like [`AddrInfoList`].
    pub(crate) struct CanonicalName<'a>(Infallible, PhantomData<&'a ()>);

    impl CanonicalName<'_> {
        pub(crate) fn to_string_lossy(&self) -> String {
            match self.0 {}
        }
    }
}

pub(crate) mod fs {
    use std::io;
    use std::path::Path;

    fn unsupported() -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            "directory operations have no backend on this OS",
        )
    }

    pub(crate) fn create_dir_all(_path: &Path) -> io::Result<()> {
        Err(unsupported())
    }

    pub(crate) fn create_dir(_path: &Path) -> io::Result<()> {
        Err(unsupported())
    }

    pub(crate) fn remove_file(_path: &Path) -> io::Result<()> {
        Err(unsupported())
    }

    pub(crate) fn remove_dir_all(_path: &Path) -> io::Result<()> {
        Err(unsupported())
    }
}

pub(crate) mod net {
    use std::convert::Infallible;
    use std::io;
    use std::net::SocketAddr;
    use std::sync::Arc;

    use crate::http::{Handler, Shared};

    fn unsupported() -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            "the HTTP server has no backend on this OS",
        )
    }

    /// Never built: [`Listener::bind`] always fails.
    pub(crate) struct Listener(Infallible);

    impl Listener {
        pub(crate) fn bind(_addr: SocketAddr, _send_buffer: Option<usize>) -> io::Result<Listener> {
            Err(unsupported())
        }

        pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
            match self.0 {}
        }
    }

    /// Never built, like [`Listener`].
    pub(crate) struct Inbox(Infallible);

    impl Inbox {
        pub(crate) fn for_workers(_workers: usize) -> io::Result<Vec<Arc<Inbox>>> {
            Err(unsupported())
        }

        pub(crate) fn wake(&self) {
            match self.0 {}
        }
    }

    /// Never built, like [`Listener`].
    pub(crate) struct Handed(Infallible);

    impl Handed {
        pub(crate) fn serve<H: Handler>(self, _shared: &Shared<H>) {
            match self.0 {}
        }
    }

    pub(crate) fn run<H: Handler>(
        listener: Listener,
        _index: usize,
        _shared: &Shared<H>,
    ) -> io::Result<()> {
        match listener.0 {}
    }
}
