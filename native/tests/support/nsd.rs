//! A loopback NSD for the DNS integration tests: started on 127.0.0.1 on a
//! free port with the zones in `tests/nsd/`, stopped when dropped.
//!
//! `scripts/setup` installs NSD. Without it, starting fails, saying so.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use leanwire_native::core::dns::Rtype;
use leanwire_native::stub::StubResolver;

/// A running NSD serving `tests/nsd/*.zone*`.
pub struct Nsd {
    dir: PathBuf,
    port: u16,
}

impl Nsd {
    /// Starts NSD and waits until it answers.
    pub fn start() -> Nsd {
        let status = Command::new("nsd").arg("-v").output();
        assert!(
            status.is_ok(),
            "NSD is not installed (scripts/setup installs it with apt-get install nsd)"
        );
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("leanwire-nsd-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let zones = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nsd");
        for entry in std::fs::read_dir(&zones).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if name.ends_with(".zone") || name.ends_with(".zone.signed") {
                std::fs::copy(&path, dir.join(&name)).unwrap();
            }
        }
        let conf = std::fs::read_to_string(zones.join("nsd.conf"))
            .unwrap()
            .replace("@DIR@", dir.to_str().unwrap())
            .replace("port: 5353", &format!("port: {port}"));
        let conf_path = dir.join("nsd.conf");
        std::fs::write(&conf_path, conf).unwrap();
        let checked = Command::new("nsd-checkconf")
            .arg(&conf_path)
            .status()
            .unwrap();
        assert!(
            checked.success(),
            "nsd-checkconf refused {}",
            conf_path.display()
        );
        let started = Command::new("nsd")
            .arg("-c")
            .arg(&conf_path)
            .status()
            .unwrap();
        assert!(
            started.success(),
            "nsd did not start; see {}",
            dir.join("nsd.log").display()
        );
        let nsd = Nsd { dir, port };
        // NSD answers once it has loaded the zones.
        let deadline = Instant::now() + Duration::from_secs(10);
        while nsd
            .resolver()
            .timeout(Duration::from_millis(200))
            .query_sync("example.test", Rtype::Soa)
            .is_err()
        {
            assert!(
                Instant::now() < deadline,
                "NSD on port {port} did not answer within 10 s"
            );
        }
        nsd
    }

    /// Where NSD listens, UDP and TCP.
    pub fn address(&self) -> SocketAddr {
        (Ipv4Addr::LOCALHOST, self.port).into()
    }

    /// A resolver that asks only this NSD, without asking it to recurse.
    pub fn resolver(&self) -> StubResolver {
        StubResolver::new([self.address()]).recursion_desired(false)
    }
}

impl Drop for Nsd {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("nsd.pid")) {
            let pid = pid.trim();
            let _ = Command::new("kill").arg(pid).status();
            // NSD writes xfrd.state as it exits: wait for that, or the
            // directory is left behind.
            let deadline = Instant::now() + Duration::from_secs(5);
            let alive = || {
                Command::new("kill")
                    .args(["-0", pid])
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            };
            while Instant::now() < deadline && alive() {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A port that was free a moment ago, for UDP and TCP.
#[allow(
    dead_code,
    reason = "used by some of the test files that include this module"
)]
pub fn free_port() -> u16 {
    loop {
        let udp = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = udp.local_addr().unwrap().port();
        if std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return port;
        }
    }
}
