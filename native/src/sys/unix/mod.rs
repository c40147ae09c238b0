//! The unix backend: `libc` calls behind safe wrappers.

/// Calls `libc::$fn`, turning the `-1` that most system calls return on
/// failure into `io::Error::last_os_error()` (that is, `errno`).
///
/// The call is `unsafe`: every use needs its own `// SAFETY:` comment on why
/// the arguments are valid for that function. `getaddrinfo` does not fit this
/// pattern (it returns its own `EAI_*` codes, see `dns.rs`).
macro_rules! syscall {
    ($fn:ident ( $($arg:expr),* $(,)? )) => {{
        // SAFETY: the caller of `syscall!` vouches for the arguments.
        let res = unsafe { libc::$fn($($arg),*) };
        if res == -1 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(res)
        }
    }};
}

pub(crate) mod dns;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) mod fs;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) use super::unsupported::fs;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) mod net;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) use super::unsupported::net;

#[cfg(test)]
mod tests {
    #[test]
    fn minus_one_becomes_errno() {
        // SAFETY: `close` on a descriptor that cannot be open touches nothing.
        let err = syscall!(close(-1)).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::EBADF));
    }

    #[test]
    fn other_results_pass_through() {
        // SAFETY: `getpid` takes no arguments and cannot fail.
        let pid = syscall!(getpid()).unwrap();
        assert_eq!(u32::try_from(pid).ok(), Some(std::process::id()));
    }
}
