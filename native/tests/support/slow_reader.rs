//! A client that pipelines requests and never reads the answers, and what
//! the kernel holds to send to it on the server's side (Linux's
//! `/proc/net/tcp`).

use std::io::Write;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::thread::{self, JoinHandle};
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

/// A connection that pipelines `GET /plaintext` from a thread of its own
/// and never reads a response.
pub struct SlowReader {
    stream: TcpStream,
    pipeliner: Option<JoinHandle<()>>,
}

impl SlowReader {
    /// Connects to `addr` and starts pipelining.
    pub fn connect(addr: SocketAddr) -> SlowReader {
        let stream = TcpStream::connect(addr).unwrap();
        let mut writer = stream.try_clone().unwrap();
        let batch = b"GET /plaintext HTTP/1.1\r\n\r\n".repeat(20_000);
        let pipeliner = thread::spawn(move || {
            // Fails once either side closes; until then it blocks when the
            // server stops reading.
            for _ in 0..50 {
                if writer.write_all(&batch).is_err() {
                    return;
                }
            }
        });
        SlowReader {
            stream,
            pipeliner: Some(pipeliner),
        }
    }

    /// Whether the pipelining has ended: the server closed the connection,
    /// as the pipeliner has far more to send than any buffer holds.
    pub fn is_closed(&self) -> bool {
        self.pipeliner.as_ref().is_none_or(JoinHandle::is_finished)
    }
}

impl Drop for SlowReader {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(pipeliner) = self.pipeliner.take() {
            let _ = pipeliner.join();
        }
    }
}

/// The most Linux holds to send on a connection whose `SO_SNDBUF` was set
/// to `send_buffer`. It doubles the value, and it checks the room left only
/// before it starts a packet, which it then fills: on loopback, up to 64 KiB.
#[cfg(target_os = "linux")]
pub fn send_queue_limit(send_buffer: usize) -> usize {
    2 * send_buffer + 64 * 1024
}

/// The bytes the kernel holds to send on the server's side of each
/// established connection to `addr`: the `tx_queue` of `/proc/net/tcp`.
#[cfg(target_os = "linux")]
pub fn server_send_queues(addr: SocketAddr) -> Vec<usize> {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let port = format!(":{:04X}", addr.port());
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (local, state, queues) = (fields[1], fields[3], fields[4]);
            (local.ends_with(&port) && state == "01").then(|| {
                let tx = queues.split_once(':').expect("tx_queue:rx_queue").0;
                usize::from_str_radix(tx, 16).expect("a hex tx_queue")
            })
        })
        .collect()
}

/// What the kernel holds to send to the one client of the server at
/// `addr`, once it has stayed the same for half a second.
#[cfg(target_os = "linux")]
pub fn settled_send_queue(addr: SocketAddr) -> usize {
    let deadline = Instant::now() + Duration::from_secs(20);
    let (mut last, mut steady) = (0, 0);
    while steady < 5 {
        assert!(Instant::now() < deadline, "the send queue kept changing");
        thread::sleep(Duration::from_millis(100));
        let queues = server_send_queues(addr);
        assert_eq!(queues.len(), 1, "one connection: {queues:?}");
        steady = if queues[0] == last && last > 0 {
            steady + 1
        } else {
            0
        };
        last = queues[0];
    }
    last
}
