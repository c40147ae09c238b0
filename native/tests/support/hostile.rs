//! Hostile DNS servers for the stub resolver's tests: each listens on
//! 127.0.0.1 on a port of its own, runs on threads the test starts, and
//! stops when dropped.
//!
//! A server answers each query with what its `respond` function makes of
//! it: any number of messages (none, forgeries, garbage, a real answer), in
//! order. The helpers below build those messages from the query's bytes.

#![allow(dead_code, reason = "each test file uses the servers it needs")]

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// What a server sends back for one query, message by message.
pub type Respond = fn(&[u8]) -> Vec<Vec<u8>>;

/// How often a server's threads look at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// A server on its own thread.
pub struct Server {
    addr: SocketAddr,
    queries: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// A UDP server: each message of `respond(query)` is one datagram.
    pub fn udp(respond: Respond) -> Server {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        socket.set_read_timeout(Some(POLL)).unwrap();
        let addr = socket.local_addr().unwrap();
        Server::spawn(addr, move |queries, stop| {
            let mut buf = [0u8; 4096];
            while !stop.load(Ordering::Relaxed) {
                let Ok((n, from)) = socket.recv_from(&mut buf) else {
                    continue;
                };
                queries.fetch_add(1, Ordering::Relaxed);
                for message in respond(&buf[..n]) {
                    let _ = socket.send_to(&message, from);
                }
            }
        })
    }

    /// A TCP server: each message of `respond(query)` goes out with its
    /// two-byte length. With `pace`, the bytes go one at a time, `pace`
    /// apart: a server that trickles.
    pub fn tcp(respond: Respond, pace: Option<Duration>) -> Server {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        Server::spawn(addr, move |queries, stop| {
            let mut connections = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (queries, stop) = (Arc::clone(&queries), Arc::clone(&stop));
                        connections.push(thread::spawn(move || {
                            serve_tcp(stream, respond, pace, &queries, &stop);
                        }));
                    }
                    Err(_) => thread::sleep(POLL),
                }
            }
            for connection in connections {
                let _ = connection.join();
            }
        })
    }

    fn spawn(
        addr: SocketAddr,
        run: impl FnOnce(Arc<AtomicUsize>, Arc<AtomicBool>) + Send + 'static,
    ) -> Server {
        let queries = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (queries, stop) = (Arc::clone(&queries), Arc::clone(&stop));
            thread::spawn(move || run(queries, stop))
        };
        Server {
            addr,
            queries,
            stop,
            thread: Some(thread),
        }
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many queries have reached it.
    pub fn queries(&self) -> usize {
        self.queries.load(Ordering::Relaxed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads queries off one connection and answers each, until the client
/// leaves or the server stops.
fn serve_tcp(
    mut stream: TcpStream,
    respond: Respond,
    pace: Option<Duration>,
    queries: &AtomicUsize,
    stop: &AtomicBool,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(POLL));
    loop {
        let Some(query) = read_framed(&mut stream, stop) else {
            return;
        };
        queries.fetch_add(1, Ordering::Relaxed);
        for message in respond(&query) {
            let mut framed = (message.len() as u16).to_be_bytes().to_vec();
            framed.extend_from_slice(&message);
            let sent = match pace {
                None => stream.write_all(&framed).is_ok(),
                Some(pace) => framed.iter().all(|&byte| {
                    sleep_unless_stopped(pace, stop) && stream.write_all(&[byte]).is_ok()
                }),
            };
            if !sent {
                return;
            }
        }
    }
}

/// One length-prefixed message; `None` once the client is gone or the
/// server stops.
fn read_framed(stream: &mut TcpStream, stop: &AtomicBool) -> Option<Vec<u8>> {
    let mut len = [0u8; 2];
    read_full(stream, &mut len, stop)?;
    let mut message = vec![0u8; usize::from(u16::from_be_bytes(len))];
    read_full(stream, &mut message, stop)?;
    Some(message)
}

fn read_full(stream: &mut TcpStream, mut buf: &mut [u8], stop: &AtomicBool) -> Option<()> {
    while !buf.is_empty() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        match stream.read(buf) {
            Ok(0) => return None,
            Ok(n) => buf = &mut buf[n..],
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return None,
        }
    }
    Some(())
}

/// Sleeps for `time`, in steps, and says whether the server is still running.
fn sleep_unless_stopped(time: Duration, stop: &AtomicBool) -> bool {
    let mut left = time;
    while !left.is_zero() {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let step = left.min(POLL);
        thread::sleep(step);
        left -= step;
    }
    !stop.load(Ordering::Relaxed)
}

/// The length of the query's question section (one question), from byte 12.
fn question_len(query: &[u8]) -> usize {
    let mut at = 12;
    while query[at] != 0 {
        at += 1 + usize::from(query[at]);
    }
    at + 1 + 4 - 12
}

/// The rcode SERVFAIL.
pub const SERVFAIL: u8 = 2;
/// The rcode REFUSED.
pub const REFUSED: u8 = 5;

/// A response to `query` with `rcode` and, if given, one A record for the
/// question's name: the query's ID and question, QR, RD and RA set.
pub fn reply(query: &[u8], rcode: u8, address: Option<Ipv4Addr>) -> Vec<u8> {
    let question = &query[12..12 + question_len(query)];
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(&query[..2]);
    out.extend_from_slice(&[0x81, 0x80 | rcode]);
    out.extend_from_slice(&1u16.to_be_bytes());
    out.extend_from_slice(&u16::from(address.is_some()).to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(question);
    if let Some(address) = address {
        // The owner is a pointer to the question's name; type A, class IN.
        out.extend_from_slice(&[0xc0, 12, 0, 1, 0, 1]);
        out.extend_from_slice(&300u32.to_be_bytes());
        out.extend_from_slice(&4u16.to_be_bytes());
        out.extend_from_slice(&address.octets());
    }
    out
}

/// An answer to `query` with `address`.
pub fn answer(query: &[u8], address: Ipv4Addr) -> Vec<u8> {
    reply(query, 0, Some(address))
}

/// `message` with another ID.
pub fn other_id(mut message: Vec<u8>) -> Vec<u8> {
    message[0] ^= 0x5a;
    message
}

/// `message` with its question's first letter changed: an answer to
/// another name.
pub fn other_name(mut message: Vec<u8>) -> Vec<u8> {
    message[13] = if message[13] == b'x' { b'y' } else { b'x' };
    message
}

/// `message` with the question but nothing after it, though the header
/// still counts the answer: the query's ID, and malformed.
pub fn cut_short(mut message: Vec<u8>) -> Vec<u8> {
    message.truncate(12 + question_len(&message) - 2);
    message
}

/// `message` with QR cleared: it reads as a query, not a response.
pub fn no_qr(mut message: Vec<u8>) -> Vec<u8> {
    message[2] &= !0x80;
    message
}

/// The requestor's payload size in the OPT record that ends `query`, and
/// whether its DO bit is set.
pub fn edns_of(query: &[u8]) -> Option<(u16, bool)> {
    match query {
        // Root owner, type OPT (41), class = payload size, TTL, empty RDATA.
        [.., 0, 0, 41, hi, lo, _, _, flags, _, 0, 0] => {
            Some((u16::from_be_bytes([*hi, *lo]), flags & 0x80 != 0))
        }
        _ => None,
    }
}
