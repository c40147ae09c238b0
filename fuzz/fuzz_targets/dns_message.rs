//! `Message::parse` and everything reachable from it: no panic, errors point
//! into the message, every record prints.
#![no_main]

use core::fmt::Write;

use leanwire_core::dns::Message;
use libfuzzer_sys::fuzz_target;

/// Counts what is printed, so printing cannot be optimized away.
struct Sink(usize);

impl Write for Sink {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

fuzz_target!(|bytes: &[u8]| {
    let message = match Message::parse(bytes) {
        Ok(message) => message,
        Err(e) => {
            assert!(e.offset() <= bytes.len());
            return;
        }
    };
    let mut sink = Sink(0);
    for q in message.questions() {
        write!(sink, "{q}").unwrap();
    }
    for record in message
        .answers()
        .chain(message.authority())
        .chain(message.additional())
    {
        write!(sink, "{record}").unwrap();
        if let Err(e) = record.data() {
            assert!(e.offset() <= bytes.len());
        }
    }
    if let Some(edns) = message.edns() {
        for option in edns.options() {
            write!(sink, "{option}").unwrap();
        }
    }
    let _ = message.rcode();
});
