//! A blocking HTTP/1.1 client just big enough to test the server: it reads
//! one response at a time, framed by its Content-Length.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// One response as read off the wire.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The `Connection` header, lowercased, if sent.
    pub connection: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// A client connection with a read buffer that survives between responses.
pub struct Client {
    /// The socket.
    pub stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    /// Connects to `addr`, with a 10 s read timeout so a test never hangs.
    pub fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("connect to the server");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Client {
            stream,
            buf: Vec::new(),
        }
    }

    /// Sends `GET path` and reads the response.
    pub fn get(&mut self, path: &str) -> Reply {
        self.send(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes());
        self.reply()
            .expect("a response")
            .expect("a response before the server closed")
    }

    /// Writes raw bytes.
    pub fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("send");
    }

    /// Reads the next response; `Ok(None)` if the server closed the
    /// connection cleanly before a response began.
    pub fn reply(&mut self) -> io::Result<Option<Reply>> {
        loop {
            let mut headers = [httparse::EMPTY_HEADER; 32];
            let mut response = httparse::Response::new(&mut headers);
            let parsed = response
                .parse(&self.buf)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            if let httparse::Status::Complete(head) = parsed {
                let header = |name: &str| {
                    response
                        .headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .map(|h| String::from_utf8_lossy(h.value).to_ascii_lowercase())
                };
                let length: usize = header("content-length")
                    .expect("every response has a Content-Length")
                    .parse()
                    .unwrap();
                let status = response.code.unwrap();
                let connection = header("connection");
                while self.buf.len() < head + length {
                    if self.fill()? == 0 {
                        return Err(io::ErrorKind::UnexpectedEof.into());
                    }
                }
                let body = self.buf[head..head + length].to_vec();
                self.buf.drain(..head + length);
                return Ok(Some(Reply {
                    status,
                    connection,
                    body,
                }));
            }
            if self.fill()? == 0 {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(io::ErrorKind::UnexpectedEof.into())
                };
            }
        }
    }

    /// Reads until the server closes; true if nothing more arrived.
    pub fn closed_by_server(&mut self) -> bool {
        matches!(self.fill(), Ok(0)) && self.buf.is_empty()
    }

    fn fill(&mut self) -> io::Result<usize> {
        let mut chunk = [0u8; 4096];
        let n = self.stream.read(&mut chunk)?;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n)
    }
}
