//! Runs a leanwire HTTP server on 127.0.0.1:0 in the test's own process.

use std::io;
use std::net::SocketAddr;
use std::thread::{self, JoinHandle};

use leanwire_native::http::{Config, Handler, HelloWorld, Server, ShutdownHandle};

/// A server running on its own threads; shut down and joined on drop.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Stops it.
    pub shutdown: ShutdownHandle,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Running {
    /// Binds `HelloWorld` with `config` on 127.0.0.1:0 and runs it.
    pub fn start(config: Config) -> Running {
        Running::with_handler(config, HelloWorld)
    }

    /// Binds `handler` with `config` on 127.0.0.1:0 and runs it.
    pub fn with_handler(config: Config, handler: impl Handler) -> Running {
        let server = Server::bind("127.0.0.1:0".parse().unwrap(), config, handler)
            .expect("bind 127.0.0.1:0");
        let addr = server.local_addr();
        let shutdown = server.shutdown_handle();
        Running {
            addr,
            shutdown,
            thread: Some(thread::spawn(move || server.run())),
        }
    }

    /// Shuts the server down and returns what `run` returned.
    pub fn stop(mut self) -> io::Result<()> {
        self.shutdown.shutdown();
        self.thread
            .take()
            .unwrap()
            .join()
            .expect("the server does not panic")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.shutdown.shutdown();
            let _ = thread.join();
        }
    }
}
